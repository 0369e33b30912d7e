/**
 * The hostile section of `npm run bench` (issue #14): what one attacker-shaped input costs.
 *
 *   command line  `replay --json` of each input in its own process, through the shipped
 *                 bundle (`node dist-cli/cli.mjs`, what `npm run cli` runs; rebuilt first
 *                 with scripts/build-cli.mjs): wall time, CPU seconds and peak RSS (GNU
 *                 time), beside the input size, seconds per MB and RSS / size;
 *                 each case is capped (HOSTILE_CAP_S, default 120 s) and reported as
 *                 "capped" when it runs over.
 *   local node    publish of the 4,000-action update (refused by IDENT-079) and of one that
 *                 applies (4,000 actions, 7,999 signatures), each to a fresh node, while a
 *                 client asks query-newest every 20 ms: the publish's time and answer, the
 *                 other requests' p50 / p99 / max latency, and the node's CPU seconds over
 *                 the publish (all its threads, and its main thread alone: /proc). HOSTILE_ROOT
 *                 runs the node from another checkout too (the "before" figures of a change).
 *
 * The bar: at most 1 s per MB of input and 50x its size in memory; other requests
 * answered within 100 ms (p99) while the node judges the worst input.
 *
 *   node --import tsx bench/hostile.bench.ts [cli|node] [case...]
 * Cases: baseline (start-up on a 2 KB log) update-4000 update-10000 hex-4mb hex-32mb tiny-1m
 */
import { execFileSync, spawn } from 'node:child_process'
import { readFileSync, statSync } from 'node:fs'
import { loadavg } from 'node:os'
import { join } from 'node:path'
import { startNode, stopAll, tempDir, ROOT as HERE } from '../test/devnode/harness'
import { inputs } from './hostile-inputs'

/** Where the command line runs from (HOSTILE_ROOT: e.g. an export of an older commit). */
const ROOT = process.env.HOSTILE_ROOT ?? HERE
const CAP_S = Number(process.env.HOSTILE_CAP_S ?? 120)
const load = () =>
  loadavg()
    .map((l) => l.toFixed(2))
    .join(' ')

const CASES: Record<string, () => Promise<string>> = {
  // The start-up of the command line's bundle on a 2 KB log: subtract it from the others.
  baseline: async () => join(ROOT, 'test', 'fixtures', 'IDENT-004-out-of-order-file.json'),
  'update-4000': () => inputs.updateBundle(4000),
  'update-10000': () => inputs.updateBundle(10_000),
  'hex-4mb': () => inputs.hex(4),
  'hex-32mb': () => inputs.hex(32),
  'tiny-1m': () => inputs.tiny(1_000_000),
}

interface Run {
  readonly seconds: number
  readonly peakMb: number | null
  /** User + system CPU seconds (GNU time): the figure that load does not inflate much. */
  readonly cpuS: number | null
  readonly status: number | string
  readonly capped: boolean
  readonly stdoutBytes: number
  readonly stderr: string
}

function runCli(file: string): Promise<Run> {
  return new Promise((resolve) => {
    const t0 = performance.now()
    const child = spawn(
      '/usr/bin/time',
      ['-f', 'HOSTILE-RSS-KB %M %U %S', process.execPath, join('dist-cli', 'cli.mjs'), 'replay', '--json', file],
      { cwd: ROOT, stdio: ['ignore', 'pipe', 'pipe'], detached: true },
    )
    let out = 0
    let err = ''
    child.stdout.on('data', (d: Buffer) => (out += d.length))
    child.stderr.setEncoding('utf8').on('data', (d: string) => (err = (err + d).slice(-4000)))
    let capped = false
    const timer = setTimeout(() => {
      capped = true
      try {
        process.kill(-child.pid!, 'SIGKILL')
      } catch {
        /* gone */
      }
    }, CAP_S * 1000)
    child.on('close', (code, signal) => {
      clearTimeout(timer)
      const m = /HOSTILE-RSS-KB (\d+) ([\d.]+) ([\d.]+)/.exec(err)
      resolve({
        seconds: (performance.now() - t0) / 1000,
        peakMb: m ? Number(m[1]) / 1024 : null,
        cpuS: m ? Number(m[2]) + Number(m[3]) : null,
        status: code ?? signal ?? '?',
        capped,
        stdoutBytes: out,
        stderr: err.replace(/HOSTILE-RSS-KB .*\n?/, '').trim(),
      })
    })
  })
}

