/**
 * The router's SkillsPort over the action registry (issue 17): the companion skills players ask for in their own
 * words — goto (coordinates, a player via `come`, or a named place looked up in memory), deposit/withdraw at a chest
 * (the nearest, one at coordinates, or the one at a named place), guard a player, attack a mob type — each run as
 * its action through `execute` (budgets, stop, reflexes, fixed failure reasons, GHOST_PROTECTED). A stop rejects
 * with AbortedError so the router answers "Stopped". Guarding resumes after a reflex took over (another mob hit the
 * bot), at most `MAX_RESUMES` times. Always reads the supervisor's current bot.
 */
import type { Bot } from 'mineflayer'
import type { GotoTarget, PlacesPort, SkillsPort } from '../router/services.js'
import type { Action, ActionResult } from '../schemas/action.js'
import type { Box } from '../schemas/region.js'
import type { Outcome } from '../schemas/task.js'
import { AbortedError } from '../util/errors.js'
import { Vec3 } from 'vec3'
import { buildBlueprintAt, type Site } from './build.js'
import { come, onlineName } from './come.js'
import { bestWeapon } from './reflexes/combat.js'
import { execute } from './index.js'
import { runHandler } from './run.js'
import { DEFAULT_BUDGETS } from './types.js'

const NOT_CONNECTED: Outcome = { ok: false, text: 'I am not connected to the server right now.' }
const MAX_RESUMES = 5

function outcomeOf(r: ActionResult, what: string, signal: AbortSignal): Outcome {
  if (r.reason === 'interrupted' && signal.aborted) throw new AbortedError(what)
  return { ok: r.ok, text: r.message }
}

/** "10 64 -20" → coordinates, else null. */
export function parseXyz(text: string): { x: number; y: number; z: number } | null {
  const m = /^\s*(-?\d+)[\s,]+(-?\d+)[\s,]+(-?\d+)\s*$/.exec(text)
  return m ? { x: Number(m[1]), y: Number(m[2]), z: Number(m[3]) } : null
}

/** Where the chest is: "chest at 10 64 -20" / "chest at base" / "base" → "10 64 -20" / "base"; a bare "(big) chest" → null (the nearest). */
export function chestWhere(chest: string | null): string | null {
  if (!chest) return null
  return /(?:^|\s)at\s+(.+)$/.exec(chest)?.[1] ?? (/\bchest$/.test(chest) ? null : chest)
}

/** Unit step along the dominant horizontal axis from `a` to `b` (+z when they coincide). */
function facing(a: Vec3, b: Vec3): { fx: number; fz: number } {
  const dx = b.x - a.x
  const dz = b.z - a.z
  if (Math.abs(dx) < 0.5 && Math.abs(dz) < 0.5) return { fx: 0, fz: 1 }
  return Math.abs(dx) > Math.abs(dz) ? { fx: Math.sign(dx), fz: 0 } : { fx: 0, fz: Math.sign(dz) }
}

/** The yaw's direction as a unit step (mineflayer yaw 0 looks towards -z). */
function lookStep(yaw: number): { fx: number; fz: number } {
  const x = -Math.sin(yaw)
  const z = -Math.cos(yaw)
  return Math.abs(x) > Math.abs(z) ? { fx: Math.sign(x), fz: 0 } : { fx: 0, fz: Math.sign(z) }
}

/** Where to build: "here" = 2 blocks in front of the requester; "at x y z"; "next to <place>". Front faces the requester. */
export async function buildSite(
  bot: Bot,
  where: string | null,
  requester: string,
  places: PlacesPort | null,
): Promise<Site | string> {
  const name = onlineName(bot, requester)
  const player = name ? bot.players[name]?.entity : undefined
  const from = player?.position ?? bot.entity.position
  const text = (where ?? 'here').trim().replace(/^(?:right )?here$/i, 'here')
  if (text === 'here') {
    if (!player) return `I can't see you, ${requester}; say where: "at x y z" or "next to <place>".`
    const f = lookStep(player.yaw)
    return { origin: player.position.floored().offset(f.fx * 2, 0, f.fz * 2), ...f }
  }
  const xyz = parseXyz(text.replace(/^at\s+/i, ''))
  if (xyz) {
    const o = new Vec3(xyz.x, xyz.y, xyz.z)
    return { origin: o, ...facing(from, o) }
  }
  const near = /^(?:next to|near|by|beside|at)\s+(.+)$/i.exec(text)
  const p = places ? await places.find(near ? near[1]! : text) : null
  if (!p) return `I know no place called ${near ? near[1] : text}; say "here", "at x y z" or "next to <place>".`
  const base = new Vec3(p.x, p.y, p.z)
  const f = facing(from, base)
  return { origin: near ? base.offset(-f.fz * 4, 0, f.fx * 4) : base, ...f }
}

