/**
 * How tests start the command line: the one place that knows the command. It reads
 * package.json's `cli` script (today `node scripts/cli.cjs`, the launcher of the bundle
 * that `npm ci` builds) and runs it with this Node directly, never through npm, whose
 * start-up cost several seconds per call on a loaded machine.
 */
import { spawn, spawnSync } from 'node:child_process'
import { readFileSync } from 'node:fs'
import { createRequire } from 'node:module'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { killAll } from './processes'

/** The repository root, where the command line runs. */
export const ROOT = fileURLToPath(new URL('../..', import.meta.url))
const require = createRequire(import.meta.url)

let fresh = false

/**
 * Rebuilds a stale bundle once per test process before the first command runs, as the
 * launcher would (scripts/cli-stale.cjs), so that its note "cli: rebuilt the bundle" never
 * lands in the standard error of a test that checks it (a source edited since the last
 * build made the first such test fail once).
 */
function ensureFreshBundle(): void {
  if (fresh) return
  const why = (require(join(ROOT, 'scripts', 'cli-stale.cjs')) as StaleCheck).staleReason(ROOT, join(ROOT, 'dist-cli'))
  if (why) {
    const r = spawnSync(process.execPath, [join(ROOT, 'scripts', 'build-cli.mjs')], { cwd: ROOT, encoding: 'utf8' })
    if (r.status !== 0) throw new Error(`the CLI bundle is stale (${why}) and did not build: ${r.stderr}`)
  }
  fresh = true
}

interface StaleCheck {
  staleReason(root: string, out: string): string | null
}

/** The node options of `fetch` and `watch` (contracts/cli.md): `--node URL --api API [--transport T]`. */
export const nodeArgs = (url: string, api: string, transport?: string): string[] => [
  '--node',
  url,
  '--api',
  api,
  ...(transport === undefined ? [] : ['--transport', transport]),
]

/** The executable and leading arguments of package.json's `cli` script, run without npm. */
export function cliCommand(): { file: string; args: string[] } {
  ensureFreshBundle()
  const pkg = JSON.parse(readFileSync(new URL('package.json', `file://${ROOT}`), 'utf8')) as {
    scripts?: Record<string, string>
  }
  const script = pkg.scripts?.cli
  if (!script) throw new Error('package.json has no "cli" script')
  const [head, ...rest] = script.trim().split(/\s+/)
  if (head === 'tsx') return { file: process.execPath, args: ['--import', 'tsx', ...rest] }
  if (head === 'node') return { file: process.execPath, args: rest }
  throw new Error(`package.json's cli script starts with ${head}: tests know how to run tsx or node only`)
}

export interface CliRun {
  code: number | null
  stdout: Buffer
  stderr: string
}

/** Runs the command line with `args` in the repository root; resolves when it exits. */
export function runCli(
  args: readonly string[],
  options: { timeoutMs?: number; env?: Record<string, string> } = {},
): Promise<CliRun> {
  const { file, args: lead } = cliCommand()
  return new Promise((resolve, reject) => {
    const child = spawn(file, [...lead, ...args], {
      cwd: ROOT,
      env: { ...process.env, ...options.env },
      stdio: ['ignore', 'pipe', 'pipe'],
      timeout: options.timeoutMs ?? 60_000,
    })
    const out: Buffer[] = []
    let stderr = ''
    child.stdout.on('data', (d: Buffer) => out.push(d))
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString('utf8')))
    child.on('error', reject)
    child.on('close', (code) => resolve({ code, stdout: Buffer.concat(out), stderr }))
  })
}

/** A command line running in the background (watch): its output read line by line as it comes. */
export interface LiveCli {
  /** Standard output's complete lines so far. */
  readonly lines: string[]
  stderr(): string
  /** Resolves with the lines once `until` holds for them (checked on every new line); rejects on exit or after `timeoutMs`. */
  waitFor(until: (lines: string[]) => boolean, what: string, timeoutMs?: number): Promise<string[]>
  /** Resolves once standard error holds `pattern` (from character `from` on). */
  waitForStderr(pattern: RegExp, from?: number, timeoutMs?: number): Promise<void>
  signal(sig: NodeJS.Signals): void
  readonly exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>
}

const live = new Set<ReturnType<typeof spawn>>()

/** Kills every command line spawnCli started that still runs (afterAll; also after a failed test). */
export function stopAllCli(): Promise<void> {
  return killAll(live)
}

/** Starts the command line with `args` in the repository root without waiting for it; stop it, or stopAllCli(). */
export function spawnCli(args: readonly string[]): LiveCli {
  const { file, args: lead } = cliCommand()
  const child = spawn(file, [...lead, ...args], { cwd: ROOT, stdio: ['ignore', 'pipe', 'pipe'] })
  live.add(child)
  const lines: string[] = []
  let partial = ''
  let err = ''
  const waiters = new Set<() => void>()
  const poke = () => {
    for (const w of [...waiters]) w()
  }
  child.stdout.setEncoding('utf8').on('data', (d: string) => {
    const parts = (partial + d).split('\n')
    partial = parts.pop()!
    lines.push(...parts)
    poke()
  })
  child.stderr.setEncoding('utf8').on('data', (d: string) => {
    err += d
    poke()
  })
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) =>
    child.on('exit', (code, signal) => {
      live.delete(child)
      resolve({ code, signal })
    }),
  )
  let done = false
  void exited.then(() => {
    done = true
    poke()
  })
  const wait = (check: () => boolean, what: string, timeoutMs: number) =>
    new Promise<void>((resolve, reject) => {
      const finish = (e?: Error) => {
        clearTimeout(timer)
        waiters.delete(tick)
        if (e) reject(e)
        else resolve()
      }
      const tick = () => {
        if (check()) finish()
        else if (done)
          finish(new Error(`the command exited before ${what}; stdout:\n${lines.join('\n')}\nstderr:\n${err}`))
      }
      const timer = setTimeout(
        () => finish(new Error(`no ${what} within ${timeoutMs} ms; stdout:\n${lines.join('\n')}\nstderr:\n${err}`)),
        timeoutMs,
      )
      waiters.add(tick)
      tick()
    })
  return {
    lines,
    stderr: () => err,
    waitFor: async (until, what, timeoutMs = 60_000) => {
      await wait(() => until(lines), what, timeoutMs)
      return lines
    },
    waitForStderr: (pattern, from = 0, timeoutMs = 60_000) =>
      wait(() => pattern.test(err.slice(from)), `stderr matching ${pattern}`, timeoutMs),
    signal: (sig) => {
      if (child.exitCode === null && child.signalCode === null) child.kill(sig)
    },
    exited,
  }
}
