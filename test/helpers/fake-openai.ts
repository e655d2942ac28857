/**
 * A real local HTTP server (node:http, port 0) that speaks enough of the OpenAI API for tests: POST
 * /v1/chat/completions answers from a script, one step per call (JSON content, raw text, HTTP errors with headers
 * such as retry-after, a hang longer than the client timeout, a refusal); POST /v1/embeddings answers with
 * deterministic vectors. Every request is recorded (path, headers, parsed body) for assertions. When the script runs
 * out it answers HTTP 400 so a test never retries forever.
 */
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http'
import type { AddressInfo } from 'node:net'

export type FakeStep =
  | { json: unknown; usage?: { prompt_tokens: number; completion_tokens: number } }
  | { content: string; usage?: { prompt_tokens: number; completion_tokens: number } | null }
  | { status: number; headers?: Record<string, string>; body?: unknown }
  | { hang: true }
  | { refusal: string }

export interface RecordedCall {
  path: string
  headers: IncomingMessage['headers']
  // The request body as JSON; tests inspect arbitrary fields.
  body: {
    model?: string
    messages?: Array<{ role: string; content: string }>
    response_format?: unknown
    input?: string[]
    [k: string]: unknown
  }
}

export interface FakeOpenAI {
  /** Base URL to pass as OPENAI_BASE_URL (ends in /v1). */
  url: string
  calls: RecordedCall[]
  chatCalls(): RecordedCall[]
  /** Append steps to the chat script. */
  script(...steps: FakeStep[]): void
  /** Vector length for embeddings (default 8). */
  embedDim: number
  close(): Promise<void>
}

export const DEFAULT_USAGE = { prompt_tokens: 10, completion_tokens: 5 }

function vectorFor(text: string, dim: number): number[] {
  const v: number[] = []
  let h = 2166136261
  for (let i = 0; i < dim; i++) {
    for (const ch of `${text}#${i}`) h = Math.imul(h ^ ch.charCodeAt(0), 16777619) >>> 0
    v.push(((h % 2000) - 1000) / 1000)
  }
  return v
}

function send(res: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}): void {
  res.writeHead(status, { 'content-type': 'application/json', ...headers })
  res.end(JSON.stringify(body))
}

function completion(
  model: string,
  content: string | null,
  usage: { prompt_tokens: number; completion_tokens: number } | null,
  refusal: string | null = null,
): unknown {
  return {
    id: `chatcmpl-fake-${Math.random().toString(36).slice(2)}`,
    object: 'chat.completion',
    created: Math.floor(Date.now() / 1000),
    model,
    choices: [{ index: 0, finish_reason: 'stop', logprobs: null, message: { role: 'assistant', content, refusal } }],
    ...(usage ? { usage: { ...usage, total_tokens: usage.prompt_tokens + usage.completion_tokens } } : {}),
  }
}

export async function startFakeOpenAI(initial: FakeStep[] = []): Promise<FakeOpenAI> {
  const steps: FakeStep[] = [...initial]
  const calls: RecordedCall[] = []
  const hanging = new Set<ServerResponse>()
  const state = { embedDim: 8 }

  const server = createServer((req, res) => {
    const chunks: Buffer[] = []
    req.on('data', (c: Buffer) => chunks.push(c))
    req.on('end', () => {
      let body: RecordedCall['body'] = {}
      try {
        body = JSON.parse(Buffer.concat(chunks).toString('utf8') || '{}') as RecordedCall['body']
      } catch {
        /* keep {} */
      }
      const path = (req.url ?? '').split('?')[0]!
      calls.push({ path, headers: req.headers, body })
      const model = String(body.model ?? 'fake-model')
      if (req.method === 'POST' && path.endsWith('/embeddings')) {
        const input = Array.isArray(body.input) ? body.input : [String(body.input)]
        send(res, 200, {
          object: 'list',
          model,
          data: input.map((t, index) => ({
            object: 'embedding',
            index,
            embedding: vectorFor(String(t), state.embedDim),
          })),
          usage: { prompt_tokens: input.length * 3, total_tokens: input.length * 3 },
        })
        return
      }
      if (req.method !== 'POST' || !path.endsWith('/chat/completions')) {
        send(res, 404, { error: { message: `no route ${path}` } })
        return
      }
      const step = steps.shift()
      if (!step) {
        send(res, 400, { error: { message: 'fake-openai: script exhausted', type: 'invalid_request_error' } })
        return
      }
      if ('hang' in step) {
        hanging.add(res)
        res.on('close', () => hanging.delete(res))
        return
      }
      if ('status' in step) {
        send(res, step.status, step.body ?? { error: { message: `fake status ${step.status}` } }, step.headers)
        return
      }
      if ('refusal' in step) {
        send(res, 200, completion(model, null, DEFAULT_USAGE, step.refusal))
        return
      }
      if ('json' in step) {
        send(res, 200, completion(model, JSON.stringify(step.json), step.usage ?? DEFAULT_USAGE))
        return
      }
      send(res, 200, completion(model, step.content, step.usage === null ? null : (step.usage ?? DEFAULT_USAGE)))
    })
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const { port } = server.address() as AddressInfo
  return {
    url: `http://127.0.0.1:${port}/v1`,
    calls,
    chatCalls: () => calls.filter((c) => c.path.endsWith('/chat/completions')),
    script: (...s) => {
      steps.push(...s)
    },
    get embedDim() {
      return state.embedDim
    },
    set embedDim(n: number) {
      state.embedDim = n
    },
    close: () =>
      new Promise<void>((resolve) => {
        for (const r of hanging) r.destroy()
        server.closeAllConnections()
        server.close(() => resolve())
      }),
  }
}
