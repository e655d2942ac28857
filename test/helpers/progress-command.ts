/**
 * A test-only task command, `dig`, that reports progress like a real goal: three sub-goals done one by one, an
 * action result for each, then "Dug 3 blocks." The channel tests (ws, Discord) use it to check progress streaming
 * through the real router without a Minecraft server.
 */
import { z } from 'zod'
import { defineCommand } from '../../src/router/command.js'
import { sleep } from '../../src/util/async.js'

export function progressCommand(stepMs: number, usage?: string) {
  return defineCommand({
    name: 'dig',
    description: 'dig a little hole',
    ...(usage ? { usage } : {}),
    args: z.object({}).passthrough(),
    minRole: 'trusted',
    mode: 'task',
    async run({ progress, taskId, signal }) {
      const labels = ['find a spot', 'dig down', 'climb out']
      for (let done = 0; done <= labels.length; done++) {
        progress({
          kind: 'progress',
          taskId,
          message: done < labels.length ? labels[done]! : 'all done',
          done,
          total: labels.length,
          subgoals: labels.map((label, i) => ({
            id: `g${i}`,
            label,
            depth: i === 0 ? 0 : 1,
            status: i < done ? 'done' : i === done ? 'running' : 'pending',
          })),
        })
        if (done < labels.length)
          progress({ kind: 'action', taskId, action: 'dig', ok: true, reason: null, message: `step ${done + 1}` })
        await sleep(stepMs, signal)
      }
      return { ok: true, text: 'Dug 3 blocks.' }
    },
  })
}
