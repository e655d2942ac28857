/**
 * The guard reflex: every physics tick, look ahead in the direction of travel; lava there (or a drop deeper than
 * `maxSafeDrop` with nothing to land on) stops all movement and steps the bot back to the last safe spot it stood on
 * at its level. Remembers the last ~60 safe positions on solid ground as the trail to step back along; a step back
 * toward lava or a drop of its own stops where the bot stands. A bot that presses no movement key looks ahead only as
 * far as its slide on the ground's friction takes it, and one sneaking on the ground fears no drop (the physics keeps
 * a sneaking player on its block, as vanilla does): both are how the pathfinder stands on the towers it builds.
 */
import type { Bot } from 'mineflayer'
import { Vec3 } from 'vec3'
import { solidAt } from '../../bot/body.js'
import { fallFrom, LAVA_PROBE } from '../../bot/lava-margin.js'
import type { AttachedReflex, ReflexHost, ReflexPlugin } from './index.js'

/** Eye height of a standing player. */
const EYE_HEIGHT = 1.62
/** Trail spots within this height of the feet count as on the bot's level. */
const LEVEL_EPS = 0.5
/** How long stepping back counts as busy after the reflex fires. */
const STEP_BACK_BUSY_MS = 900

function isLiquid(bot: Bot, p: Vec3, name: string): boolean {
  return bot.blockAt(p)?.name === name
}

/** How far ahead a walking bot looks (half a block and a block on), the farthest also the most a slide looks. */
const FAR_REACH = 0.9
const WALK_REACHES = [0.45, FAR_REACH]
/** The movement keys; with none pressed the bot only slides. */
const MOVE_KEYS = ['forward', 'back', 'left', 'right'] as const
/**
 * Ground slipperiness by block (prismarine-physics' table, after vanilla; every other block 0.6): each tick on the
 * ground keeps this times 0.91 of the horizontal speed.
 */
const SLIPPERINESS: Record<string, number> = {
  slime_block: 0.8,
  ice: 0.98,
  packed_ice: 0.98,
  frosted_ice: 0.98,
  blue_ice: 0.989,
}
const DEFAULT_SLIPPERINESS = 0.6
const AIR_DRAG = 0.91

/** How far a bot on the ground at `speed` (blocks a tick) slides with no key pressed: speed × f / (1 − f). */
function slideOf(bot: Bot, speed: number): number {
  const below = bot.blockAt(bot.entity.position.offset(0, -0.5, 0).floored())?.name ?? ''
  const f = (SLIPPERINESS[below] ?? DEFAULT_SLIPPERINESS) * AIR_DRAG
  return (speed * f) / (1 - f)
}

/**
 * What lies ahead along the unit direction dx/dz, at each of `reaches` (blocks): lava, a deadly drop, or nothing.
 * `drops`: false when the bot cannot fall off its block (sneaking on the ground).
 */
function dangerToward(
  bot: Bot,
  dx: number,
  dz: number,
  maxSafeDrop: number,
  reaches: readonly number[] = WALK_REACHES,
  drops = true,
): { kind: 'lava' | 'drop'; at: Vec3 } | null {
  const e = bot.entity
  for (const reach of reaches) {
    const p = e.position.offset(dx * reach, 0, dz * reach).floored()
    if (p.equals(e.position.floored())) continue
    if (LAVA_PROBE.some((d) => isLiquid(bot, p.plus(d), 'lava'))) return { kind: 'lava', at: p }
    if (!e.onGround || !drops) continue
    // a hole with lava at its bottom is no landing, however shallow (two blocks down onto the lava-filled caves
    // under the diamond level killed bench:diamond runs on seeds 2 and 7)
    const fall = fallFrom(bot, p, maxSafeDrop)
    if (fall !== 'none') return { kind: fall === 'lava' ? 'lava' : 'drop', at: p }
  }
  return null
}

/**
 * What is ahead in the direction of travel (the velocity, or the facing when pressing forward from a stand): as far
 * as a walk looks, or as far as the slide goes when no key is pressed (the pathfinder's stop on a 1×1 tower top
 * coasts a few hundredths of a block; a look half a block on saw the tower's rim as a deadly drop, and mine gave the
 * ore up under load). Sneaking on the ground, only lava counts: the physics keeps a sneaking bot on its block (the
 * pathfinder backs to a tower's edge so to place the block it steps onto).
 */
