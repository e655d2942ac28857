/**
 * `npm start` as a real process: bad config exits 2 listing every problem with its fix; a good start prints the
 * embedded-server line, the bot answers `help` from a player who joins, and SIGTERM stops the bot and the server
 * child (nothing left running). Also proves a crashing server is loud: an unknown version exits non-zero.
 */
import { execSync, spawn } from 'node:child_process'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { startEmbeddedServer } from '../../src/server/process.js'
import { tempDir } from '../helpers/tmp.js'
import { joinPlayer, quit, waitFor, waitForMessage } from '../helpers/world.js'

const root = join(import.meta.dirname, '..', '..')

function run(env: Record<string, string>) {
  const child = spawn(process.execPath, ['--import', 'tsx', 'src/main.ts'], {
    cwd: root,
    env: { ...process.env, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  })
  let out = ''
  let err = ''
  child.stdout.on('data', (d: Buffer) => {
    out += d.toString()
  })
  child.stderr.on('data', (d: Buffer) => {
    err += d.toString()
  })
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)))
  return { child, exited, out: () => out, err: () => err }
}

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0)
    return true
  } catch {
    return false
  }
}

describe('main process', () => {
  it('exits 2 and lists every config problem with a fix', async () => {
    const p = run({ MC_PORT: 'nope', MC_AUTH: 'mojang', GHOST_CONFIG: '/nonexistent.json' })
    expect(await p.exited).toBe(2)
    expect(p.err()).toMatch(/MC_PORT/)
    expect(p.err()).toMatch(/MC_AUTH/)
    expect(p.err().match(/fix:/g)?.length).toBe(2)
  })

  it('starts the embedded server, answers help, and stops cleanly on SIGTERM', async () => {
    const { dir } = tempDir('ghost-main-', 'test')
    const p = run({
      MC_PORT: '0',
      GHOST_DB: join(dir, 'memory.db'),
      GHOST_AUDIT_LOG: join(dir, 'audit.log'),
      GHOST_CONFIG: '/nonexistent.json',
    })
    const t0 = Date.now()
    const deadline = Date.now() + 30_000
    while (!(/Ghost joined/.test(p.out()) && /web page:/.test(p.out())) && Date.now() < deadline)
      await new Promise((r) => setTimeout(r, 100))
    const m = /embedded server listening on 127\.0\.0\.1:(\d+) \(Minecraft 1\.20\.2\)/.exec(p.out())
    expect(m, `stdout: ${p.out()} stderr: ${p.err()}`).not.toBeNull()
    expect(Date.now() - t0).toBeLessThan(30_000)
    const port = Number(m![1])
    // on the embedded world the web page is on by default, on loopback, and its address is printed
    const web = /web page: (http:\/\/127\.0\.0\.1:\d+\/)\n/.exec(p.out())
    expect(web, `stdout: ${p.out()}`).not.toBeNull()
    expect((await fetch(web![1]!)).status).toBe(200)
    const alice = await joinPlayer({ port }, 'Alice')
    const help = waitForMessage(alice, /Commands for you/, { from: 'Ghost' })
    alice.chat('Ghost help')
    await help
    quit(alice)
    const serverPids = execSync(`pgrep -P ${p.child.pid!} || true`)
      .toString()
      .trim()
      .split('\n')
      .filter(Boolean)
      .map(Number)
    expect(serverPids.length).toBeGreaterThan(0)
    p.child.kill('SIGTERM')
    expect(await p.exited).toBe(0)
    // The children may still be reaping when the parent has exited: wait (bounded) for every one of them to be gone.
    const left = (): number[] => serverPids.filter(alive)
    const cmd = (pid: number): string => {
      try {
        return execSync(`ps -o args= -p ${pid}`).toString().trim()
      } catch {
        return '?'
      }
    }
    await waitFor(() => left().length === 0, 5000, 'every child of npm start to exit').catch(() => undefined)
    expect(left().map(cmd)).toEqual([])
  })

  it('a server that fails to start fails loudly instead of exiting 0', async () => {
    await expect(startEmbeddedServer({ port: 0, version: '1.99.9', startTimeoutMs: 20_000 })).rejects.toThrow(
      /exited with code [1-9]/,
    )
  })
})
