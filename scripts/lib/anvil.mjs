/**
 * Local processes shared by the tests and `npm start` (scripts/start.mjs): a free
 * 127.0.0.1 port, and an anvil node (../shared/notes/chain.md §5). Plain JavaScript so
 * that start.mjs runs it with no TypeScript loader; ./anvil.d.mts types it for the
 * tests (test/chain/anvil.ts, test/devnode/harness.ts).
 *
 * The platform binary of @foundry-rs/anvil is spawned directly (not `npx anvil`, a Node
 * wrapper whose PID is not anvil's), on 127.0.0.1, with stderr kept as a tail for error
 * messages. Ready when eth_chainId answers. Stopped by PID with SIGTERM, then SIGKILL
 * after 3 s; every kill is guarded (an exited child throws ESRCH). A process 'exit' hook
 * SIGKILLs a node nobody stopped.
 */
import { spawn } from 'node:child_process'
import { existsSync } from 'node:fs'
import { createRequire } from 'node:module'
import { createServer } from 'node:net'
import { dirname, join } from 'node:path'

const PLATFORM_PACKAGES = {
  'linux-x64': 'linux-amd64',
  'linux-arm64': 'linux-arm64',
  'darwin-x64': 'darwin-amd64',
  'darwin-arm64': 'darwin-arm64',
  'win32-x64': 'win32-amd64',
}

export class AnvilError extends Error {
  /** @param {'no_binary' | 'port_in_use' | 'exited' | 'not_ready' | 'spawn_failed'} code @param {string} message */
  constructor(code, message) {
    super(message)
    this.name = 'AnvilError'
    this.code = code
  }
}

/** The anvil binary of this platform's @foundry-rs/anvil-<platform> package. */
function anvilBinary() {
  const key = `${process.platform}-${process.arch}`
  const pkg = PLATFORM_PACKAGES[key]
  if (!pkg) throw new AnvilError('no_binary', `no @foundry-rs/anvil binary package for ${key}`)
  const require = createRequire(import.meta.url)
  let manifest
  try {
    manifest = require.resolve(`@foundry-rs/anvil-${pkg}/package.json`)
  } catch {
    throw new AnvilError('no_binary', `@foundry-rs/anvil-${pkg} is not installed: run npm ci`)
  }
  const bin = join(dirname(manifest), 'bin', process.platform === 'win32' ? 'anvil.exe' : 'anvil')
  if (!existsSync(bin)) throw new AnvilError('no_binary', `${bin} is missing: run npm ci`)
  return bin
}

/** A port that was free on 127.0.0.1 a moment ago (listen on 0, read it, close). */
export function freePort() {
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

/** True when nothing listens on 127.0.0.1:port now. */
export function portFree(port) {
  return new Promise((resolve) => {
    const s = createServer()
    s.unref()
    s.once('error', () => resolve(false))
    s.listen(port, '127.0.0.1', () => s.close(() => resolve(true)))
  })
}

const TAIL = 2000

const isAlive = (c) => c.exitCode === null && c.signalCode === null

function kill(pid, signal) {
  try {
    process.kill(pid, signal)
  } catch (e) {
    if (e.code !== 'ESRCH') throw e // already gone is fine
  }
}

async function chainIdOf(url) {
  try {
    const res = await fetch(url, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: '{"jsonrpc":"2.0","id":1,"method":"eth_chainId","params":[]}',
      signal: AbortSignal.timeout(1000),
    })
    const body = await res.json()
    return typeof body.result === 'string' ? Number(BigInt(body.result)) : null
  } catch {
    return null
  }
}

const sleep = (ms) => new Promise((r) => setTimeout(r, ms))

/**
 * Starts anvil on `options.port`, or on a free port; a port taken between freePort()
 * and anvil's bind is retried on another, twice (never when the caller named the port).
 */
export async function startAnvil(options = {}) {
  for (let attempt = 1; ; attempt++) {
    try {
      return await startOnce(options, options.port ?? (await freePort()))
    } catch (e) {
      if (options.port !== undefined || attempt >= 3 || !(e instanceof AnvilError && e.code === 'port_in_use')) throw e
    }
  }
}

async function startOnce(options, port) {
  // A port someone else holds would answer the readiness probe itself: refuse it first.
  if (!(await portFree(port)))
    throw new AnvilError('port_in_use', `127.0.0.1:${port} is already in use: anvil was not started there`)
  const args = ['--host', '127.0.0.1', '--port', String(port), '--silent']
  if (options.chainId !== undefined) args.push('--chain-id', String(options.chainId))
  args.push(...(options.args ?? []))
  const child = spawn(anvilBinary(), args, { stdio: ['ignore', 'ignore', 'pipe'] })
  let tail = ''
  child.stderr.setEncoding('utf8')
  child.stderr.on('data', (d) => {
    tail = (tail + d).slice(-TAIL)
  })
  let spawnError = null
  child.on('error', (e) => (spawnError = e))
  const exited = new Promise((resolve) => child.once('exit', () => resolve()))
  const url = `http://127.0.0.1:${port}`
  // Safety net: if this process exits without stop(), anvil must not outlive it.
  // process.kill is synchronous, as an 'exit' handler needs.
  const onExit = () => {
    if (child.pid !== undefined && isAlive(child)) kill(child.pid, 'SIGKILL')
  }
  process.once('exit', onExit)
  void exited.then(() => process.off('exit', onExit))

  let stopping = null
  const stop = () => {
    if (stopping) return stopping
    stopping = (async () => {
      if (child.pid === undefined || !isAlive(child)) return
      kill(child.pid, 'SIGTERM')
      const timer = setTimeout(() => {
        if (isAlive(child)) kill(child.pid, 'SIGKILL')
      }, 3000)
      await exited
      clearTimeout(timer)
    })()
    return stopping
  }

  const describeRun = () => `anvil ${args.join(' ')}${tail.trim() ? `\n--- stderr (tail) ---\n${tail.trimEnd()}` : ''}`
  const budget = options.readyTimeoutMs ?? 10_000
  const t0 = Date.now()
  try {
    for (;;) {
      if (spawnError) throw new AnvilError('spawn_failed', `could not start ${describeRun()}: ${spawnError.message}`)
      if (!isAlive(child)) {
        const code = /address already in use|AddrInUse/i.test(tail) ? 'port_in_use' : 'exited'
        throw new AnvilError(
          code,
          `anvil exited before it was ready (code ${child.exitCode}, signal ${child.signalCode}): ${describeRun()}`,
        )
      }
      const id = await chainIdOf(url)
      // The answer counts only while our child lives (not some other listener's).
      if (id !== null && isAlive(child)) {
        if (child.pid === undefined) throw new AnvilError('spawn_failed', `anvil has no pid: ${describeRun()}`)
        const pid = child.pid
        return { url, port, pid, chainId: id, alive: () => isAlive(child), stderrTail: () => tail, stop, exited }
      }
      if (Date.now() - t0 > budget)
        throw new AnvilError('not_ready', `anvil not ready after ${budget} ms on ${url}: ${describeRun()}`)
      await sleep(25)
    }
  } catch (e) {
    await stop()
    throw e
  }
}
