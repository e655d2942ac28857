/**
 * A block a player placed, as the bot observed it (issue 20): where (server, dimension, position), what, and who.
 * The vanilla protocol never names who placed a block, so these rows are the bot's own observations
 * (src/perception/placed.ts) kept in memory (src/memory/placed.ts) so a restart keeps them; the safety policy
 * (src/rules/policy.ts) never digs them.
 */
import { z } from 'zod'

export const PlacedBlock = z.object({
  server: z.string().min(1).describe('host:port of the Minecraft server; observations are per server'),
  dimension: z.string().min(1),
  x: z.number().int(),
  y: z.number().int(),
  z: z.number().int(),
  block: z.string().min(1).max(64),
  player: z.string().min(1).max(64).describe('the player the bot saw place it'),
  createdAt: z.number().int().nonnegative(),
})
export type PlacedBlock = z.infer<typeof PlacedBlock>
