/**
 * Runs the real local node process for the devnode tests: `node --import tsx
 * src/devnode/main.ts --port <free port> --db <temp file> ...` on 127.0.0.1 (one process,
 * not the tsx CLI, which forks a child that a SIGKILL would orphan). Every node a test
 * starts is stopped by `stopAll()` (afterAll), also when the test failed.
 */
import { spawn, type ChildProcess } from 'node:child_process'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { freePort } from '../../scripts/lib/anvil.mjs'
import { devnodeArgs } from '../../scripts/lib/devnode-args.mjs'
import { createNodeClient, type NodeClient, type NodeEncoding } from '../../src/network/client'
import { killAll } from '../support/processes'

export const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..', '..')

/** A free 127.0.0.1 port: the helper shared with the chain tests and `npm start`. */
export { freePort }

export function tempDir(prefix = 'devnode-test-'): { dir: string; path: (name: string) => string; remove: () => void } {
  const dir = mkdtempSync(join(tmpdir(), prefix))
  return { dir, path: (n) => join(dir, n), remove: () => rmSync(dir, { recursive: true, force: true }) }
}

export interface RunningNode {
  readonly url: string
  readonly port: number
  readonly proc: ChildProcess
  /** Everything the node wrote on stderr so far. */
  stderr(): string
  stdout(): string
  client(encoding?: NodeEncoding): NodeClient
  /** POSTs raw bytes or text with a content type; returns status, headers and body. */
  post(path: string, body: Uint8Array | string, contentType?: string, init?: RequestInit): Promise<RawAnswer>
  /** SIGTERM, then the exit code (SIGKILL after 5 s). */
  stop(): Promise<number | null>
  /** SIGKILL: no cleanup at all. */
  kill9(): Promise<void>
  readonly exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>
}

interface RawAnswer {
  readonly status: number
  readonly headers: Headers
  readonly bytes: Uint8Array
  text(): string
  json(): { code: string; message: string; rule: string | null } & Record<string, unknown>
}

const running = new Set<ChildProcess>()

export async function startNode(opts: {
  db: string
  args?: readonly string[]
  port?: number
  /** The checkout the node runs from (default this one; the bench runs an older commit's). */
  root?: string
}): Promise<RunningNode> {
  const port = opts.port ?? (await freePort())
  const proc = spawn(process.execPath, devnodeArgs(port, opts.db, ['--host', '127.0.0.1', ...(opts.args ?? [])]), {
    cwd: opts.root ?? ROOT,
    stdio: ['ignore', 'pipe', 'pipe'],
    env: { ...process.env, NODE_NO_WARNINGS: '1' },
  })
  running.add(proc)
  let out = ''
  let err = ''
  proc.stdout!.setEncoding('utf8').on('data', (d: string) => (out += d))
  proc.stderr!.setEncoding('utf8').on('data', (d: string) => (err += d))
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) =>
    proc.on('exit', (code, signal) => {
      running.delete(proc)
      resolve({ code, signal })
    }),
  )
  const line = `listening on http://127.0.0.1:${port}\n`
  await new Promise<void>((resolve, reject) => {
    const timer = setTimeout(
      () => reject(new Error(`the node did not print ${JSON.stringify(line)} within 30 s; stderr:\n${err}`)),
      30_000,
    )
    const check = () => {
      if (out.includes(line)) {
        clearTimeout(timer)
        resolve()
      }
    }
    proc.stdout!.on('data', check)
    void exited.then(({ code, signal }) => {
      clearTimeout(timer)
      reject(new Error(`the node exited (${code ?? signal}) before listening; stderr:\n${err}`))
    })
    check()
  })
  const url = `http://127.0.0.1:${port}`
  const node: RunningNode = {
    url,
    port,
    proc,
    exited,
    stderr: () => err,
    stdout: () => out,
    client: (encoding = 'binary') => createNodeClient({ baseUrl: url, fetch, encoding }),
    async post(path, body, contentType = 'application/x-protobuf', init = {}) {
      const res = await fetch(url + path, {
        method: 'POST',
        ...init,
        headers: { 'content-type': contentType, ...(init.headers as Record<string, string> | undefined) },
        body: typeof body === 'string' ? body : new Uint8Array(body),
      })
      const bytes = new Uint8Array(await res.arrayBuffer())
      const text = () => new TextDecoder().decode(bytes)
      return { status: res.status, headers: res.headers, bytes, text, json: () => JSON.parse(text()) }
    },
    async stop() {
      if (proc.exitCode !== null || proc.signalCode !== null) return proc.exitCode
      proc.kill('SIGTERM')
      const t = setTimeout(() => proc.kill('SIGKILL'), 5000)
      const { code } = await exited
      clearTimeout(t)
      return code
    },
    async kill9() {
      if (proc.exitCode === null && proc.signalCode === null) proc.kill('SIGKILL')
      await exited
    },
  }
  return node
}

/** Kills every node still running (afterAll; also after a failed test). */
export function stopAll(): Promise<void> {
  return killAll(running)
}
