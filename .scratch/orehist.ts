// npx tsx .scratch/orehist.ts <seed> x z r regex [y0 y1]
import { WorldScanner } from '../src/server/worldgen/scan.js'
const [seed, x, z, r] = process.argv.slice(2, 6).map(Number)
const re = new RegExp(process.argv[6] ?? 'redstone')
const y0 = Number(process.argv[7] ?? -64), y1 = Number(process.argv[8] ?? 20)
const w = WorldScanner.forSeed(seed!)
const out: string[] = []
for (let y = y0; y <= y1; y++) {
  let n = 0
  for (let dx = -r!; dx <= r!; dx++) for (let dz = -r!; dz <= r!; dz++) if (re.test(w.blockName(x! + dx, y, z! + dz))) n++
  out.push(`${y}:${n}`)
}
console.log(out.join(' '))
