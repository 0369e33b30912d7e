/**
 * Starts and stops a local anvil node for the chain tests (../shared/notes/chain.md §5).
 *
 * The platform binary of @foundry-rs/anvil is spawned directly (not `npx anvil`, a Node
 * wrapper whose PID is not anvil's), on 127.0.0.1 and a free port, with stderr kept as a
 * tail for error messages. Ready when eth_chainId answers. Stopped by PID with SIGTERM,
 * then SIGKILL after 3 s; every kill is guarded (an exited child throws ESRCH). A process
 * 'exit' hook SIGKILLs a node the test never stopped.
 *
 *   const node = await startAnvil()
 *   afterAll(() => node.stop())
 */
import { spawn, type ChildProcess } from 'node:child_process'
import { existsSync } from 'node:fs'
import { createRequire } from 'node:module'
import { createServer } from 'node:net'
import { dirname, join } from 'node:path'

const PLATFORM_PACKAGES: Record<string, string> = {
  'linux-x64': 'linux-amd64',
  'linux-arm64': 'linux-arm64',
  'darwin-x64': 'darwin-amd64',
  'darwin-arm64': 'darwin-arm64',
  'win32-x64': 'win32-amd64',
}

/** The anvil binary of this platform's @foundry-rs/anvil-<platform> package. */
export function anvilBinary(): string {
  const key = `${process.platform}-${process.arch}`
  const pkg = PLATFORM_PACKAGES[key]
  if (!pkg) throw new Error(`no @foundry-rs/anvil binary package for ${key}`)
  const require = createRequire(import.meta.url)
  let manifest: string
  try {
    manifest = require.resolve(`@foundry-rs/anvil-${pkg}/package.json`)
  } catch {
    throw new Error(`@foundry-rs/anvil-${pkg} is not installed: run npm ci`)
  }
  const bin = join(dirname(manifest), 'bin', process.platform === 'win32' ? 'anvil.exe' : 'anvil')
  if (!existsSync(bin)) throw new Error(`${bin} is missing: run npm ci`)
  return bin
}

/** A port that was free on 127.0.0.1 a moment ago (listen on 0, read it, close). */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const s = createServer()
    s.unref()
    s.on('error', reject)
    s.listen(0, '127.0.0.1', () => {
      const addr = s.address()
      const port = typeof addr === 'object' && addr ? addr.port : 0
      s.close(() => (port ? resolve(port) : reject(new Error('could not read a free port'))))
    })
  })
}

export interface AnvilOptions {
  /** `--chain-id`; anvil's default is 31337. */
  readonly chainId?: number
  /** Extra command-line arguments. */
  readonly args?: readonly string[]
  /** Readiness budget; default 10 s (400 polls, 25 ms apart). */
  readonly readyTimeoutMs?: number
}

export interface AnvilNode {
  readonly url: string
  readonly port: number
  /** anvil's own PID. */
  readonly pid: number
  readonly chainId: number
  alive(): boolean
  /** The last ~2,000 characters anvil wrote to stderr. */
  stderrTail(): string
  /** SIGTERM, SIGKILL after 3 s; resolves when the process has exited. Idempotent. */
  stop(): Promise<void>
}

const TAIL = 2000

const isAlive = (c: ChildProcess): boolean => c.exitCode === null && c.signalCode === null

function kill(pid: number, signal: NodeJS.Signals): void {
  try {
    process.kill(pid, signal)
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code !== 'ESRCH') throw e // already gone is fine
  }
}

async function chainIdOf(url: string): Promise<number | null> {
  try {
    const res = await fetch(url, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: '{"jsonrpc":"2.0","id":1,"method":"eth_chainId","params":[]}',
      signal: AbortSignal.timeout(1000),
    })
    const body = (await res.json()) as { result?: string }
    return typeof body.result === 'string' ? Number(BigInt(body.result)) : null
  } catch {
    return null
  }
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms))

/** Starts anvil; a port taken between freePort() and anvil's bind is retried on another, twice. */
export async function startAnvil(options: AnvilOptions = {}): Promise<AnvilNode> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await startOnce(options, await freePort())
    } catch (e) {
      if (attempt >= 3 || !/address already in use|AddrInUse/i.test(String((e as Error).message))) throw e
    }
  }
}

async function startOnce(options: AnvilOptions, port: number): Promise<AnvilNode> {
  const args = ['--host', '127.0.0.1', '--port', String(port), '--silent']
  if (options.chainId !== undefined) args.push('--chain-id', String(options.chainId))
  args.push(...(options.args ?? []))
  const child = spawn(anvilBinary(), args, { stdio: ['ignore', 'ignore', 'pipe'] })
  let tail = ''
  child.stderr!.setEncoding('utf8')
  child.stderr!.on('data', (d: string) => {
    tail = (tail + d).slice(-TAIL)
  })
  let spawnError: Error | null = null
  child.on('error', (e) => (spawnError = e))
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()))
  const url = `http://127.0.0.1:${port}`
  // Safety net: if this process exits without stop() (a crashed or killed test worker),
  // anvil must not outlive it. process.kill is synchronous, as an 'exit' handler needs.
  const onExit = () => {
    if (child.pid !== undefined && isAlive(child)) kill(child.pid, 'SIGKILL')
  }
  process.once('exit', onExit)
  void exited.then(() => process.off('exit', onExit))

  let stopping: Promise<void> | null = null
  const stop = (): Promise<void> => {
    if (stopping) return stopping
    stopping = (async () => {
      if (child.pid === undefined || !isAlive(child)) return
      kill(child.pid, 'SIGTERM')
      const timer = setTimeout(() => {
        if (isAlive(child)) kill(child.pid!, 'SIGKILL')
      }, 3000)
      await exited
      clearTimeout(timer)
    })()
    return stopping
  }

  const describe = () => `anvil ${args.join(' ')}${tail.trim() ? `\n--- stderr (tail) ---\n${tail.trimEnd()}` : ''}`
  const budget = options.readyTimeoutMs ?? 10_000
  const t0 = Date.now()
  try {
    for (;;) {
      if (spawnError) throw new Error(`could not start ${describe()}: ${(spawnError as Error).message}`)
      if (!isAlive(child)) throw new Error(`anvil exited before it was ready (code ${child.exitCode}, signal ${child.signalCode}): ${describe()}`)
      const id = await chainIdOf(url)
      if (id !== null) {
        if (child.pid === undefined) throw new Error(`anvil has no pid: ${describe()}`)
        const pid = child.pid
        return { url, port, pid, chainId: id, alive: () => isAlive(child), stderrTail: () => tail, stop }
      }
      if (Date.now() - t0 > budget) throw new Error(`anvil not ready after ${budget} ms on ${url}: ${describe()}`)
      await sleep(25)
    }
  } catch (e) {
    await stop()
    throw e
  }
}
