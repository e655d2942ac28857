/** `goto <x y z | player | place>`: walk to coordinates, a player or a named place (issue 17). A queued task; `stop` cancels it. */
import { z } from 'zod'
import { defineCommand } from '../src/router/command.js'
import { failed } from '../src/schemas/task.js'
import type { GotoTarget } from '../src/router/services.js'

export function gotoTarget(words: string[]): GotoTarget | null {
  const nums = words.map(Number)
  if (words.length === 3 && nums.every(Number.isInteger)) return { kind: 'xyz', x: nums[0]!, y: nums[1]!, z: nums[2]! }
  if (words.length === 1 && /^[A-Z]/.test(words[0]!) && /^[A-Za-z0-9_]{1,16}$/.test(words[0]!))
    return { kind: 'player', name: words[0]! }
  const name = words
    .join(' ')
    .replace(/^(?:to|the|my|our)\s+/i, '')
    .trim()
  return name ? { kind: 'place', name } : null
}

export default defineCommand({
  name: 'goto',
  description: 'walk to coordinates, a player or a named place',
  usage: '<x y z | Player | place>',
  args: z.object({ words: z.array(z.string()).min(1, 'say where: x y z, a player or a named place') }),
  minRole: 'trusted',
  mode: 'task',
  async run({ args, services, signal }) {
    const target = gotoTarget(args.words)
    if (!target) return failed('Say where: x y z, a player or a named place.')
    if (!services.skills) return failed('I cannot walk anywhere right now.')
    return services.skills.goto(target, signal)
  },
})
