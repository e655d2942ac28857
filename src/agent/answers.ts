/**
 * Answers grounded in game data, offline and without an LLM: recipes (ingredients, station, how many it makes),
 * where things are found (y-range and best y, biomes, time, the tool needed — following crafted and smelted items
 * down to their raw sources), what drops what (mob loot, block drops), smelting (what goes in, what comes out, time
 * per item, fuel), what a goal would still need from the bot's or a stated inventory (the decomposer's sub-goals),
 * and the bot's own state (what it is doing, carrying, where it is). Every fact comes from src/knowledge; an LLM may
 * only rephrase these sentences (`facts` is what it is given), never add to them.
 */
import type { Knowledge, WhereFound } from '../knowledge/index.js'
import { COOK_TICKS } from '../server/windows/smelting.js'
import type { Step } from '../schemas/step.js'

type AnswerStep = Extract<Step, { kind: 'answer' }>

/** What the bot knows of itself for "what are you doing / carrying / where are you". */
export interface SelfView {
  inventory: Record<string, number>
  /** "getting 3 torch for Alex (sub-goal 2/5: craft 4 stick)", or null when idle. */
  doing: string | null
  /** Waiting requests, for "what are you doing". */
  waiting: number
  position: { x: number; y: number; z: number } | null
  dimension: string | null
}

const TICKS_PER_SECOND = 20
/** Drops rarer than this per kill or block are "rare", and not named as the place to find an item. */
const RARE = 0.1
const an = (w: string): string => (/^[aeiou]/.test(w) ? `an ${w}` : `a ${w}`)
/** Natural sources worth naming: no rare mob drops (a zombie's iron ingot). */
const natural = (item: string, kb: Knowledge): WhereFound[] => kb.whereFound(item).filter((w) => w.yieldPer >= RARE)
const list = (xs: string[]): string =>
  xs.length <= 1 ? (xs[0] ?? '') : `${xs.slice(0, -1).join(', ')} and ${xs[xs.length - 1]!}`

export function answerStep(step: AnswerStep, kb: Knowledge, self: SelfView): string {
  const s = step.subject
  switch (step.question) {
    case 'recipe':
      return s ? recipe(s, kb) : 'A recipe for what?'
    case 'where':
      return s ? where(s, kb) : 'Where is what?'
    case 'drops':
      return s ? drops(s, kb) : 'Drops of what?'
    case 'smelt':
      return s ? smelt(s, kb) : 'Smelt what?'
    case 'needs':
      return s ? needs(s, kb, step.have, self.inventory) : 'Needed for what?'
    case 'doing':
      return self.doing
        ? `I am ${self.doing}.${self.waiting ? ` ${self.waiting} request(s) waiting.` : ''}`
        : `Nothing right now${self.waiting ? `; ${self.waiting} request(s) waiting` : ''}. Ask me for something!`
    case 'inventory':
      return inventory(s, self.inventory)
    case 'position':
      return self.position
        ? `I am at ${self.position.x} ${self.position.y} ${self.position.z}${self.dimension ? ` in the ${self.dimension}` : ''}.`
        : 'I am not in the world right now.'
    case 'capabilities':
      return (
        'Ask me in plain words: "bring me 4 bread", "give me your iron", "how do I make a compass?", "where are diamonds?", ' +
        '"what does a zombie drop?", "come", "follow me", "what are you doing?", "stop", "quiet".'
      )
  }
}

function inventory(subject: string | null, inv: Record<string, number>): string {
  if (subject) return inv[subject] ? `I have ${inv[subject]} ${subject}.` : `I have no ${subject}.`
  const items = Object.entries(inv)
    .filter(([, n]) => n > 0)
    .sort((a, b) => b[1] - a[1])
  return items.length ? `I carry ${items.map(([k, n]) => `${n} ${k}`).join(', ')}.` : 'My inventory is empty.'
}

