/**
 * The safety policy's shared vocabulary (issue 20): what the bot never attacks (players, tameable creatures), never
 * uses (igniters: fire, lava, explosives), never breaks (containers it did not place, blocks it saw players place)
 * and where it never works (GHOST_PROTECTED boxes) — the sets, the sentences a player reads, and the checks the rule
 * book's per-action `policy` functions call. The critic applies them to plans, the patroller before each action.
 */
import { describeBox, inBox, type Box, type Pos } from '../schemas/region.js'
import type { PlacedView, PolicyView } from './types.js'

/** Weapons the combat reflex, the guard, attack requests and a night-time find count on, best first (axes hit hard but
 * swing slowly, so every sword comes first). */
export const WEAPONS = [
  'netherite_sword',
  'diamond_sword',
  'iron_sword',
  'stone_sword',
  'golden_sword',
  'wooden_sword',
  'netherite_axe',
  'diamond_axe',
  'iron_axe',
  'stone_axe',
]
/** The weapon a bot arms itself with when it has none: the one any wood makes. */
export const FIRST_WEAPON = 'wooden_sword'

/**
 * Foods the bot never eats and never hunts for: each does harm (hunger, poison, a random teleport). The eating reflex
 * and the hunt for food both read this list.
 */
export const NOT_EATEN: readonly string[] = [
  'rotten_flesh',
  'pufferfish',
  'chorus_fruit',
  'poisonous_potato',
  'spider_eye',
]

/**
 * Vanilla's rule: a player whose food is at or below this cannot sprint. The bot keeps it (a sprint at 0 food looks
 * like a cheat client to a real server), and it is what keeps a long search from starving it: sprinting costs 0.1
 * exhaustion a block, a full bar in about 1000 blocks (mp5 4-3 seed 3 was hurt by hunger from 192 s), walking none.
 */
export const SPRINT_FOOD = 6

/** Whether the bot eats (and hunts for) an item worth `foodPoints` (minecraft-data's): a food, not in NOT_EATEN. */
export function eats(item: string, foodPoints: number): boolean {
  return foodPoints > 0 && !NOT_EATEN.includes(item)
}

/** The best weapon among `held` item names, or null (then the fist). */
export function bestWeaponOf(held: Iterable<string>): string | null {
  const names = new Set(held)
  return WEAPONS.find((w) => names.has(w)) ?? null
}

/** Creatures a player can tame: the bot cannot tell a pet from a wild one before it is close, so it never attacks them. */
export const TAMEABLE = new Set([
  'wolf',
  'cat',
  'ocelot',
  'parrot',
  'horse',
  'donkey',
  'mule',
  'llama',
  'trader_llama',
  'camel',
  'skeleton_horse',
  'zombie_horse',
  'allay',
  'axolotl',
  'fox',
])
/** Items and blocks that start fires or explosions. */
export const IGNITERS = new Set([
  'flint_and_steel',
  'fire_charge',
  'lava_bucket',
  'lava',
  'fire',
  'soul_fire',
  'tnt',
  'tnt_minecart',
  'end_crystal',
  'respawn_anchor',
])
/** Blocks that store other players' things (or brew and smelt them). */
export const CONTAINERS = new Set([
  'chest',
  'trapped_chest',
  'barrel',
  'ender_chest',
  'hopper',
  'dispenser',
  'dropper',
  'furnace',
  'blast_furnace',
  'smoker',
  'brewing_stand',
  'chiseled_bookshelf',
  'decorated_pot',
  'lectern',
  'jukebox',
])
export const isContainer = (name: string): boolean => CONTAINERS.has(name) || name.endsWith('shulker_box')

