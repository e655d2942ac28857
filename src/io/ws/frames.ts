/**
 * Reading one WebSocket frame from a client: the size limit, text-only frames, JSON, the protocol version and the
 * zod check against `WsIn` (src/schemas/ws.ts), each failure turned into the error code and sentence the client is
 * sent back, plus the request id a bad frame is answered under (only a well-formed one is echoed). Pure: it neither
 * sends nor logs; the bridge (bridge.ts) does that with the answer.
 */
import type { RawData } from 'ws'
import { WS_PROTOCOL_VERSION, WsIn, WsRequestId, type WsErrorCode } from '../../schemas/ws.js'

/** A frame read: the message, or the error to answer (with the request id when one could be read). */
export type DecodedFrame =
  | { ok: true; message: WsIn }
  | { ok: false; code: WsErrorCode; message: string; requestId?: string }

function byteLength(data: RawData): number {
  if (Array.isArray(data)) return data.reduce((n, b) => n + b.byteLength, 0)
  return data.byteLength
}
function toText(data: RawData): string {
  if (Array.isArray(data)) return Buffer.concat(data).toString('utf8')
  return Buffer.from(data as ArrayBuffer).toString('utf8')
}

/** The frame's `id` when it is a string of the allowed shape, so an error can name the request it answers. */
function readRequestId(raw: unknown): string | undefined {
  if (typeof raw !== 'object' || raw === null) return undefined
  const id = (raw as { id?: unknown }).id
  return WsRequestId.safeParse(id).success ? (id as string) : undefined
}

export function decodeFrame(data: RawData, isBinary: boolean, maxMessageBytes: number): DecodedFrame {
  const size = byteLength(data)
  if (size > maxMessageBytes)
    return { ok: false, code: 'too_large', message: `message is ${size} bytes; the limit is ${maxMessageBytes}` }
  if (isBinary) return { ok: false, code: 'invalid', message: 'send JSON text frames, not binary' }
  let raw: unknown
  try {
    raw = JSON.parse(toText(data))
  } catch {
    return { ok: false, code: 'bad_json', message: 'message is not valid JSON' }
  }
  const requestId = readRequestId(raw)
  const withId = requestId ? { requestId } : {}
  if (typeof raw !== 'object' || raw === null || (raw as { v?: unknown }).v !== WS_PROTOCOL_VERSION)
    return {
      ok: false,
      code: 'unsupported_version',
      message: `send objects with "v": ${WS_PROTOCOL_VERSION}`,
      ...withId,
    }
  const parsed = WsIn.safeParse(raw)
  if (!parsed.success) {
    const first = parsed.error.issues[0]
    const where = first && first.path.length > 0 ? `${first.path.join('.')}: ` : ''
    const message = `${where}${first?.message ?? 'invalid message'}`.slice(0, 300)
    return { ok: false, code: 'invalid', message, ...withId }
  }
  return { ok: true, message: parsed.data }
}