export function recipe(item: string, kb: Knowledge): string {
  const why = kb.impossibleReason(item)
  if (why && kb.isItem(item)) return `${item} can't be obtained in survival here: ${why}.`
  const groups = kb.recipesFor(item)
  const found = natural(item, kb)
  if (found.length > 0 && groups.length > 0) return `${where(item, kb)} (It can also be crafted: ${recipe1(item, kb)})`
  if (groups.length > 0) return recipe1(item, kb)
  const smelted = kb.smeltingFor(item)
  if (smelted.length > 0)
    return `${item} is not crafted: smelt ${smelted[0]!.inputs.slice(0, 3).join(' or ')} in a furnace (${COOK_TICKS / TICKS_PER_SECOND} s per item).`
  if (!kb.isItem(item))
    return `${item} is not an item, so it has no recipe.${kb.isEntity(item) ? ` ${where(item, kb)}` : ''}`
  return `${item} is not crafted. ${where(item, kb)}`
}

function recipe1(item: string, kb: Knowledge): string {
  const groups = kb.recipesFor(item)
  {
    const g = groups[0]!
    const parts = g.slots.map(
      (sl) =>
        `${sl.count} ${sl.options.length > 1 ? `${sl.options[0]} (or ${sl.options.slice(1, 3).join('/')}${sl.options.length > 3 ? '/…' : ''})` : sl.options[0]}`,
    )
    const more =
      groups.length > 1
        ? ` There ${groups.length === 2 ? 'is 1 other recipe' : `are ${groups.length - 1} other recipes`}.`
        : ''
    return `${item}: ${list(parts)} ${g.needsTable ? 'at a crafting_table' : 'in the 2x2 inventory grid'}, makes ${g.count}.${more}`
  }
}

function describeSource(w: WhereFound): string {
  const loc = w.location
  const y =
    loc && loc.yMin !== null && loc.yMax !== null
      ? ` at y ${loc.yMin} to ${loc.yMax}${loc.bestY !== null ? ` (dig to y ${loc.bestY})` : ''}`
      : ''
  const biomes = loc?.biomes.length ? ` in ${list(loc.biomes.slice(0, 4))}` : ''
  const place = loc
    ? loc.strategy === 'underground'
      ? ' underground'
      : loc.strategy === 'surface'
        ? ' on the surface'
        : ''
    : ''
  const time = loc?.time ? ` at ${loc.time}` : ''
  const tool = w.tools.length ? ` with ${an(w.tools[0]!)} or better` : ''
  switch (w.kind) {
    case 'mine':
      return `mine ${w.from}${place}${y}${biomes}${tool}`
    case 'hunt':
      return `kill ${w.from}${place}${biomes}${time}`
    case 'apply':
      return `use ${w.tools[0] ?? 'a tool'} on ${w.from}${w.note ? ` (${w.note})` : ''}`
    case 'collect':
      return `pick it up near ${w.from}${w.note ? ` (${w.note})` : ''}`
  }
}

export function where(subject: string, kb: Knowledge): string {
  if (kb.isEntity(subject) && !kb.isItem(subject)) {
    const m = kb.data.world.mobs[subject]
    if (!m) return `I have no spawning data for ${subject}.`
    const loc = m.biomes?.length ? ` in ${list(m.biomes.slice(0, 4))}` : ''
    return `${subject} spawns ${m.where === 'underground' ? 'underground' : 'on the surface'}${loc}${'time' in m && m.time ? ` at ${m.time}` : ''}.`
  }
  const why = kb.impossibleReason(subject)
  if (why && kb.isItem(subject)) return `${subject} can't be obtained in survival here: ${why}.`
  const direct = natural(subject, kb)
  if (direct.length > 0) return `${subject}: ${list(direct.slice(0, 2).map(describeSource))}.`
  // crafted or smelted: say how, and where its raw input comes from
  const smelt = kb.smeltingFor(subject)[0]
  if (smelt) {
    const raw = smelt.inputs[0]!
    const src = natural(raw, kb)
    return `${subject} comes from smelting ${raw}${src.length ? `; ${raw}: ${describeSource(src[0]!)}` : ''}.`
  }
  if (kb.recipesFor(subject).length) return `${subject} is crafted, not found. ${recipe(subject, kb)}`
  if (kb.isBlock(subject)) {
    const tools = kb.harvestTools(subject)
    return `${subject} is a block; I have no generation data for it${tools.length ? `; it needs ${an(tools[0]!)} or better` : ''}.`
  }
  return kb.infoFor(subject) || `I have no data on where to find ${subject}.`
}

