/**
 * Admin commands for opped players, replacing flying-squid's buggy versions: `/give <player> <item>[{Damage:N}] [count]`
 * (numeric counts, stacked to the item's stack size and spilled over several slots — flying-squid stored the count
 * as a string; of vanilla's item NBT only a tool's worn uses, `Damage`), `/clear [player] [item] [maxCount]` (flying-squid has none) and `/tp` (`/tp <x y z>`,
 * `/tp <target> <x y z>`, `/tp <destination>`, `/tp <target> <destination>`). Bad arguments throw `UserError`, which
 * flying-squid shows to the player as "Error: ...". A command added with the same base replaces the old one in
 * `serv.commands.hash`. Also exports the target/item parsing helpers the other admin plugins use.
 */
import { Vec3 } from 'vec3'
import { UserError, type SquidCommandContext, type SquidPlayer, type SquidPlugin, type SquidServer } from '../squid.js'
import { addItems, removeItems, spawnItemEntity } from '../items.js'

/** Players named by `arg`: a username, `@s`, `@p`, `@a` or `@r`; throws a UserError when nobody matches. */
export function resolvePlayers(serv: SquidServer, arg: string | undefined, ctx: SquidCommandContext): SquidPlayer[] {
  const self = ctx.player
  const sel = arg ?? '@s'
  let out: SquidPlayer[] = []
  if (sel === '@s') out = self ? [self] : []
  else if (sel === '@a') out = [...serv.players]
  else if (sel === '@r')
    out = serv.players.length ? [serv.players[Math.floor(Math.random() * serv.players.length)]!] : []
  else if (sel === '@p') {
    const from = self?.position
    out = from
      ? [...serv.players].sort((a, b) => a.position.distanceTo(from) - b.position.distanceTo(from)).slice(0, 1)
      : []
  } else {
    const p = serv.getPlayer(sel)
    out = p ? [p] : []
  }
  if (out.length === 0)
    throw new UserError(
      arg === undefined ? 'A player is required to run this command here' : `No player was found named ${sel}`,
    )
  return out
}

/** Item id for a name (`stone`, `minecraft:stone`) or a numeric id; throws a UserError for unknown items. */
export function resolveItem(serv: SquidServer, name: string): { id: number; name: string; displayName: string } {
  const clean = name.replace(/^minecraft:/, '')
  const data = /^\d+$/.test(clean) ? serv.registry.items[Number(clean)] : serv.registry.itemsByName[clean]
  if (!data) throw new UserError(`Unknown item '${name}'`)
  return { id: data.id as number, name: data.name as string, displayName: data.displayName as string }
}

/** A whole number in [min, max], or a UserError naming the argument. */
export function parseCount(raw: string, what: string, min: number, max: number): number {
  if (!/^-?\d+$/.test(raw)) throw new UserError(`Invalid ${what} '${raw}': expected a whole number`)
  const n = Number(raw)
  if (n < min || n > max) throw new UserError(`Invalid ${what} ${n}: must be between ${min} and ${max}`)
  return n
}

/** The uses worn off a tool from vanilla item NBT `{Damage:N}` (the one tag we read), or a UserError. */
function parseDamage(serv: SquidServer, id: number, tag: string): number {
  const m = /^\{\s*Damage\s*:\s*(\d+)\s*\}$/.exec(tag)
  if (!m) throw new UserError(`Unsupported item data '${tag}': only {Damage:N} is read`)
  const max = (serv.registry.items[id] as { maxDurability?: number } | undefined)?.maxDurability
  if (!max) throw new UserError(`Item '${serv.registry.items[id]?.name}' does not wear`)
  return parseCount(m[1]!, 'Damage', 0, max - 1)
}

function reply(serv: SquidServer, ctx: SquidCommandContext, text: string): void {
  if (ctx.player) ctx.player.chat(text)
  else serv.info(text)
}

function coord(raw: string, base: number, isY: boolean): number {
  const m = /^(~)?(-?\d+(?:\.\d+)?)?$/.exec(raw)
  if (!m || (!m[1] && m[2] === undefined)) throw new UserError(`Invalid coordinate '${raw}'`)
  if (m[1]) return base + (m[2] ? Number(m[2]) : 0)
  const n = Number(m[2])
  // vanilla centres whole x/z coordinates in the block
  return !isY && !m[2]!.includes('.') ? n + 0.5 : n
}

/** Parse `x y z` (absolute or `~` relative to `from`). */
export function parsePosition(args: string[], from: Vec3): Vec3 {
  if (args.length !== 3) throw new UserError('Expected three coordinates: x y z')
  const pos = new Vec3(coord(args[0]!, from.x, false), coord(args[1]!, from.y, true), coord(args[2]!, from.z, false))
  if (Math.abs(pos.x) > 29_999_999 || Math.abs(pos.z) > 29_999_999 || pos.y < -2048 || pos.y > 2048)
    throw new UserError('Position out of the world')
  return pos
}

/** Chunks within this many chunks of a teleport's destination are sent before `/tp` answers. */
const NEAR_CHUNKS = 1

/**
 * Stream the chunks around a teleported player's new position. flying-squid emits 'move' before updating the
 * position, so a teleport never streams them itself; and while a chunk send is under way (around the *old*
 * position, e.g. after a long walk) `worldSendRestOfChunks` must not start a second one, so a plain call after the
 * teleport was skipped and the client stood in unloaded terrain — where mineflayer stops its physics and never
 * moves again to ask for chunks. The nearest chunks go out at once (before `/tp` answers); the rest of the view
 * follows once the send under way has finished.
 */
