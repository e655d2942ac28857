/**
 * Tool wear as the bot sees it. A mineflayer plugin watches the inventory for an item with a durability that leaves
 * its slot on its last uses (worn to within MAX_USE_COST of its maximum: a sword's dig costs 2) — on a real server,
 * and on the practice server (src/server/plugins/tool-wear.ts), that is the item breaking; `brokeLately` answers
 * whether a named tool broke within a while, so an action that finds its tool gone says it wore out rather than that
 * the bot never had one, and the re-plan makes another from what the bag holds. `equipSparing` (and the pathfinder's
 * own tool choice, src/bot/create.ts) digs rock with the fastest tool that harvests it but keeps a tool's last
 * SPARE_USES for what only it can harvest: an iron pickaxe on its last uses in a diamond search leaves the tunnel to
 * the stone pickaxe and breaks the diamond ore itself.
 */
import type { Bot } from 'mineflayer'
import type { Block } from 'prismarine-block'
import type { Item } from 'prismarine-item'

/** The most uses one action wears off an item (a sword breaking a block). */
const MAX_USE_COST = 2
/** Uses a tool keeps for its own work while another tool can dig the rock around it (a vein of ore). */
export const SPARE_USES = 10
/** Breaks remembered per bot (the oldest go first). */
const KEPT = 16

interface Broken {
  name: string
  atMs: number
}

const breaks = new WeakMap<Bot, Broken[]>()

const usesLeft = (item: Item): number => (item.maxDurability ? item.maxDurability - (item.durabilityUsed ?? 0) : 1e9)

/** Whether a tool of this name broke in the bot's hands within the last `withinMs`. */
export function brokeLately(bot: Bot, name: string, withinMs: number): boolean {
  return lastBroken(bot, [name], withinMs) !== null
}

/** The one of `names` that broke last within the last `withinMs`, or null. */
export function lastBroken(bot: Bot, names: readonly string[], withinMs: number): string | null {
  const now = Date.now()
  const list = breaks.get(bot) ?? []
  for (let i = list.length - 1; i >= 0; i--)
    if (names.includes(list[i]!.name) && now - list[i]!.atMs <= withinMs) return list[i]!.name
  return null
}

/** The plugin: records each item with a durability that vanished from its slot while on its last uses. */
export function toolBreaks(bot: Bot): void {
  const list: Broken[] = []
  breaks.set(bot, list)
  bot.inventory.on('updateSlot', (_slot: number, oldItem: Item | null, newItem: Item | null) => {
    if (!oldItem || newItem?.type === oldItem.type || usesLeft(oldItem) > MAX_USE_COST) return
    list.push({ name: oldItem.name, atMs: Date.now() })
    if (list.length > KEPT) list.shift()
  })
}

/** The items in the bag that harvest `block` (drop it when they dig it); null when it needs no tool. */
export function harvestToolsHeld(bot: Bot, block: Block): Item[] | null {
  if (!block.harvestTools) return null
  const harvest = Object.keys(block.harvestTools).map(Number)
  return bot.inventory.items().filter((i) => harvest.includes(i.type))
}

/**
 * The tool to dig `block` with instead of the fastest when that one is on its last SPARE_USES and another tool in the
 * bag harvests the block too (the fastest of those), else null: the fastest is fine.
 */
export function spareFor(bot: Bot, block: Block): Item | null {
  const time = (i: Item): number => block.digTime(i.type, false, false, false, [], bot.entity.effects)
  const tools = harvestToolsHeld(bot, block)?.sort((a, b) => time(a) - time(b))
  if (!tools || tools.length < 2 || usesLeft(tools[0]!) > SPARE_USES) return null
  return tools.find((i) => usesLeft(i) > SPARE_USES) ?? null
}

/**
 * When the longest-lasting tool in the bag that harvests `block` is on its last SPARE_USES and no other that harvests
 * it lasts as long (every one worn down, or an iron pickaxe worn down beside a stone one): the most uses any tool left
 * fresh has when new (0 with none), so a tool lasting longer than that is worth making (src/actions/retool.ts); 0 too
 * when none that harvests it is held at all; else null. Nothing worn, a fresh tool as good as the worn one, or a block
 * that needs no tool: null.
 */
export function wornPast(bot: Bot, block: Block): number | null {
  const tools = harvestToolsHeld(bot, block)
  if (tools === null) return null
  // none held: any tool lasts longer (bench d70 seed 60 climbed 33 blocks of stone by hand, 7.5 s each, with 171
  // cobblestone, 6 sticks and a table in the bag)
  if (tools.length === 0) return 0
  const lasts = (list: Item[]): number => Math.max(0, ...list.map((i) => i.maxDurability ?? 0))
  const worn = lasts(tools.filter((i) => usesLeft(i) <= SPARE_USES))
  const fresh = lasts(tools.filter((i) => usesLeft(i) > SPARE_USES))
  return worn > fresh ? fresh : null
}

/** Whether every item named `name` in the bag is on its last SPARE_USES (false when it holds none). */
export function onLastUses(bot: Bot, name: string): boolean {
  const held = bot.inventory.items().filter((i) => i.name === name)
  return held.length > 0 && held.every((i) => usesLeft(i) <= SPARE_USES)
}

/** Hold the tool to dig `block` with: `spareFor`'s, else the fastest that harvests it (mineflayer-tool's choice). */
export async function equipSparing(bot: Bot, block: Block): Promise<void> {
  const spare = spareFor(bot, block)
  if (spare) await bot.equip(spare, 'hand').catch(() => {})
  else await bot.tool.equipForBlock(block, {}).catch(() => {})
}