export function drops(subject: string, kb: Knowledge): string {
  if (kb.isEntity(subject) && !kb.isItem(subject)) {
    const d = [...kb.sources.mobDropsOf(subject)].filter(([, n]) => n > 0)
    return d.length
      ? `${subject} drops ${list(d.map(([i, n]) => `${i} (${n < RARE ? 'rarely' : `about ${round(n)}`})`))} when killed.`
      : `${subject} drops nothing I know of.`
  }
  const parts: string[] = []
  if (kb.isBlock(subject)) {
    const d = Object.entries(kb.dropsOf(subject))
    const tools = kb.harvestTools(subject)
    if (d.length)
      parts.push(
        `${subject} drops ${list(d.map(([i, n]) => `${i}${n !== 1 ? ` (about ${round(n)})` : ''}`))} when mined${tools.length ? ` with ${an(tools[0]!)} or better` : ''}`,
      )
  }
  if (kb.isItem(subject)) {
    const mobs = kb.mobsFor(subject).slice(0, 4)
    if (mobs.length) parts.push(`${subject} is dropped by ${list(mobs.map((m) => m.mob))}`)
    const blocks = kb
      .whereFound(subject)
      .filter((w) => w.kind === 'mine' && w.from !== subject)
      .slice(0, 3)
    if (blocks.length) parts.push(`${subject} drops from ${list(blocks.map((b) => b.from))}`)
  }
  return parts.length ? `${parts.join('; ')}.` : `I know of nothing that drops ${subject}.`
}

const round = (n: number): string => (Number.isInteger(n) ? String(n) : n.toFixed(1))

export function smelt(subject: string, kb: Knowledge): string {
  const secs = COOK_TICKS / TICKS_PER_SECOND
  const fuel = ` in a furnace, ${secs} s per item; 1 coal smelts ${kb.burnItems('coal') ?? 8} items`
  const out = kb.smeltResult(subject)
  if (out) return `${subject} smelts into ${out}${fuel}.`
  const ins = kb.smeltingFor(subject)
  if (ins.length) return `${subject} comes from smelting ${ins[0]!.inputs.slice(0, 3).join(' or ')}${fuel}.`
  return `${subject} can't be smelted and is not made by smelting.`
}

export function needs(
  item: string,
  kb: Knowledge,
  have: Array<{ object: string; count: number | null }> | null,
  botInv: Record<string, number>,
): string {
  const inv: Record<string, number> = have ? Object.fromEntries(have.map((h) => [h.object, h.count ?? 1])) : botInv
  const whose = have ? (have.length ? 'with what you have' : 'from nothing') : 'from what I carry'
  const dec = kb.decompose({ object: item, count: 1 }, inv)
  if (!dec.ok) return `I can't get ${item}: ${dec.reason}.`
  if (dec.steps.length === 0) return `Nothing more: ${have ? 'you' : 'I'} already have ${item}.`
  const raw = dec.steps
    .filter((s) => s.kind !== 'craft' && s.kind !== 'smelt')
    .map((s) => `${s.goal.count} ${s.goal.object}`)
  const steps = dec.steps.map((s) => `${s.kind} ${s.goal.count} ${s.goal.object}`)
  const shown = steps.length > 8 ? [...steps.slice(0, 8), `… ${steps.length - 8} more`] : steps
  return `For ${item} ${whose}: ${raw.length ? `gather ${list(raw)}; ` : ''}steps: ${shown.join(', ')}.`
}
