#!/usr/bin/env node
/**
 * `npm run bench`:
 *   1. Node: bench/replay.bench.ts (1,000 and 10,000 updates, replay vs bare verification),
 *      then bench/verify.bench.ts (issue #7: 256 and 10,000 updates, plain one-thread noble
 *      replay vs the fast path — fast backend, worker-thread pool, warm verdict cache —
 *      in one process: time, ratio, signatures/s, share outside verification, peak RSS;
 *      `verify-bench node {...}` lines).
 *   2. Browser: a fresh `vite build`, then in headless Chromium the inspector's replay-perf
 *      spec on a 10,000-update log (INSPECTOR_PERF_UPDATES: time to shown, reopen time,
 *      longest main-thread task, each key press's step to the next paint by the Event
 *      Timing API on it and on 256 updates; `replay-perf {...}` and `replay-perf target:`
 *      lines) and e2e/verify-bench.spec.ts
 *      (INSPECTOR_VERIFY_BENCH=1: the same comparison as 1. in one page session, through the
 *      app's replay worker and its verification pool; `verify-bench chromium {...}` lines).
 *   Node part (issue #13): the CLI bundle built with its benchmark entries, then per-primitive
 *   ops/s (bench/primitives.bench.ts), plain vs the CLI's path in-process at 256 and 1,024
 *   updates (bundled bench/verify.bench.ts), then whole processes (bench/cli.bench.mjs: the
 *   CLI vs the plain reference, a one-update call vs node -e 0, the stale check, worker start).
 *   npm run bench -- node      only the Node benchmarks (sizes may follow: node 10000)
 *   npm run bench -- replay    bench/replay.bench.ts (replay vs bare verification, 1,000 and 10,000)
 *   npm run bench -- browser   only the browser benchmarks (a size may follow)
 *   npm run bench -- hostile   only the hostile inputs of issue #14 (bench/hostile.bench.ts)
 *   npm run bench -- audit     only the network audit (bench/audit.bench.mjs: --inboxes N --memory N --reps R)
 */
import { spawnSync } from 'node:child_process'
import { existsSync } from 'node:fs'
import { loadavg } from 'node:os'
import { join, dirname } from 'node:path'
import { fileURLToPath } from 'node:url'

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..')
const bin = (n) => join(ROOT, 'node_modules', '.bin', n)
const [what = 'all', ...rest] = process.argv.slice(2)
const run = (cmd, args, env = {}) => {
  const r = spawnSync(cmd, args, { cwd: ROOT, stdio: 'inherit', env: { ...process.env, ...env } })
  if (r.status !== 0) {
    console.error(`bench: ${[cmd, ...args].join(' ')} failed (exit status ${r.status ?? r.signal})`)
    process.exit(1)
  }
}
const synthetic = (n) => existsSync(join(ROOT, 'node_modules', '.cache', 'inspector-e2e', `synthetic-${n}.json`))
if (what === 'all' || what === 'node') {
  console.log(
    `bench: ${new Date().toISOString()}, load average ${loadavg()
      .map((x) => x.toFixed(1))
      .join(' ')}`,
  )
  // The command line's bundle with the benchmark entries (bench/plain-replay.ts, bench/verify.bench.ts).
  run(process.execPath, ['scripts/build-cli.mjs', '--bench'])
  if (!synthetic(256) || !synthetic(1024))
    run(process.execPath, ['--import', 'tsx', 'bench/synthetic-logs.ts', '256', '1024'])
  // Per primitive, ops/s: noble, the previous fast paths and the current ones.
  run(process.execPath, ['--import', 'tsx', 'bench/primitives.bench.ts'])
  // In-process: plain vs the CLI's path (fast backend, pool from POOL_THRESHOLD), bundled.
  run(process.execPath, ['dist-cli/bench-verify.mjs', ...(rest.length ? rest : ['256', '1024'])])
  // Whole processes: the CLI vs the plain reference, a one-update call vs node -e 0, worker start-up.
  run(process.execPath, ['bench/cli.bench.mjs'])
}
// Issue #14: what one hostile input costs (bench/hostile.bench.ts; `npm run bench -- hostile [cli|node] [case...]`).
if (what === 'all' || what === 'hostile') run(process.execPath, ['--import', 'tsx', 'bench/hostile.bench.ts', ...rest])
// The network audit against the plain reference, and its memory on a synthetic network.
if (what === 'all' || what === 'audit')
  run(process.execPath, ['bench/audit.bench.mjs', ...(what === 'audit' ? rest : [])])
if (what === 'replay') run(process.execPath, ['--expose-gc', '--import', 'tsx', 'bench/replay.bench.ts', ...rest])
if (what === 'all' || what === 'browser') {
  run(bin('vite'), ['build', '--logLevel', 'warn'])
  // Per primitive in a Chromium Web Worker (noble vs the fast paths).
  run(bin('playwright'), ['test', 'e2e/primitives-perf.spec.ts', '--reporter=list'], {
    INSPECTOR_PRIMITIVES_BENCH: '1',
  })
  run(bin('playwright'), ['test', 'e2e/replay-perf.spec.ts', '--reporter=list'], {
    INSPECTOR_PERF_UPDATES: rest[0] && what === 'browser' ? rest[0] : '10000',
    INSPECTOR_PERF_BENCH: '1',
  })
  run(bin('playwright'), ['test', 'e2e/verify-bench.spec.ts', '--reporter=list'], {
    INSPECTOR_VERIFY_BENCH: '1',
    INSPECTOR_VERIFY_SIZES: rest[0] && what === 'browser' ? rest[0] : '256,10000',
  })
}
