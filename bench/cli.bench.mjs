#!/usr/bin/env node
/**
 * `npm run bench` (issue #13): the command line as whole processes, against the plain
 * reference, from the bundle that `npm ci` builds (scripts/build-cli.mjs --bench first):
 *
 *   1. replay --json of a 256- and a 1024-update synthetic log (e2e/synthetic-log.ts):
 *      `node scripts/cli.cjs` (what `npm run cli` runs) against `node dist-cli/bench-plain.mjs`
 *      (bench/plain-replay.ts: one thread, noble, the same output, checked byte for byte);
 *   2. a one-update call (`replay --json` of the log's first update) against a bare
 *      `node -e 0`;
 *   3. the stale-bundle check of scripts/cli.cjs (./cli-stale.cjs) in-process;
 *   4. a worker thread's start-up: the bundled verification worker (dist-cli/verify-worker.mjs)
 *      from `new Worker` to its `ready` message (its backend loaded).
 *
 * Commands alternate A B A B …; each pair gives a ratio, and the median of the pairs is
 * printed with the median wall and CPU time of each side (CPU: user + system of the child,
 * from /usr/bin/time). The load average (1 min) is printed beside every figure.
 *   node bench/cli.bench.mjs [pairs]     (default 5; 3 for the 1024-update log)
 */
import { spawnSync } from 'node:child_process'
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { availableParallelism, loadavg, tmpdir } from 'node:os'
import { join } from 'node:path'
import { Worker } from 'node:worker_threads'
import { staleReason } from '../scripts/cli-stale.cjs'

const ROOT = join(import.meta.dirname, '..')
const CACHE = join(ROOT, 'node_modules', '.cache', 'inspector-e2e')
const PAIRS = Number(process.argv[2]) || 5
const load = () => `load ${loadavg()[0].toFixed(1)}`
const median = (xs) => {
  const s = [...xs].sort((a, b) => a - b)
  return s.length % 2 ? s[(s.length - 1) / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2
}
const tmp = mkdtempSync(join(tmpdir(), 'cli-bench-'))

/** One run of `argv` under /usr/bin/time: wall and CPU seconds, and its stdout. */
function timed(argv) {
  const out = join(tmp, 'time.txt')
  const r = spawnSync('/usr/bin/time', ['-f', '%e %U %S', '-o', out, ...argv], {
    cwd: ROOT,
    maxBuffer: 1 << 28,
    encoding: 'buffer',
  })
  if (r.status !== 0) throw new Error(`${argv.join(' ')}: exit status ${r.status}: ${r.stderr}`)
  const [wall, user, sys] = readFileSync(out, 'utf8').trim().split('\n').pop().split(' ').map(Number)
  return { wall, cpu: user + sys, stdout: r.stdout }
}

/** Pairs of A and B in turn; the medians and the median of the per-pair ratios B/A (A's speed-up). */
function pairs(label, a, b, n) {
  const ra = []
  const rb = []
  for (let i = 0; i < n; i++) {
    ra.push(timed(a))
    rb.push(timed(b))
  }
  const speedWall = median(ra.map((x, i) => rb[i].wall / x.wall))
  const speedCpu = median(ra.map((x, i) => rb[i].cpu / x.cpu))
  const f = (xs, k) => median(xs.map((x) => x[k])).toFixed(3)
  console.log(
    `${label}: A ${f(ra, 'wall')} s wall ${f(ra, 'cpu')} s CPU | B ${f(rb, 'wall')} s wall ${f(rb, 'cpu')} s CPU | B/A wall ×${speedWall.toFixed(2)} CPU ×${speedCpu.toFixed(2)} (median of ${n} pairs; ${load()})`,
  )
  return { ra, rb, speedWall, speedCpu }
}

console.log(`cli-bench: ${availableParallelism()} cores, ${load()}`)
const figures = {}
for (const n of [256, 1024]) {
  const file = join(CACHE, `synthetic-${n}.json`)
  const cli = ['node', 'scripts/cli.cjs', 'replay', '--json', file]
  const plain = ['node', 'dist-cli/bench-plain.mjs', file]
  const first = timed(cli).stdout
  if (!first.equals(timed(plain).stdout))
    throw new Error(`${n} updates: the CLI's report differs from the plain replay's`)
  const r = pairs(
    `${n} updates, whole processes: A = npm run cli's bundle, B = plain reference`,
    cli,
    plain,
    n > 512 ? 3 : PAIRS,
  )
  figures[`cli_${n}_whole_process`] = { wall: +r.speedWall.toFixed(2), cpu: +r.speedCpu.toFixed(2), load: loadavg()[0] }
}

// A one-update log: the first update of the 256-update log.
const bundle = JSON.parse(readFileSync(join(CACHE, 'synthetic-256.json'), 'utf8'))
const one = join(tmp, 'one-update.json')
writeFileSync(one, JSON.stringify({ ...bundle, updates: bundle.updates.slice(0, 1) }))
const r1 = pairs(
  'one-update call: A = node scripts/cli.cjs replay --json, B = node -e 0',
  ['node', 'scripts/cli.cjs', 'replay', '--json', one],
  ['node', '-e', '0'],
  PAIRS * 2,
)
console.log(
  `  the one-update call costs ×${(1 / r1.speedWall).toFixed(2)} the wall time and ×${(1 / r1.speedCpu).toFixed(2)} the CPU time of node -e 0 (goal: within ×2; ${load()})`,
)

{
  // The reference: a cold libxmtp process validating a one-update log took 0.27 s on this kind of machine.
  const wall = median(r1.ra.map((x) => x.wall))
  console.log(
    `BENCH-TARGET ${JSON.stringify({ name: 'one-update call, inbox-inspector (bin, no npm)', value: +wall.toFixed(3), unit: 's', target: '≤ 0.27 (a cold libxmtp process)', met: wall <= 0.27, load: loadavg()[0].toFixed(1) })}`,
  )
}

// The stale-bundle check, in-process.
const checks = []
for (let i = 0; i < 50; i++) {
  const t0 = performance.now()
  const why = staleReason(ROOT, join(ROOT, 'dist-cli'))
  checks.push(performance.now() - t0)
  if (why) throw new Error(`the bundle is stale (${why}): run node scripts/build-cli.mjs --bench first`)
}
const inputs = JSON.parse(readFileSync(join(ROOT, 'dist-cli', 'inputs.json'), 'utf8')).inputs.length
console.log(`stale-bundle check (${inputs} files stat'ed): ${median(checks).toFixed(2)} ms median of 50 (${load()})`)

// Worker start-up: the bundled verification worker, new Worker → ready (backend loaded).
const starts = []
for (let i = 0; i < 5; i++) {
  const t0 = performance.now()
  const w = new Worker(new URL('../dist-cli/verify-worker.mjs', import.meta.url), { execArgv: [] })
  await new Promise((resolve, reject) => {
    w.on('message', (m) => (m.type === 'ready' ? resolve() : reject(new Error(JSON.stringify(m)))))
    w.on('error', reject)
  })
  starts.push(performance.now() - t0)
  await w.terminate()
}
console.log(
  `worker start-up (Node, bundled verification worker, new Worker → ready): median ${median(starts).toFixed(0)} ms, all ${starts.map((x) => x.toFixed(0)).join(', ')} ms (${load()})`,
)
console.log(`cli-bench ${JSON.stringify(figures)}`)
rmSync(tmp, { recursive: true, force: true })