function dangerAhead(bot: Bot, maxSafeDrop: number): { kind: 'lava' | 'drop'; at: Vec3 } | null {
  const e = bot.entity
  const speed = Math.hypot(e.velocity.x, e.velocity.z)
  const drops = !(e.onGround && bot.getControlState('sneak'))
  if (speed >= 0.03) {
    const walking = MOVE_KEYS.some((k) => bot.getControlState(k))
    const reaches = walking ? WALK_REACHES : [Math.min(slideOf(bot, speed), FAR_REACH)]
    return dangerToward(bot, e.velocity.x / speed, e.velocity.z / speed, maxSafeDrop, reaches, drops)
  }
  if (!bot.getControlState('forward')) return null
  return dangerToward(bot, -Math.sin(e.yaw), -Math.cos(e.yaw), maxSafeDrop, WALK_REACHES, drops)
}

function attach(host: ReflexHost): AttachedReflex {
  const { bot } = host
  /** Recent positions on solid ground (last ~3 s), newest last: where a step back goes. */
  const safeTrail: Vec3[] = []
  let stepBack: { target: Vec3; ticks: number } | null = null
  let busyUntil = 0

  const stepping = (): void => {
    const s = stepBack!
    s.ticks--
    const here = bot.entity.position
    const [dx, dz] = [s.target.x - here.x, s.target.z - here.z]
    const norm = Math.hypot(dx, dz)
    // the step back is a walk too: one toward another hole or lava stops where the bot stands (bench p7 piston seed 2:
    // stopped at a cave's edge at the foot of its shaft, it stepped back toward its staircase into the next hole and
    // fell 8 blocks into the lava caves)
    if (s.ticks <= 0 || norm < 0.3 || dangerToward(bot, dx / norm, dz / norm, host.options.maxSafeDrop)) {
      bot.clearControlStates()
      stepBack = null
      return
    }
    void bot.lookAt(s.target.offset(0, EYE_HEIGHT, 0), true).catch(() => {})
    bot.setControlState('forward', true)
  }

  const onTick = (): void => {
    if (!bot.entity) return
    if (stepBack) {
      stepping()
      return
    }
    const danger = dangerAhead(bot, host.options.maxSafeDrop)
    if (danger) {
      host.stopMoving()
      const pos = bot.entity.position
      const centre = danger.at.offset(0.5, 0, 0.5)
      const far = (v: Vec3): number => Math.hypot(v.x - centre.x, v.z - centre.z)
      // on the level the bot stands on: a spot up a staircase or a shaft, flattened onto this level, is a wall or a hole
      const trail = [...safeTrail]
        .reverse()
        .find((v) => far(v) >= 1.8 && v.distanceTo(pos) < 4 && Math.abs(v.y - pos.y) < LEVEL_EPS)
      const away = pos.minus(centre)
      const norm = Math.hypot(away.x, away.z) || 1
      const back = trail ?? pos.offset((away.x / norm) * 1.2, 0, (away.z / norm) * 1.2)
      stepBack = { target: new Vec3(back.x, pos.y, back.z), ticks: 16 }
      busyUntil = Date.now() + STEP_BACK_BUSY_MS
      const at = `${danger.at.x} ${danger.at.y} ${danger.at.z}`
      host.takeOver(
        danger.kind,
        danger.kind === 'lava'
          ? `I stopped because there is lava ahead at ${at}.`
          : `I stopped at the edge of a deadly drop at ${at}.`,
      )
      return
    }
    const feet = bot.entity.position.floored()
    if (bot.entity.onGround && solidAt(bot, feet.offset(0, -1, 0)) && !isLiquid(bot, feet, 'lava')) {
      const last = safeTrail[safeTrail.length - 1]
      if (!last || last.distanceTo(bot.entity.position) > 0.2) safeTrail.push(bot.entity.position.clone())
      if (safeTrail.length > 60) safeTrail.shift()
    }
  }

  bot.on('physicsTick', onTick)
  return {
    busy: () => stepBack !== null || Date.now() < busyUntil,
    detach() {
      bot.removeListener('physicsTick', onTick)
      if (stepBack) bot.clearControlStates()
      stepBack = null
    },
  }
}

const plugin: ReflexPlugin = { name: 'guard', attach }
export default plugin
