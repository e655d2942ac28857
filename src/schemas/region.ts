/**
 * Region: an axis-aligned box of whole blocks (both corners inclusive) and the one parser of the protected-areas
 * setting `GHOST_PROTECTED` ("x1 y1 z1 x2 y2 z2;…"). Used by the config, the safety policy in src/rules/policy.ts
 * and the action handlers that dig or place.
 */
import { z } from 'zod'

export const Box = z
  .object({
    x1: z.number().int(),
    y1: z.number().int(),
    z1: z.number().int(),
    x2: z.number().int(),
    y2: z.number().int(),
    z2: z.number().int(),
  })
  .transform((b) => ({
    x1: Math.min(b.x1, b.x2),
    y1: Math.min(b.y1, b.y2),
    z1: Math.min(b.z1, b.z2),
    x2: Math.max(b.x1, b.x2),
    y2: Math.max(b.y1, b.y2),
    z2: Math.max(b.z1, b.z2),
  }))
export type Box = z.output<typeof Box>

export interface Pos {
  x: number
  y: number
  z: number
}

/** `"x1 y1 z1 x2 y2 z2; …"` → boxes; each malformed entry is an issue naming it (a start-up problem). */
export const BoxList = z
  .string()
  .default('')
  .transform((text, ctx): Box[] => {
    const out: Box[] = []
    for (const [i, raw] of text
      .split(';')
      .map((s) => s.trim())
      .entries()) {
      if (raw === '') continue
      const parts = raw.split(/[\s,]+/)
      const nums = parts.map(Number)
      if (parts.length !== 6 || nums.some((n) => !Number.isInteger(n))) {
        ctx.addIssue({ code: 'custom', message: `box ${i + 1} "${raw}" is not six whole numbers x1 y1 z1 x2 y2 z2` })
        continue
      }
      const [x1, y1, z1, x2, y2, z2] = nums as [number, number, number, number, number, number]
      out.push(Box.parse({ x1, y1, z1, x2, y2, z2 }))
    }
    return out
  })

/** Whether the block at `p` (floored) lies inside `b`, grown by `margin` blocks on every side. */
export function inBox(b: Box, p: Pos, margin = 0): boolean {
  const x = Math.floor(p.x)
  const y = Math.floor(p.y)
  const z = Math.floor(p.z)
  return (
    x >= b.x1 - margin &&
    x <= b.x2 + margin &&
    y >= b.y1 - margin &&
    y <= b.y2 + margin &&
    z >= b.z1 - margin &&
    z <= b.z2 + margin
  )
}

export const describeBox = (b: Box): string => `${b.x1} ${b.y1} ${b.z1} to ${b.x2} ${b.y2} ${b.z2}`
