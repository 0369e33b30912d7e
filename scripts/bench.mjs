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
 *   npm run bench -- load      only the app's load path: the first screen's JavaScript
 *                              (e2e/first-screen.spec.ts) and a 256-update log opened from a
 *                              file 3 s after load, with its breakdown (e2e/open-bench.spec.ts)
 *
 * Targets: any benchmark may print lines
 *   BENCH-TARGET {"name":"…","value":123,"unit":"ms","target":"≤ 150","met":true}
 * (one JSON object: name, value, unit, target as text, met as a boolean; optional "load", the
 * 1-minute load average when it was measured, and "detail"). They are collected from every
 * run's output and printed last as one table, each figure beside its target and load average.
 */
import { spawn } from 'node:child_process'
import { existsSync } from 'node:fs'
import { loadavg } from 'node:os'
import { join, dirname } from 'node:path'
import { fileURLToPath } from 'node:url'

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..')
const bin = (n) => join(ROOT, 'node_modules', '.bin', n)
const [what = 'all', ...rest] = process.argv.slice(2)
const load1 = () => loadavg()[0].toFixed(1)
/** The BENCH-TARGET lines seen so far (see the header). */
const targets = []
function collect(line) {
  const m = /^BENCH-TARGET (\{.*\})\s*$/.exec(line)
  if (!m) return
  try {
    const t = JSON.parse(m[1])
    if (typeof t.name === 'string' && t.value !== undefined) targets.push({ load: load1(), ...t })
    else console.error(`bench: a BENCH-TARGET line without name or value: ${line}`)
  } catch (e) {
    console.error(`bench: a BENCH-TARGET line that is not JSON (${e.message}): ${line}`)
  }
}
/** Runs a command, its output passed through (and read for BENCH-TARGET lines); exits on failure. */
async function run(cmd, args, env = {}) {
  const child = spawn(cmd, args, { cwd: ROOT, stdio: ['inherit', 'pipe', 'pipe'], env: { ...process.env, ...env } })
  const tee = (from, to) => {
    let rest = ''
    from.on('data', (chunk) => {
      to.write(chunk)
      const lines = (rest + chunk.toString('utf8')).split('\n')
      rest = lines.pop()
      for (const l of lines) collect(l)
    })
    from.on('end', () => collect(rest))
  }
  tee(child.stdout, process.stdout)
  tee(child.stderr, process.stderr)
  const [code, signal] = await new Promise((resolve) => child.on('close', (c, s) => resolve([c, s])))
  if (code !== 0) {
    console.error(`bench: ${[cmd, ...args].join(' ')} failed (exit status ${code ?? signal})`)
    printTargets()
    process.exit(1)
  }
}
/** The table of every target seen, last. */
function printTargets() {
  if (targets.length === 0) return
  const rows = targets.map((t) => [
    t.name,
    `${t.value} ${t.unit ?? ''}`.trim(),
    t.target ?? '',
    t.met === true ? 'met' : t.met === false ? 'NOT met' : '',
    String(t.load ?? ''),
  ])
  const head = ['figure', 'value', 'target', '', 'load average']
  const width = head.map((h, i) => Math.max(h.length, ...rows.map((r) => r[i].length)))
  const line = (r) => `| ${r.map((c, i) => c.padEnd(width[i])).join(' | ')} |`
  console.log(
    `\nbench: targets (load average now ${loadavg()
      .map((x) => x.toFixed(1))
      .join(' ')})`,
  )
  console.log(line(head))
  console.log(`|${width.map((w) => '-'.repeat(w + 2)).join('|')}|`)
  for (const r of rows) console.log(line(r))
}
const synthetic = (n) => existsSync(join(ROOT, 'node_modules', '.cache', 'inspector-e2e', `synthetic-${n}.json`))
if (what === 'all' || what === 'node') {
  console.log(
    `bench: ${new Date().toISOString()}, load average ${loadavg()
      .map((x) => x.toFixed(1))
      .join(' ')}`,
  )
  // The command line's bundle with the benchmark entries (bench/plain-replay.ts, bench/verify.bench.ts).
  await run(process.execPath, ['scripts/build-cli.mjs', '--bench'])
  if (!synthetic(256) || !synthetic(1024))
    await run(process.execPath, ['--import', 'tsx', 'bench/synthetic-logs.ts', '256', '1024'])
  // Per primitive, ops/s: noble, the previous fast paths and the current ones.
  await run(process.execPath, ['--import', 'tsx', 'bench/primitives.bench.ts'])
  // In-process: plain vs the CLI's path (fast backend, pool from POOL_THRESHOLD), bundled.
  await run(process.execPath, ['dist-cli/bench-verify.mjs', ...(rest.length ? rest : ['256', '1024'])])
  // Whole processes: the CLI vs the plain reference, a one-update call vs node -e 0, worker start-up.
  await run(process.execPath, ['bench/cli.bench.mjs'])
}
// Issue #14: what one hostile input costs (bench/hostile.bench.ts; `npm run bench -- hostile [cli|node] [case...]`).
if (what === 'all' || what === 'hostile')
  await run(process.execPath, ['--import', 'tsx', 'bench/hostile.bench.ts', ...rest])
// The network audit against the plain reference, and its memory on a synthetic network.
if (what === 'all' || what === 'audit')
  await run(process.execPath, ['bench/audit.bench.mjs', ...(what === 'audit' ? rest : [])])
if (what === 'replay') await run(process.execPath, ['--expose-gc', '--import', 'tsx', 'bench/replay.bench.ts', ...rest])
if (what === 'all' || what === 'browser' || what === 'load') {
  await run(bin('vite'), ['build', '--logLevel', 'warn'])
  // The first screen's JavaScript, then a 256-update log opened from a file after load (issue: load path).
  await run(bin('playwright'), ['test', 'e2e/first-screen.spec.ts', 'e2e/open-bench.spec.ts', '--reporter=list'], {
    INSPECTOR_OPEN_BENCH: '1',
  })
}
if (what === 'all' || what === 'browser') {
  // Per primitive in a Chromium Web Worker (noble vs the fast paths).
  await run(bin('playwright'), ['test', 'e2e/primitives-perf.spec.ts', '--reporter=list'], {
    INSPECTOR_PRIMITIVES_BENCH: '1',
  })
  await run(bin('playwright'), ['test', 'e2e/replay-perf.spec.ts', '--reporter=list'], {
    INSPECTOR_PERF_UPDATES: rest[0] && what === 'browser' ? rest[0] : '10000',
    INSPECTOR_PERF_BENCH: '1',
  })
  await run(bin('playwright'), ['test', 'e2e/verify-bench.spec.ts', '--reporter=list'], {
    INSPECTOR_VERIFY_BENCH: '1',
    INSPECTOR_VERIFY_SIZES: rest[0] && what === 'browser' ? rest[0] : '256,10000',
  })
}
printTargets()
