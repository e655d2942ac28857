/**
 * `remember [this place] as <name>` / `remember <name> [at x y z]`: save a named place on this server in memory
 * (issue 17) — where the asking player stands, or the given coordinates. The player who saved it (or an owner) may
 * move or forget it. Instant.
 */
import { z } from 'zod'
import { defineCommand } from '../src/router/command.js'
import { NO_PLACES } from '../src/router/services.js'
import { atLeast } from '../src/schemas/role.js'
import { failed } from '../src/schemas/task.js'

export function parseRemember(rest: string): { name: string; at: { x: number; y: number; z: number } | null } | null {
  const t = rest
    .trim()
    .replace(/^(?:this|that|the)\s+(?:place|spot)\s+/i, '')
    .replace(/^(?:here\s+)?as\s+/i, '')
  const at = /^(.+?)\s+at\s+(-?\d+)[\s,]+(-?\d+)[\s,]+(-?\d+)$/i.exec(t)
  if (at) return { name: at[1]!, at: { x: Number(at[2]), y: Number(at[3]), z: Number(at[4]) } }
  return t ? { name: t, at: null } : null
}

export default defineCommand({
  name: 'remember',
  description: 'name the place you stand on (or x y z) so you can say "go to <name>"',
  usage: 'this place as <name> | <name> at <x y z>',
  args: z.object({ rest: z.string().min(1, 'say a name: remember this place as base') }),
  minRole: 'trusted',
  mode: 'instant',
  async run({ args, request, role, services }) {
    const p = parseRemember(args.rest)
    if (!p) return failed('Say a name: remember this place as base.')
    if (!services.places || !services.skills) return failed(NO_PLACES)
    const here = services.skills.whereIs(request.player)
    const at = p.at ? { ...p.at, dimension: here?.dimension ?? 'overworld' } : here
    if (!at)
      return failed(`I can't see where you are, ${request.player}; come closer or say "remember ${p.name} at x y z".`)
    return services.places.remember(p.name, at, request.player, atLeast(role, 'owner'))
  },
})
