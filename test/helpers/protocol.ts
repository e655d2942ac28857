/**
 * Protocol hygiene for integration tests: a mineflayer player whose client records every packet it could not parse
 * exactly (a parse exception, or a packet longer than what its definition read — what minecraft-protocol otherwise
 * only prints as "Chunk size is N but only M was read"). The recorder hooks each deserializer as the connection
 * changes state, so login, configuration and play packets are all checked.
 */
import mineflayer, { type Bot } from 'mineflayer'
import { onceEvent } from '../../src/util/async.js'
import { VERSION } from './world.js'

export interface ParseProblem {
  state: string
  packet: string
  bytes: number
  read: number | null
  error?: string
}

interface Parsed {
  metadata: { size: number }
  data: { name: string }
}
interface Deserializer {
  parsePacketBuffer(buf: Buffer): Parsed
}
interface ProtocolClient {
  state: string
  deserializer: Deserializer
  on(ev: 'state', l: (s: string) => void): void
}

function hook(client: ProtocolClient, problems: ParseProblem[]): void {
  const d = client.deserializer
  const parse = d.parsePacketBuffer.bind(d)
  const state = client.state
  d.parsePacketBuffer = (buf: Buffer): Parsed => {
    try {
      const p = parse(buf)
      if (p.metadata.size !== buf.length)
        problems.push({ state, packet: p.data.name, bytes: buf.length, read: p.metadata.size })
      return p
    } catch (err) {
      problems.push({
        state,
        packet: `0x${buf.subarray(0, 1).toString('hex')}`,
        bytes: buf.length,
        read: null,
        error: (err as Error).message,
      })
      throw err
    }
  }
}

/** Join like test/helpers/world.ts's `joinPlayer`, recording every mis-parsed packet in `problems`. */
export async function joinCheckedPlayer(
  server: { port: number },
  username: string,
  problems: ParseProblem[],
  timeoutMs = 20_000,
): Promise<Bot> {
  const bot = mineflayer.createBot({
    host: '127.0.0.1',
    port: server.port,
    username,
    version: VERSION,
    hideErrors: true,
    logErrors: false,
  })
  const client = bot._client as unknown as ProtocolClient
  hook(client, problems)
  client.on('state', () => hook(client, problems))
  bot.on('error', () => {
    /* surfaced through the spawn timeout */
  })
  await onceEvent(bot, 'spawn', { timeoutMs })
  return bot
}