async function sendChunksAfterTeleport(serv: SquidServer, p: SquidPlayer): Promise<void> {
  const loadChunk = serv._worldLoadPlayerChunk as (x: number, z: number, pl: SquidPlayer) => boolean
  const getColumn = (p.world as unknown as { getColumn(x: number, z: number): Promise<unknown> }).getColumn.bind(
    p.world,
  )
  const sendChunk = p.sendChunk as (x: number, z: number, column: unknown) => Promise<unknown>
  const cx = Math.floor(p.position.x / 16),
    cz = Math.floor(p.position.z / 16)
  for (let r = 0; r <= NEAR_CHUNKS; r++) {
    for (let dx = -r; dx <= r; dx++)
      for (let dz = -r; dz <= r; dz++) {
        if (Math.max(Math.abs(dx), Math.abs(dz)) !== r || !loadChunk(cx + dx, cz + dz, p)) continue
        await sendChunk(cx + dx, cz + dz, await getColumn(cx + dx, cz + dz))
      }
  }
  const rest = (): void => {
    if (!p.sendingChunks) {
      void (p.worldSendRestOfChunks as () => Promise<void>)().catch(() => {})
      return
    }
    const t = setTimeout(rest, 100)
    t.unref()
  }
  rest()
}

const plugin: SquidPlugin = {
  name: 'admin',
  server(serv) {
    serv.commands.add({
      base: 'give',
      info: 'Give an item to a player',
      usage: '/give <player> <item>[{Damage:N}] [count]',
      op: true,
      parse(str) {
        const a = str.trim().split(/\s+/).filter(Boolean)
        return a.length >= 2 && a.length <= 3 ? a : false
      },
      action(args: string[], ctx) {
        const players = resolvePlayers(serv, args[0], ctx)
        const [, name = '', tag] = /^([^{]*)(\{.*\})?$/.exec(args[1]!) ?? []
        const item = resolveItem(serv, name)
        const damage = tag === undefined ? 0 : parseDamage(serv, item.id, tag)
        const count = args[2] === undefined ? 1 : parseCount(args[2], 'count', 1, 6400)
        for (const p of players) {
          const left = addItems(serv, p, item.id, count, damage)
          // vanilla drops what does not fit at the player's feet
          if (left > 0) spawnItemEntity(serv, p.world, p.position.offset(0, 0.5, 0), item.id, left)
        }
        reply(
          serv,
          ctx,
          players.length === 1
            ? `Gave ${count} [${item.displayName}] to ${players[0]!.username}`
            : `Gave ${count} [${item.displayName}] to ${players.length} players`,
        )
      },
    })

    serv.commands.add({
      base: 'clear',
      info: 'Clear items from player inventory',
      usage: '/clear [player] [item] [maxCount]',
      op: true,
      parse(str) {
        const a = str.trim().split(/\s+/).filter(Boolean)
        return a.length <= 3 ? { a } : false
      },
      action({ a }: { a: string[] }, ctx) {
        const players = resolvePlayers(serv, a[0], ctx)
        const item = a[1] === undefined || a[1] === '*' ? undefined : resolveItem(serv, a[1])
        const max = a[2] === undefined ? undefined : parseCount(a[2], 'maxCount', 0, 1_000_000)
        let total = 0
        for (const p of players) total += removeItems(p, item?.id, max)
        if (total === 0)
          throw new UserError(
            players.length === 1
              ? `No items were found on player ${players[0]!.username}`
              : `No items were found on ${players.length} players`,
          )
        reply(
          serv,
          ctx,
          players.length === 1
            ? `Removed ${total} item(s) from player ${players[0]!.username}`
            : `Removed ${total} item(s) from ${players.length} players`,
        )
      },
    })

    serv.commands.add({
      base: 'teleport',
      aliases: ['tp'],
      info: 'Teleport a player to a player or a position',
      usage: '/tp [target] <destination player | x y z>',
      op: true,
      parse(str) {
        const a = str.trim().split(/\s+/).filter(Boolean)
        return a.length >= 1 && a.length <= 4 ? { a } : false
      },
      async action({ a }: { a: string[] }, ctx) {
        let targets: SquidPlayer[]
        let dest: Vec3
        if (a.length === 1 || a.length === 2) {
          targets = a.length === 2 ? resolvePlayers(serv, a[0], ctx) : resolvePlayers(serv, undefined, ctx)
          const to = resolvePlayers(serv, a[a.length - 1], ctx)[0]!
          dest = to.position.clone()
        } else {
          targets = a.length === 4 ? resolvePlayers(serv, a[0], ctx) : resolvePlayers(serv, undefined, ctx)
          dest = parsePosition(a.slice(a.length - 3), targets[0]!.position)
        }
        for (const t of targets) {
          await (t.teleport as (p: Vec3) => Promise<void>)(dest.clone())
          await sendChunksAfterTeleport(serv, t)
        }
        reply(
          serv,
          ctx,
          `Teleported ${targets.length === 1 ? targets[0]!.username : `${targets.length} players`} to ${dest.x.toFixed(2)}, ${dest.y.toFixed(2)}, ${dest.z.toFixed(2)}`,
        )
      },
    })
  },
}
export default plugin