async function cli(names: string[]): Promise<void> {
  // The bundle users run, fresh: a stale one would measure older code.
  execFileSync(process.execPath, [join('scripts', 'build-cli.mjs')], { cwd: ROOT, stdio: 'inherit' })
  for (const name of names) {
    const make = CASES[name]
    if (!make) throw new Error(`unknown case ${name}; cases: ${Object.keys(CASES).join(' ')}`)
    const t0 = performance.now()
    const file = await make()
    const genS = (performance.now() - t0) / 1000
    const mb = statSync(file).size / (1024 * 1024)
    const before = load()
    const r = await runCli(file)
    const line = {
      case: name,
      input_mb: +mb.toFixed(2),
      seconds: +r.seconds.toFixed(2),
      s_per_mb: +(r.seconds / mb).toFixed(2),
      cpu_s: r.cpuS === null ? null : +r.cpuS.toFixed(2),
      peak_rss_mb: r.peakMb === null ? null : +r.peakMb.toFixed(0),
      rss_per_size: r.peakMb === null ? null : +(r.peakMb / mb).toFixed(1),
      status: r.capped ? `capped at ${CAP_S} s` : r.status,
      stdout_bytes: r.stdoutBytes,
      stderr: r.stderr.split('\n')[0]?.slice(0, 200) ?? '',
      load_before: before,
      load_after: load(),
      ...(genS > 1 ? { generated_s: +genS.toFixed(1) } : {}),
    }
    console.log(`hostile-bench cli ${JSON.stringify(line)}`)
  }
}

const CLK_TCK = (() => {
  try {
    return Number(execFileSync('getconf', ['CLK_TCK'], { encoding: 'utf8' }).trim()) || 100
  } catch {
    return 100
  }
})()

/** User + system CPU seconds of a process (every thread) and of its main thread, from /proc; null off Linux. */
function cpuOf(pid: number): { all: number; main: number } | null {
  const ticks = (file: string) => {
    const f = readFileSync(file, 'utf8')
    const fields = f.slice(f.lastIndexOf(')') + 2).split(' ')
    return (Number(fields[11]) + Number(fields[12])) / CLK_TCK // utime, stime (fields 14 and 15)
  }
  try {
    return { all: ticks(`/proc/${pid}/stat`), main: ticks(`/proc/${pid}/task/${pid}/stat`) }
  } catch {
    return null
  }
}

/**
 * One publish of `bytes` to a fresh node while a client asks query-newest every 20 ms:
 * the publish's time and answer, and the other requests' latencies.
 */
async function publishWhileAsking(name: string, bytes: Uint8Array): Promise<void> {
  const dir = tempDir('hostile-bench-')
  const n = await startNode({ db: dir.path('node.db'), root: ROOT })
  try {
    const before = load()
    const client = n.client()
    const latencies: number[] = []
    const failures: string[] = []
    let done = false
    const asker = (async () => {
      while (!done) {
        const t = performance.now()
        try {
          await client.queryNewest(['a'.repeat(64)])
          latencies.push(performance.now() - t)
        } catch (e) {
          failures.push((e instanceof Error ? e.message : String(e)).slice(0, 160))
        }
        await new Promise((res) => setTimeout(res, 20))
      }
    })()
    await new Promise((res) => setTimeout(res, 200))
    const cpu0 = cpuOf(n.proc.pid!)
    const t0 = performance.now()
    let answer: string
    try {
      answer = `admitted ${(await client.publishIdentityUpdate(bytes)).sequenceId}`
    } catch (e) {
      answer = (e instanceof Error ? e.message : String(e)).slice(0, 160)
    }
    const publishS = (performance.now() - t0) / 1000
    const cpu1 = cpuOf(n.proc.pid!)
    await new Promise((res) => setTimeout(res, 100))
    done = true
    await asker
    latencies.sort((a, b) => a - b)
    const q = (p: number) => +latencies[Math.min(latencies.length - 1, Math.floor(p * latencies.length))]!.toFixed(1)
    console.log(
      `hostile-bench node ${JSON.stringify({
        case: name,
        root: ROOT,
        input_mb: +(bytes.length / 1024 / 1024).toFixed(2),
        publish_s: +publishS.toFixed(2),
        answer,
        other_requests: latencies.length,
        other_failed: failures.length,
        ...(failures.length ? { first_failure: failures[0] } : {}),
        node_stderr: n.stderr().trim().split('\n').slice(-3).join(' | ').slice(0, 300),
        other_p50_ms: q(0.5),
        other_p99_ms: q(0.99),
        other_max_ms: +latencies[latencies.length - 1]!.toFixed(1),
        node_cpu_s: cpu0 && cpu1 ? +(cpu1.all - cpu0.all).toFixed(2) : null,
        node_main_thread_cpu_s: cpu0 && cpu1 ? +(cpu1.main - cpu0.main).toFixed(2) : null,
        load_before: before,
        load_after: load(),
      })}`,
    )
  } finally {
    await n.stop()
    dir.remove()
  }
}

async function node(): Promise<void> {
  try {
    // Refused by IDENT-079 (a rule that needs no signature), and admitted (every signature verified).
    await publishWhileAsking('publish update-4000 (IDENT-079)', readFileSync(await inputs.update(4000)))
    await publishWhileAsking('publish update-4000 (applies)', readFileSync(await inputs.applyingUpdate(4000)))
  } finally {
    await stopAll()
  }
}

const [what = 'all', ...rest] = process.argv.slice(2)
if (what === 'all' || what === 'cli') await cli(rest.length ? rest : Object.keys(CASES))
if (what === 'all' || what === 'node') await node()
