/**
 * `build(blueprint)`: place the blocks of a shipped blueprint (data/blueprints/<name>.json: relative positions and
 * block names) bottom-up, on the first clear, level site 2–4 blocks from the bot (blueprint +z points away from it). Checks the materials first (`missing_materials`),
 * skips blocks already there, and fails with `no_space` when a spot is taken or has nothing to place against.
 */
import { readFileSync, readdirSync } from 'node:fs'
import path from 'node:path'
import { fileURLToPath } from 'node:url'
import { z } from 'zod'
import type { Action } from '../schemas/action.js'
import { didYouMean } from '../util/text.js'
import { Vec3 } from 'vec3'
import { fail, countOf, type Run } from './types.js'
import { goals, goto } from './world.js'

export const Blueprint = z.object({
  name: z.string().min(1),
  description: z.string(),
  blocks: z.array(z.object({ x: z.number().int(), y: z.number().int().min(0), z: z.number().int(), block: z.string().min(1) })).min(1).max(512),
})
export type Blueprint = z.infer<typeof Blueprint>

const DIR = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../data/blueprints')

export function blueprintNames(): string[] { return readdirSync(DIR).filter((f) => f.endsWith('.json')).map((f) => f.slice(0, -5)).sort() }

export function loadBlueprint(name: string): Blueprint | null {
  if (!/^[a-z0-9_]+$/.test(name) || !blueprintNames().includes(name)) return null
  return Blueprint.parse(JSON.parse(readFileSync(path.join(DIR, `${name}.json`), 'utf8')))
}

const SIDES = [new Vec3(0, -1, 0), new Vec3(1, 0, 0), new Vec3(-1, 0, 0), new Vec3(0, 0, 1), new Vec3(0, 0, -1), new Vec3(0, 1, 0)]

/** Where blueprint block (x, y, z) goes for an origin and a forward direction (+z away from the bot, +x right). */
function at(origin: Vec3, fx: number, fz: number, b: { x: number; y: number; z: number }): Vec3 {
  return origin.offset(-fz * b.x + fx * b.z, b.y, fx * b.x + fz * b.z)
}

/** The first origin 2–4 blocks away (facing direction first) where every blueprint spot is free and on the ground. */
function chooseSite(run: Run, bp: Blueprint): { origin: Vec3; fx: number; fz: number } | null {
  const { bot } = run
  const yaw = bot.entity.yaw
  const f0x = Math.round(-Math.sin(yaw))
  const f0z = f0x !== 0 ? 0 : Math.round(-Math.cos(yaw)) || 1
  const dirs: Array<[number, number]> = [[f0x, f0z], [-f0z, f0x], [f0z, -f0x], [-f0x, -f0z]]
  const me = bot.entity.position.floored()
  for (const [fx, fz] of dirs) {
    for (const dist of [2, 3, 4]) {
      const origin = me.offset(fx * dist, 0, fz * dist)
      for (let i = 0; i < 3 && bot.blockAt(origin)?.boundingBox === 'block'; i++) origin.y++
      for (let i = 0; i < 3 && bot.blockAt(origin.offset(0, -1, 0))?.boundingBox === 'empty'; i++) origin.y--
      if (bot.blockAt(origin.offset(0, -1, 0))?.boundingBox !== 'block') continue
      const ok = bp.blocks.every((b) => {
        const p = at(origin, fx, fz, b)
        const here = bot.blockAt(p)
        return !!here && (here.boundingBox === 'empty' || here.name === b.block) && here.name !== 'lava' && !(p.x === me.x && p.z === me.z && (p.y === me.y || p.y === me.y + 1))
      })
      if (ok) return { origin, fx, fz }
    }
  }
  return null
}

export async function build(run: Run, action: Extract<Action, { type: 'build' }>): Promise<string> {
  const { bot } = run
  const bp = loadBlueprint(action.blueprint)
  if (!bp) {
    const near = didYouMean(action.blueprint, blueprintNames())
    fail('invalid', `There is no blueprint called "${action.blueprint}"; I know ${near.length ? near.join(', ') : blueprintNames().join(', ')}.`)
  }
  const need: Record<string, number> = {}
  for (const b of bp.blocks) need[b.block] = (need[b.block] ?? 0) + 1
  const short = Object.entries(need).filter(([n, c]) => countOf(bot, [n]) < c).map(([n, c]) => `${c - countOf(bot, [n])} ${n}`)
  if (short.length) fail('missing_materials', `To build the ${bp.name} I am short of ${short.join(', ')}.`)
  const site = chooseSite(run, bp)
  if (!site) fail('no_space', `There is no clear, level spot next to me for the ${bp.name}.`)
  const { origin, fx, fz } = site
  const order = [...bp.blocks].sort((a, b) => a.y - b.y || Math.abs(a.x) + Math.abs(a.z) - (Math.abs(b.x) + Math.abs(b.z)))
  let placed = 0
  for (const spec of order) {
    run.check()
    const pos = at(origin, fx, fz, spec)
    const here = bot.blockAt(pos)
    if (here?.name === spec.block) continue
    if (here && here.boundingBox !== 'empty' && here.name !== 'water') fail('no_space', `Something (${here.name}) is in the way at ${pos.x} ${pos.y} ${pos.z}.`)
    const me = bot.entity.position.floored()
    if (me.equals(pos) || me.offset(0, 1, 0).equals(pos)) await goto(run, new goals.GoalInvert(new goals.GoalNear(pos.x, pos.y, pos.z, 1)), 'a spot out of the way')
    if (bot.entity.position.distanceTo(pos.offset(0.5, 0.5, 0.5)) > 4) await goto(run, new goals.GoalNear(pos.x, pos.y, pos.z, 3), 'the building site')
    const ref = SIDES.map((s) => bot.blockAt(pos.plus(s))).find((b) => b && b.boundingBox === 'block')
    if (!ref) fail('no_space', `There is nothing to place ${spec.block} against at ${pos.x} ${pos.y} ${pos.z}.`)
    const item = bot.inventory.items().find((i) => i.name === spec.block)
    if (!item) fail('missing_materials', `I ran out of ${spec.block}.`)
    run.step()
    await bot.equip(item, 'hand')
    await bot.placeBlock(ref, pos.minus(ref.position)).catch(() => {})
    if (bot.blockAt(pos)?.name !== spec.block) fail('no_space', `Placing ${spec.block} at ${pos.x} ${pos.y} ${pos.z} did not work.`)
    placed++
    run.progress.work(1)
  }
  return `I built the ${bp.name} (${placed} blocks placed) at ${origin.x} ${origin.y} ${origin.z}.`
}
