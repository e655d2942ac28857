/**
 * Entity admin commands: `/summon <entity> [x y z]` for any living entity (animals, hostiles — flying-squid ≥1.19
 * only knows entities typed `mob`) spawned through our creature module so they get AI, health and loot, plus items
 * and other objects through flying-squid's spawnObject; and `/kill [player | @s | @a | @e[type=<name>]]` killing a
 * player (through the health plugin, so death drops and respawn work) or every entity of a type.
 */
import { Vec3 } from 'vec3'
import { UserError, type SquidEntity, type SquidPlugin, type SquidServer } from '../squid.js'
import { creatures, isCreature, killCreature, livingEntityType, spawnCreature } from '../mobs/creature.js'
import { parsePosition, resolvePlayers } from './admin.js'
import { hurtPlayer } from './health.js'

/** Cap on creatures so a loop of /summon cannot take the server down. */
const MAX_CREATURES = 150

function killEntity(serv: SquidServer, e: SquidEntity): void {
  if (e.type === 'player')
    hurtPlayer(serv, e as Parameters<typeof hurtPlayer>[1], Number.MAX_SAFE_INTEGER, 'generic_kill', undefined, true)
  else if (isCreature(e)) killCreature(serv, e)
  else (serv.destroyEntity as (x: SquidEntity) => void)(e)
}

const plugin: SquidPlugin = {
  name: 'admin-entities',
  server(serv) {
    serv.commands.add({
      base: 'summon',
      info: 'Summon an entity',
      usage: '/summon <entity> [x y z]',
      op: true,
      parse(str) {
        const a = str.trim().split(/\s+/).filter(Boolean)
        return a.length === 1 || a.length === 4 ? { a } : false
      },
      action({ a }: { a: string[] }, ctx) {
        const name = a[0]!.replace(/^minecraft:/, '')
        const from = ctx.player?.position ?? new Vec3(0, 100, 0)
        const pos = a.length === 4 ? parsePosition(a.slice(1), from) : from.clone()
        const world = ctx.player?.world ?? serv.overworld
        if (livingEntityType(serv, name)) {
          if (creatures(serv).length >= MAX_CREATURES) throw new UserError('Too many creatures in the world')
          if (!spawnCreature(serv, name, world, pos)) throw new UserError('Too many entities in the world')
        } else {
          const data = serv.registry.entitiesByName[name] as { id: number; type: string } | undefined
          if (!data || data.type === 'player') throw new UserError(`Unknown entity '${a[0]}'`)
          try {
            ;(serv.spawnObject as (t: number, w: unknown, p: Vec3, o: Record<string, unknown>) => SquidEntity)(
              data.id,
              world,
              pos,
              { velocity: new Vec3(0, 0, 0) },
            )
          } catch {
            throw new UserError('Too many entities in the world')
          }
        }
        const text = `Summoned new ${name}`
        if (ctx.player) ctx.player.chat(text)
        else serv.info(text)
      },
    })

    serv.commands.add({
      base: 'kill',
      info: 'Kill a player or all entities of a type',
      usage: '/kill [player | @s | @a | @e[type=<entity>]]',
      op: true,
      parse(str) {
        const a = str.trim()
        return /\s/.test(a) ? false : { sel: a || '@s' }
      },
      action({ sel }: { sel: string }, ctx) {
        let victims: SquidEntity[]
        const m = /^@e(?:\[type=(?:minecraft:)?([a-z_]+)\])?$/.exec(sel)
        if (m) {
          const type = m[1]
          if (type && !serv.registry.entitiesByName[type]) throw new UserError(`Unknown entity type '${type}'`)
          victims = Object.values(serv.entities).filter((e) => {
            if (isCreature(e) && e.creature.dead) return false
            if (e.type === 'player') return !type || type === 'player'
            return !type || e.name === type
          })
        } else if (sel.startsWith('@e'))
          throw new UserError(`Unsupported selector '${sel}': use @e or @e[type=<entity>]`)
        else victims = resolvePlayers(serv, sel, ctx)
        if (victims.length === 0) throw new UserError('No entity was found')
        for (const v of victims) killEntity(serv, v)
        const first = victims[0]!
        const text =
          victims.length === 1
            ? `Killed ${first.type === 'player' ? String(first.username) : String(first.name)}`
            : `Killed ${victims.length} entities`
        if (ctx.player) ctx.player.chat(text)
        else serv.info(text)
      },
    })
  },
}
export default plugin