/** Blocks (not containers) that a click uses: a placement against one opens or flips it instead of placing. */
const USED_ON_CLICK = new Set([
  'crafting_table',
  'enchanting_table',
  'anvil',
  'chipped_anvil',
  'damaged_anvil',
  'cartography_table',
  'loom',
  'stonecutter',
  'smithing_table',
  'grindstone',
  'beacon',
  'bell',
  'lever',
  'note_block',
  'repeater',
  'comparator',
  'daylight_detector',
])
const USED_ON_CLICK_KINDS = /_(door|trapdoor|fence_gate|button|bed)$/
/** A block a click opens or uses (containers too): never the block a placement is made against. */
export const usedOnClick = (name: string): boolean =>
  isContainer(name) || USED_ON_CLICK.has(name) || USED_ON_CLICK_KINDS.test(name)

/** How close (blocks) the bot may stand to a protected box and still dig or place when its target is not known. */
export const STAND_OFF = 2

export const NEVER_PLAYERS = 'I never attack players.'
export const neverPet = (mob: string): string => `I never attack a ${mob}: it may be someone's pet.`
export const neverFire = (what: string): string => `I never use ${what}: fire, lava and explosions spread to buildings.`
export const neverContainer = (block: string): string =>
  `I never break a ${block} I did not place: it may hold someone's things.`

/** The sentence for digging blocks players placed (`placed`: the ones seen, nearest first; `noOther`: none else seen). */
export function neverPlayerPlaced(
  block: string,
  placed: ReadonlyArray<Pos & { player: string }>,
  noOther = false,
): string {
  const first = placed[0]!
  const more = placed.length > 1 ? ` and ${placed.length - 1} more` : ''
  const tail = noOther ? `, and I see no other ${block}` : ''
  return `I never dig ${block} that players placed: ${first.player} placed the one at ${first.x} ${first.y} ${first.z}${more}${tail}.`
}

/**
 * Digging blocks players placed (issue 20): refused when every block of these names the bot sees was placed by a
 * player (at plan time and again before the action runs; the hands also skip player-placed blocks one by one, so a
 * natural block of the same name next to them is still fair game). Blocks an earlier step of the plan placed are the
 * bot's own.
 */
export function playerPlacedProblem(view: PolicyView, blocks: readonly string[]): string | null {
  if (!view.playerPlaced || blocks.some((b) => view.placedByPlan(b))) return null
  const only = view.playerPlaced.onlyPlaced(blocks)
  return only.length > 0 ? neverPlayerPlaced(only[0]!.block, only, true) : null
}

/** Digging down through a floor a player placed (the block under the bot's feet), when the position is known. */
export function placedFloorProblem(view: PolicyView): string | null {
  const p = view.position
  if (!p || !view.playerPlaced) return null
  const under = { x: Math.floor(p.x), y: Math.floor(p.y) - 1, z: Math.floor(p.z) }
  const who = view.playerPlaced.at(under)
  return who ? neverPlayerPlaced(who.block, [{ ...under, player: who.player }]) : null
}

/** The protected box the action would work in, if any: the target inside one, or the bot standing in or next to one. */
export function protectedBox(view: PolicyView): Box | null {
  const at = (p: Pos | null, margin: number): Box | null =>
    p ? (view.protected.find((b) => inBox(b, p, margin)) ?? null) : null
  return at(view.target, 0) ?? at(view.position, STAND_OFF)
}

/** The sentence for working in a protected box, or null when `view` is outside every box. */
export function protectedProblem(view: PolicyView, doing: string): string | null {
  const b = protectedBox(view)
  return b ? `I never ${doing} inside the protected area ${describeBox(b)}.` : null
}

/** A policy view with nothing known but the protected boxes, players and player-placed blocks (plan time). */
export function planView(
  protectedBoxes: readonly Box[] = [],
  players: readonly string[] = [],
  position: Pos | null = null,
  placed: ReadonlySet<string> = new Set(),
  playerPlaced: PlacedView | null = null,
): PolicyView {
  return {
    protected: protectedBoxes,
    players,
    position,
    target: null,
    placedByPlan: (n) => placed.has(n),
    playerPlaced,
  }
}
