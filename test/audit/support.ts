/**
 * Helpers of the audit tests: the command line as a process (through test/support/cli.ts's
 * command, so a test can SIGKILL it), its JSON Lines report, and fixture directories.
 */
import { type ChildProcess, spawn } from 'node:child_process'
import { copyFileSync, mkdirSync, readdirSync } from 'node:fs'
import { join } from 'node:path'
import { cliCommand, ROOT } from '../support/cli'

/** An audit row's verdict and state: the fields two runs over the same logs must agree on. */
const VERDICT_FIELDS = [
  'inbox_id',
  'ok',
  'updates',
  'head',
  'first_failure',
  'members',
  'state_digest',
  'log_digest',
] as const

/** The `fields` (all of VERDICT_FIELDS unless told) of an audit row, for comparing runs. */
export const verdictOf = (r: Record<string, unknown>, fields: readonly string[] = VERDICT_FIELDS) =>
  Object.fromEntries(fields.map((f) => [f, r[f]]))

export interface AuditReport {
  rows: Record<string, unknown>[]
  summary: Record<string, unknown> | null
}

/** Rows and the summary of a report's text; throws on a line that is not JSON. */
export function parseReport(text: string): AuditReport {
  const rows: Record<string, unknown>[] = []
  let summary: Record<string, unknown> | null = null
  for (const line of text.split('\n')) {
    if (!line.trim()) continue
    const v = JSON.parse(line) as Record<string, unknown>
    if ('summary' in v) summary = v.summary as Record<string, unknown>
    else rows.push(v)
  }
  return { rows, summary }
}

export interface Running {
  readonly proc: ChildProcess
  stdout(): string
  stderr(): string
  /** Resolves when the output satisfies `f` (rejects when the process exits first). */
  until(f: (out: string, err: string) => boolean, timeoutMs?: number): Promise<void>
  readonly exited: Promise<number | null>
}

const started = new Set<ChildProcess>()

/** Starts the command line (not through npm) with `args`. */
export function startCli(args: readonly string[], env: Record<string, string> = {}): Running {
  const { file, args: lead } = cliCommand()
  const proc = spawn(file, [...lead, ...args], {
    cwd: ROOT,
    env: { ...process.env, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  })
  started.add(proc)
  let out = ''
  let err = ''
  const waiters = new Set<() => void>()
  proc.stdout!.setEncoding('utf8').on('data', (d: string) => {
    out += d
    for (const w of waiters) w()
  })
  proc.stderr!.setEncoding('utf8').on('data', (d: string) => {
    err += d
    for (const w of waiters) w()
  })
  const exited = new Promise<number | null>((resolve) =>
    proc.on('close', (code) => {
      started.delete(proc)
      for (const w of waiters) w()
      resolve(code)
    }),
  )
  return {
    proc,
    stdout: () => out,
    stderr: () => err,
    exited,
    until(f, timeoutMs = 120_000) {
      return new Promise<void>((resolve, reject) => {
        const timer = setTimeout(() => {
          waiters.delete(check)
          reject(new Error(`condition not met within ${timeoutMs} ms; stderr:\n${err.slice(-2000)}`))
        }, timeoutMs)
        const check = () => {
          if (f(out, err)) {
            clearTimeout(timer)
            waiters.delete(check)
            resolve()
          } else if (proc.exitCode !== null || proc.signalCode !== null) {
            clearTimeout(timer)
            waiters.delete(check)
            reject(
              new Error(`the process exited (${proc.exitCode ?? proc.signalCode}) first; stderr:\n${err.slice(-2000)}`),
            )
          }
        }
        waiters.add(check)
        check()
      })
    },
  }
}

/** Runs the command line to its end. */
export async function auditRun(args: readonly string[], env: Record<string, string> = {}) {
  const r = startCli(args, env)
  const code = await r.exited
  return { code, stdout: r.stdout(), stderr: r.stderr(), report: code === 2 ? null : parseReport(r.stdout()) }
}

/** Kills every process the tests started that still runs. */
export function killAll(): void {
  for (const p of started) p.kill('SIGKILL')
}

/** The fixture corpus's logs (test/fixtures/*.json, not the expected reports), copied into `dir`. */
export function fixtureDir(dir: string): string[] {
  mkdirSync(dir, { recursive: true })
  const src = join(ROOT, 'test', 'fixtures')
  const names = readdirSync(src).filter((n) => n.endsWith('.json') && !n.endsWith('.expected.json'))
  for (const n of names) copyFileSync(join(src, n), join(dir, n))
  return names.map((n) => join(dir, n))
}

/** A row's identity in a report: source and inbox. */
export const rowKey = (r: Record<string, unknown>): string => `${r.source as string}\u0000${String(r.inbox_id)}`
