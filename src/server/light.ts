/**
 * Sky and block light of one 1.20.2 chunk column (prismarine-chunk), computed with vanilla's rules inside the
 * column: sky light is 15 from the sky straight down through blocks that filter nothing (air, glass, plants), loses a
 * block's filter (leaves, water: 1) on the way and stops at opaque blocks; block light starts at each emitting block
 * (torch 14, lava/glowstone 15 — minecraft-data's `emitLight`) and both spread to the six neighbours losing
 * max(1, filter) per step. Light does not cross into neighbouring columns (so a torch by a chunk edge lights only its
 * own side); that is the one simplification. The result is written straight into the column's light sections, which
 * flying-squid's `map_chunk` (`chunk.dumpLight()`) and our `update_light` send.
 */

interface BitArrayLike {
  data: Uint32Array
}
interface SectionLike {
  data: { get(i: number): number }
}
export interface LightColumn {
  minY: number
  worldHeight: number
  sections: Array<SectionLike | null>
  skyLightSections: Array<BitArrayLike | null>
  blockLightSections: Array<BitArrayLike | null>
  setSkyLight(pos: { x: number; y: number; z: number }, light: number): void
  setBlockLight(pos: { x: number; y: number; z: number }, light: number): void
}

export interface LightTables {
  filter: Uint8Array
  emit: Uint8Array
}

interface BlockInfo {
  minStateId: number
  maxStateId: number
  filterLight?: number
  emitLight?: number
  transparent?: boolean
}

/** Per-state filter (0..15) and emission tables from a registry's blocks. */
export function lightTables(blocks: BlockInfo[]): LightTables {
  let max = 0
  for (const b of blocks) max = Math.max(max, b.maxStateId)
  const filter = new Uint8Array(max + 1)
  const emit = new Uint8Array(max + 1)
  for (const b of blocks) {
    const f = b.filterLight ?? (b.transparent ? 0 : 15)
    for (let s = b.minStateId; s <= b.maxStateId; s++) {
      filter[s] = f
      emit[s] = b.emitLight ?? 0
    }
  }
  return { filter, emit }
}

interface ContainerLike {
  get(i: number): number
  value?: number
  palette?: number[]
}

/** Every cell's state id, and the cells holding light-emitting blocks (sections are skipped by their palette). */
function readStates(col: LightColumn, height: number, t: LightTables): { states: Uint32Array; emitters: number[] } {
  const states = new Uint32Array(height << 8)
  const emitters: number[] = []
  for (let s = 0; s < height >> 4; s++) {
    const data = col.sections[s]?.data as ContainerLike | undefined
    if (!data) continue
    const base = s << 12
    if (typeof data.value === 'number') {
      states.fill(data.value, base, base + 4096)
      if (t.emit[data.value]) for (let i = 0; i < 4096; i++) emitters.push(base + i)
      continue
    }
    for (let i = 0; i < 4096; i++) states[base + i] = data.get(i)
    if (data.palette && !data.palette.some((v) => t.emit[v])) continue
    for (let i = base; i < base + 4096; i++) if (t.emit[states[i]!]) emitters.push(i)
  }
  return { states, emitters }
}

/** Spread light from every queued cell to its neighbours (BFS); `light` holds the levels, `queue` the seeds. */
function spread(light: Uint8Array, states: Uint32Array, t: LightTables, queue: number[], height: number): void {
  for (let q = 0; q < queue.length; q++) {
    const i = queue[q]!
    const l = light[i]!
    if (l <= 1) continue
    const x = i & 15
    const z = (i >> 4) & 15
    const y = i >> 8
    const visit = (n: number): void => {
      const nl = l - Math.max(1, t.filter[states[n]!]!)
      if (nl > light[n]!) {
        light[n] = nl
        queue.push(n)
      }
    }
    if (x > 0) visit(i - 1)
    if (x < 15) visit(i + 1)
    if (z > 0) visit(i - 16)
    if (z < 15) visit(i + 16)
    if (y > 0) visit(i - 256)
    if (y < height - 1) visit(i + 256)
  }
}

function skyLight(states: Uint32Array, t: LightTables, height: number): Uint8Array {
  const sky = new Uint8Array(height << 8)
  let lowest = height
  let highest = 0
  for (let c = 0; c < 256; c++) {
    let l = 15
    let y = height - 1
    for (; y >= 0 && l > 0; y--) {
      const i = (y << 8) | c
      l = Math.max(0, l - t.filter[states[i]!]!)
      sky[i] = l
    }
    lowest = Math.min(lowest, y + 1)
    highest = Math.max(highest, y + 1)
  }
  // seeds: lit cells next to a darker, non-opaque neighbour (under overhangs, canopies, hole walls); above the
  // highest column stop everything is 15, so only the band between the stops is searched
  const queue: number[] = []
  const from = Math.max(0, lowest) << 8
  const to = Math.min(height, highest + 2) << 8
  for (let i = from; i < to; i++) {
    const l = sky[i]!
    if (l <= 1) continue
    const x = i & 15
    const z = (i >> 4) & 15
    const d = l - 1
    if (
      (x > 0 && sky[i - 1]! < d && t.filter[states[i - 1]!]! < 15) ||
      (x < 15 && sky[i + 1]! < d && t.filter[states[i + 1]!]! < 15) ||
      (z > 0 && sky[i - 16]! < d && t.filter[states[i - 16]!]! < 15) ||
      (z < 15 && sky[i + 16]! < d && t.filter[states[i + 16]!]! < 15) ||
      (i >= 256 && sky[i - 256]! < d && t.filter[states[i - 256]!]! < 15)
    )
      queue.push(i)
  }
  spread(sky, states, t, queue, height)
  return sky
}

function blockLight(states: Uint32Array, emitters: number[], t: LightTables, height: number): Uint8Array {
  const light = new Uint8Array(height << 8)
  for (const i of emitters) light[i] = t.emit[states[i]!]!
  spread(light, states, t, emitters, height)
  return light
}

/** Write levels into light sections 1..n (index 0 is the section below the world; n+1 above it gets `above`). */
function writeLight(col: LightColumn, levels: Uint8Array, height: number, sky: boolean): void {
  const sections = sky ? col.skyLightSections : col.blockLightSections
  const set = (pos: { x: number; y: number; z: number }, v: number): void => {
    if (sky) col.setSkyLight(pos, v)
    else col.setBlockLight(pos, v)
  }
  for (let s = 0; s < height >> 4; s++) {
    const base = s << 12
    let any = false
    for (let i = 0; i < 4096 && !any; i++) any = levels[base + i]! > 0
    const pos = { x: 0, y: col.minY + (s << 4), z: 0 }
    if (!any && !sections[s + 1]) continue
    if (!sections[s + 1]) set(pos, levels[base]! || 1) // creates the section and sets its mask bit
    const words = sections[s + 1]!.data
    words.fill(0)
    for (let i = 0; i < 4096; i++) {
      const v = levels[base + i]!
      if (v) words[i >> 3] = (words[i >> 3]! | (v << ((i & 7) * 4))) >>> 0
    }
  }
  if (sky) {
    const top = { x: 0, y: col.minY + height, z: 0 }
    if (!sections[(height >> 4) + 1]) set(top, 15)
    sections[(height >> 4) + 1]?.data.fill(0xffffffff)
  }
}

/** Recompute and store the whole column's sky and block light. */
export function lightColumn(col: LightColumn, t: LightTables): void {
  const height = col.worldHeight
  const { states, emitters } = readStates(col, height, t)
  writeLight(col, skyLight(states, t, height), height, true)
  writeLight(col, blockLight(states, emitters, t, height), height, false)
}
