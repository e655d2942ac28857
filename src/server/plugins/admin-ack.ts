/**
 * `/ack <token> <command …>`: runs a command exactly as if the player had typed it, and when it has been handled —
 * async actions (a teleport and its nearby chunks) awaited, and the packets its synchronous effects queued (block
 * changes) written — answers the player with one system line `[ack <token>] ok` or `[ack <token>] failed: <why>`.
 * Packets to one client arrive in order, so a client that sees the answer has seen the command's effects on itself.
 * Tests and scripts wait on this line instead of sleeping a fixed time after a command. The command's own replies
 * and errors reach the player as usual; only errors that are not UserErrors still crash the server.
 */
import type { SquidPlugin, SquidServer } from '../squid.js'

interface CommandRegistry {
  use(line: string, ctx: { player?: unknown }, op: boolean): Promise<string | undefined>
}

const plugin: SquidPlugin = {
  name: 'admin-ack',
  server(serv: SquidServer) {
    const registry = serv.commands as unknown as CommandRegistry
    const color = serv.color as { red: string }
    serv.commands.add({
      base: 'ack',
      info: 'Run a command, then answer [ack <token>] ok | failed: <why> once it has been handled',
      usage: '/ack <token> <command>',
      onlyPlayer: true,
      parse(str) {
        const m = /^(\S+)\s+\/?(.+)$/.exec(str.trim())
        return m ? { token: m[1]!, line: m[2]! } : false
      },
      async action({ token, line }: { token: string; line: string }, ctx) {
        const player = ctx.player!
        let failure: string | undefined
        try {
          // what flying-squid's player.handleCommand does, but awaited and with the outcome remembered
          const res = await registry.use(line, { player }, player.op)
          if (res) {
            failure = res
            player.chat(color.red + res)
          }
        } catch (err) {
          if (!(err as { userError?: boolean }).userError) throw err
          failure = (err as Error).message
          player.chat(`${color.red}Error: ${failure}`)
        }
        // flying-squid writes block changes and positions a few promise turns after an action returns
        await new Promise((resolve) => setImmediate(resolve))
        player.chat(`[ack ${token}] ${failure === undefined ? 'ok' : `failed: ${failure}`}`)
      },
    })
  },
}
export default plugin
