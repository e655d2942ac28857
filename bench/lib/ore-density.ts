/**
 * Ore density of the practice world for `npm run bench:world`: generated ore blocks (stone and deepslate variants)
 * per chunk in y-bands, counted straight from the generator over a square of chunks around each seed's spawn, with
 * vanilla 1.20.2's placement settings for the same ore (the generator's VEIN_RULES: veins per chunk × vein size,
 * height distribution, discard-when-exposed) beside them, so an ore that comes out too sparse shows up as a number.
 */
import { VEIN_RULES } from '../../src/server/worldgen/features.js'
import { ORES } from '../../src/server/worldgen/palette.js'
import type { WorldScanner } from '../../src/server/worldgen/scan.js'
import type { Row } from './table.js'

export const BANDS: Array<[number, number]> = [
  [-64, -33],
  [-32, -1],
  [0, 31],
  [32, 63],
  [64, 127],
  [128, 319],
]

/** Vanilla's settings for an ore as text: "20×17 triangle 0..192 discard 0.5; …". */
export function vanillaSettings(ore: string): string {
  return VEIN_RULES.filter((r) => r.ore === ore)
    .map((r) => {
      const count = r.countMax !== undefined ? `${r.count}-${r.countMax}` : r.rarity ? `1/${r.rarity}` : String(r.count)
      return `${count}×${r.size} ${r.dist} ${r.min}..${r.max}${r.discard ? ` discard ${r.discard}` : ''}`
    })
    .join('; ')
}

/** Mean ore blocks per chunk in each band over (2·radius+1)² chunks around `centre` (chunk coordinates) per scanner. */
export function oreDensity(scanners: Array<{ scanner: WorldScanner; cx: number; cz: number }>, radius = 2): Row[] {
  const counts = new Map<string, number[]>()
  for (const ore of ORES)
    counts.set(
      ore,
      BANDS.map(() => 0),
    )
  const bandOf = new Int8Array(384).map((_, i) => BANDS.findIndex(([lo, hi]) => i - 64 >= lo && i - 64 <= hi))
  let chunks = 0
  for (const { scanner, cx, cz } of scanners) {
    const stateOre = new Map<number, string>()
    for (const [state, name] of scanner.world.palette.nameOf) {
      const ore = ORES.find((o) => name === `${o}_ore` || name === `deepslate_${o}_ore`)
      if (ore) stateOre.set(state, ore)
    }
    for (let x = cx - radius; x <= cx + radius; x++) {
      for (let z = cz - radius; z <= cz + radius; z++) {
        const blocks = scanner.chunk(x, z).blocks
        chunks++
        for (let i = 0; i < blocks.length; i++) {
          const ore = stateOre.get(blocks[i]!)
          if (ore) counts.get(ore)![bandOf[i >> 8]!]!++
        }
      }
    }
  }
  return ORES.map((ore) => {
    const c = counts.get(ore)!
    const row: Row = { ore }
    BANDS.forEach(([lo, hi], b) => {
      row[`y${lo}..${hi}`] = Math.round((c[b]! / chunks) * 10) / 10
    })
    row.total = Math.round((c.reduce((a, b) => a + b, 0) / chunks) * 10) / 10
    row.vanilla = vanillaSettings(ore)
    return row
  })
}