export function createSkills(
  getBot: () => Bot | null,
  places: PlacesPort | null,
  protectedBoxes: readonly Box[] = [],
): SkillsPort {
  const run = async (action: Action, signal: AbortSignal): Promise<Outcome> => {
    const bot = getBot()
    if (!bot?.entity) return NOT_CONNECTED
    return outcomeOf(await execute(bot, action, { signal, protected: protectedBoxes }), action.type, signal)
  }
  const placeXyz = async (name: string): Promise<{ x: number; y: number; z: number } | string> => {
    const p = places ? await places.find(name) : null
    if (p) return p
    const known = places ? (await places.list()).map((q) => q.name) : []
    return `I know no place called ${name}${known.length ? `; I know ${known.join(', ')}` : ''}. Say "remember this place as ${name}" there first.`
  }
  return {
    async goto(target: GotoTarget, signal) {
      if (target.kind === 'player') {
        const bot = getBot()
        if (!bot?.entity) return NOT_CONNECTED
        return outcomeOf(await come(bot, target.name, { signal }), 'goto', signal)
      }
      const at = target.kind === 'xyz' ? target : await placeXyz(target.name)
      if (typeof at === 'string') return { ok: false, text: at }
      const out = await run({ type: 'goto', x: at.x, y: at.y, z: at.z }, signal)
      return target.kind === 'place' && out.ok
        ? { ok: true, text: `I'm at ${target.name} (${at.x} ${at.y} ${at.z}).` }
        : out
    },
    async store(op, items, chest, signal) {
      const where = chestWhere(chest)
      let at = where ? parseXyz(where) : null
      if (where && !at) {
        const p = await placeXyz(where)
        if (typeof p === 'string') return { ok: false, text: p }
        const walk = await run({ type: 'goto', x: p.x, y: p.y, z: p.z }, signal) // a named place: the nearest chest there
        if (!walk.ok) return walk
        at = null
      }
      if (op === 'withdraw' && items.length === 0)
        return { ok: false, text: 'Which items should I take out of the chest?' }
      return run(
        op === 'deposit' ? { type: 'deposit', items, chest: at } : { type: 'withdraw', items, chest: at },
        signal,
      )
    },
    async guard(player, signal) {
      for (let i = 0; ; i++) {
        const bot = getBot()
        if (!bot?.entity) return NOT_CONNECTED
        const r = await execute(bot, { type: 'guard', player }, { signal, protected: protectedBoxes })
        if (r.reason !== 'unsafe' || i >= MAX_RESUMES || signal.aborted) return outcomeOf(r, 'guard', signal)
      }
    },
    async build(blueprint, where, requester, signal, onLayer) {
      const bot = getBot()
      if (!bot?.entity) return NOT_CONNECTED
      const site = await buildSite(bot, where, requester, places)
      if (typeof site === 'string') return { ok: false, text: site }
      const r = await runHandler(
        bot,
        { signal, protected: protectedBoxes },
        {
          name: 'build',
          doing: `building a ${blueprint}`,
          budget: DEFAULT_BUDGETS.build,
          tracked: false,
        },
        (run) => buildBlueprintAt(run, blueprint, site, onLayer),
      )
      return outcomeOf(r, 'build', signal)
    },
    whereIs(player) {
      const bot = getBot()
      if (!bot?.entity) return null
      const name = onlineName(bot, player)
      const e = name === bot.username ? bot.entity : name ? bot.players[name]?.entity : undefined
      if (!e) return null
      const p = e.position.floored()
      return { x: p.x, y: p.y, z: p.z, dimension: String(bot.game.dimension).replace('minecraft:', '') }
    },
    async attack(mob, signal) {
      const bot = getBot()
      const tool = bot ? bestWeapon(bot) : null
      return run({ type: 'attack', object: mob, tool }, signal)
    },
  }
}
