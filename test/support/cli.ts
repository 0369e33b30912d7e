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
