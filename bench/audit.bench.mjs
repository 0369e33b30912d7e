#!/usr/bin/env node
/**
 * `npm run bench -- audit [--inboxes N] [--memory N] [--reps R]`: the network audit.
 *
 *   speed    `audit --json --db <temp>` over a file of N really signed inboxes (3 updates
 *            each, bench/audit-network.ts; default 2,000) against the plain single-thread
 *            reference over the same file (dist-cli/bench-plain.mjs: replay, noble, one
 *            thread), in the same run: wall and CPU seconds, updates/s, the ratio
 *   memory   `audit --json` (results in memory) over a synthetic network of N cheap inboxes (one
 *            update each, refused with no signature checked; 5,000 inboxes a file) and over a tenth of
 *            it, each V8 heap capped (--max-old-space-size=64, every thread's): that both
 *            finish shows the live memory is bounded by the batch, not by the network; peak
 *            RSS and inboxes/s of both; default N = 1,000,000, `--memory 0` skips it
 *
 * Each figure is printed beside its target (the audit: at least 20x the plain reference's
 * wall time) and the machine's load average: compare ratios, not seconds.
 *
 * There is no run against a local node (`audit --node`): loading a devnode with N signed
 * inboxes goes through its publish path, which judges every update as it takes it, so the
 * set-up alone costs about what the audit measures; the node path differs from the file
 * path only in its listing (paged QueryEnvelopes into the store's snapshot), which the
 * node tests cover (test/audit/node.test.ts).
 */
import { spawnSync } from 'node:child_process'
import { existsSync, mkdtempSync, rmSync } from 'node:fs'
import { loadavg, tmpdir } from 'node:os'
import { dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..')
const args = process.argv.slice(2)
const opt = (name, dflt) => {
  const i = args.indexOf(`--${name}`)
  return i >= 0 ? Number(args[i + 1]) : dflt
}
const inboxes = opt('inboxes', 2000)
const memory = opt('memory', 1_000_000)
const reps = Math.max(1, opt('reps', 1))
/** The wall ratio the audit is held to against the plain reference. */
const TARGET_RATIO = 20
/** The V8 old-space cap of the memory runs (every isolate: the main thread and each worker). */
const HEAP_CAP_MB = 64
const load = () =>
  loadavg()
    .map((x) => x.toFixed(1))
    .join(' ')

function sh(cmd, a, env = {}) {
  const r = spawnSync(cmd, a, {
    cwd: ROOT,
    stdio: ['ignore', 'pipe', 'inherit'],
    env: { ...process.env, ...env },
    maxBuffer: 1 << 30,
  })
  if (r.status !== 0) throw new Error(`${cmd} ${a.join(' ')} failed (${r.status ?? r.signal})`)
  return r.stdout.toString('utf8')
}

/** Runs a command with its output discarded; wall, user and system seconds and peak RSS (MB) from /usr/bin/time. */
function measure(cmd, a, env = {}) {
  const r = spawnSync('/usr/bin/time', ['-f', 'BENCH %e %U %S %M', 'sh', '-c', `"$0" "$@" > /dev/null`, cmd, ...a], {
    cwd: ROOT,
    encoding: 'utf8',
    maxBuffer: 1 << 26,
    env: { ...process.env, ...env },
  })
  const m = /BENCH ([\d.]+) ([\d.]+) ([\d.]+) (\d+)/.exec(r.stderr)
  if (r.status !== 0 || !m) throw new Error(`${cmd} ${a.join(' ')} failed: ${r.stderr.slice(-2000)}`)
  return { wall: Number(m[1]), cpu: Number((Number(m[2]) + Number(m[3])).toFixed(2)), rssMb: Number(m[4]) / 1024 }
}

console.log(`audit-bench: ${new Date().toISOString()}, load average ${load()}`)
if (!existsSync('/usr/bin/time')) throw new Error('audit-bench needs /usr/bin/time (apt-get install time)')
sh(process.execPath, ['scripts/build-cli.mjs', '--bench'])
const tmp = mkdtempSync(join(tmpdir(), 'audit-bench-'))
try {
  const file = sh(process.execPath, ['--import', 'tsx', 'bench/audit-network.ts', 'signed', String(inboxes)]).trim()
  const updates = inboxes * 3
  const plain = measure(process.execPath, ['dist-cli/bench-plain.mjs', file])
  const runs = []
  for (let i = 0; i < reps; i++) {
    const db = join(tmp, `speed-${i}.db`)
    runs.push(measure(process.execPath, ['scripts/cli.cjs', 'audit', '--json', '--db', db, file]))
  }
  const best = runs.reduce((a, b) => (b.wall < a.wall ? b : a))
  const line = {
    inboxes,
    updates,
    plain_s: plain.wall,
    plain_cpu_s: plain.cpu,
    audit_s: best.wall,
    audit_cpu_s: best.cpu,
    audit_updates_per_s: Math.round(updates / best.wall),
    ratio_wall: Number((plain.wall / best.wall).toFixed(1)),
    ratio_cpu: Number((plain.cpu / best.cpu).toFixed(1)),
    audit_rss_mb: Math.round(best.rssMb),
    load: load(),
  }
  console.log(`audit-bench speed ${JSON.stringify(line)}`)
  console.log(
    `audit-bench speed: ${inboxes} inboxes, ${updates} updates: plain ${plain.wall} s, audit ${best.wall} s wall (${best.cpu} CPU-s, ${line.audit_updates_per_s} updates/s); ratio ${line.ratio_wall}x wall (target ≥${TARGET_RATIO}x: ${line.ratio_wall >= TARGET_RATIO ? 'met' : 'NOT met'}), ${line.ratio_cpu}x CPU; load average ${line.load}`,
  )
  if (memory > 0) {
    for (const n of [Math.round(memory / 10), memory]) {
      // 5,000 inboxes a file: a file read whole is the largest unit of memory (see docs/audit.md).
      const files = Math.max(10, Math.ceil(n / 5000))
      const dir = sh(process.execPath, [
        '--import',
        'tsx',
        'bench/audit-network.ts',
        'cheap',
        String(n),
        String(files),
      ]).trim()
      const m = measure(process.execPath, ['scripts/cli.cjs', 'audit', '--json', dir], {
        NODE_OPTIONS: `${process.env.NODE_OPTIONS ?? ''} --max-old-space-size=${HEAP_CAP_MB}`.trim(),
      })
      console.log(
        `audit-bench memory ${JSON.stringify({ inboxes: n, files, heap_cap_mb: HEAP_CAP_MB, seconds: m.wall, inboxes_per_s: Math.round(n / m.wall), peak_rss_mb: Math.round(m.rssMb), load: load() })} (target: completes under the heap cap)`,
      )
    }
  }
} finally {
  rmSync(tmp, { recursive: true, force: true })
}
console.log(`audit-bench: done, load average ${load()}`)
