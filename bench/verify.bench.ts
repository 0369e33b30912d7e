/**
 * `npm run bench` (Node part 2, issue #7): plain vs fast verification in one process, on
 * synthetic logs of mixed signature kinds (e2e/synthetic-log.ts: erc_191, passkey,
 * installation_key; the same logs as the Chromium benchmark, e2e/verify-bench.spec.ts).
 *
 *   plain        today's replay(): one thread, noble, no cache
 *   fast (cli)   what the command line does: the fast backend, and the worker-thread
 *                pool for logs of POOL_THRESHOLD updates or more (pool start included)
 *   fast pool    the pool forced on, whatever the size (pool start included)
 *   fast warm    the fast backend with a warm in-memory verdict cache (the local node)
 *
 * Per path: wall time, the ratio to plain, signatures/s, process CPU (all threads), the share of
 * time outside signature verification (replay time not spent waiting for verified
 * updates), and peak RSS (the process and its worker threads). Every path must give the
 * plain report. Rounds alternate the paths; the fastest of each is kept.
 *   node --import tsx bench/verify.bench.ts [sizes…]      (default 256 10000)
 */
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs'
import { availableParallelism, loadavg } from 'node:os'
import { readLogs } from '../src/core/decode/logs'
import { replay, type ReplayOptions, type VerifyStage } from '../src/core/replay'
import { toReport } from '../src/core/report'
import type { InboxLog } from '../src/core/types'
import { LruVerdictCache } from '../src/core/verify/cache'
import { fastContext } from '../src/core/verify/fast'
import { signaturesOf, verifyUpdate } from '../src/core/verify/update'
import { fastReplayOptions, nodeVerifyPool, POOL_MIN_CORES, POOL_THRESHOLD } from '../src/cli/pool/node-pool'
import { syntheticBundle } from '../e2e/synthetic-log'

const CACHE = 'node_modules/.cache/inspector-e2e/'

async function logText(n: number): Promise<string> {
  const file = `${CACHE}synthetic-${n}.json`
  if (existsSync(file)) return readFileSync(file, 'utf8')
  process.stdout.write(`generating a ${n}-update log… `)
  const t = Date.now()
  const text = await syntheticBundle(n)
  mkdirSync(CACHE, { recursive: true })
  writeFileSync(file, text)
  console.log(`${((Date.now() - t) / 1000).toFixed(1)} s (cached in ${file})`)
  return text
}

const cpuMs = () => {
  const u = process.cpuUsage()
  return (u.user + u.system) / 1000
}

/** Time application waited for its next verified update (see src/worker/replay.worker.ts CriticalPath). */
function criticalPath(t0: number) {
  const resolved: number[] = []
  const applied: number[] = []
  return {
    stage:
      (inner: VerifyStage): VerifyStage =>
      (u, i) =>
        inner(u, i).then((v) => ((resolved[i] = performance.now()), v)),
    onProgress: (done: number) => void (applied[done - 1] = performance.now()),
    waitMs: () => {
      let w = 0
      for (let i = 0; i < applied.length; i++)
        if (resolved[i] !== undefined) w += Math.max(0, resolved[i]! - (i === 0 ? t0 : (applied[i - 1] ?? t0)))
      return w
    },
  }
}

type Path = 'plain' | 'fast (cli)' | 'fast pool' | 'fast warm'

interface Run {
  path: Path
  wallMs: number
  cpuMs: number
  waitMs: number
  peakRss: number
  report: string
  pool: string
}

async function once(path: Path, log: InboxLog, warm: LruVerdictCache): Promise<Run> {
  const rss0 = process.memoryUsage().rss
  let peak = rss0
  const sampler = setInterval(() => (peak = Math.max(peak, process.memoryUsage().rss)), 20)
  const t0 = performance.now()
  const c0 = cpuMs()
  const cp = criticalPath(t0)
  let close = () => undefined as void
  let pool = ''
  let opts: ReplayOptions
  if (path === 'plain') opts = { verify: cp.stage((u) => verifyUpdate(u)) }
  else {
    const { ctx } = await fastContext()
    if (path === 'fast warm') opts = { verify: cp.stage((u) => verifyUpdate(u, { ...ctx, verdicts: warm })) }
    else if (path === 'fast pool') {
      const p = nodeVerifyPool(ctx)
      opts = { verify: cp.stage(p.verify), verifyAhead: p.ahead }
      close = () => {
        const s = p.stats()
        pool = `${s.ready}/${s.size} workers ready, ${s.remote} remote, ${s.local} on the main thread`
        p.close()
      }
    } else {
      const f = fastReplayOptions([log], ctx)
      opts = { ...f.replay, verify: cp.stage(f.replay.verify ?? ((u) => verifyUpdate(u, ctx))) }
      close = () => {
        const s = f.pool?.stats()
        pool = s
          ? `${s.ready}/${s.size} workers ready, ${s.remote} remote, ${s.local} on the main thread`
          : `no pool (< ${POOL_THRESHOLD} updates, or < ${POOL_MIN_CORES} cores)`
        f.close()
      }
    }
  }
  const trace = await replay(log, { ...opts, onProgress: cp.onProgress })
  const wallMs = performance.now() - t0
  const cpu = cpuMs() - c0
  close()
  clearInterval(sampler)
  return {
    path,
    wallMs,
    cpuMs: cpu,
    waitMs: cp.waitMs(),
    peakRss: peak,
    report: JSON.stringify(toReport(trace, 'bench')),
    pool,
  }
}

async function measure(n: number) {
  const text = await logText(n)
  const [log] = readLogs(text)
  if (!log) throw new Error('no log')
  const sigs = log.entries.reduce(
    (k, e) => k + ('error' in e.update ? 0 : e.update.actions.reduce((m, a) => m + signaturesOf(a).length, 0)),
    0,
  )
  // The warm cache is filled once, outside the timed runs (a log opened before).
  const warm = new LruVerdictCache(Math.max(50_000, sigs * 2))
  const { ctx } = await fastContext()
  for (const e of log.entries) if (!('error' in e.update)) await verifyUpdate(e.update, { ...ctx, verdicts: warm })
  const rounds = n <= 1000 ? 3 : 1
  const runs: Run[] = []
  for (let r = 0; r < rounds; r++)
    for (const p of ['plain', 'fast (cli)', 'fast pool', 'fast warm'] as const) runs.push(await once(p, log, warm))
  for (const r of runs)
    if (r.report !== runs[0]!.report) throw new Error(`${r.path}: the report differs from the plain replay's`)
  const best = (p: Path) => runs.filter((r) => r.path === p).sort((a, b) => a.wallMs - b.wallMs)[0]!
  const plain = best('plain')
  console.log(
    `${n} updates, ${sigs} signatures (${availableParallelism()} cores, load average ${loadavg()[0]!.toFixed(1)}, best of ${rounds}; same report on every path):`,
  )
  for (const p of ['plain', 'fast (cli)', 'fast pool', 'fast warm'] as const) {
    const r = best(p)
    console.log(
      `  ${p.padEnd(11)} ${r.wallMs.toFixed(0).padStart(7)} ms wall  ×${(plain.wallMs / r.wallMs).toFixed(2).padStart(5)}  ${String(Math.round((sigs / r.wallMs) * 1000)).padStart(6)} sig/s  ` +
        `process CPU (all threads) ${r.cpuMs.toFixed(0)} ms  outside verification ${(((r.wallMs - r.waitMs) / r.wallMs) * 100).toFixed(1)} %  peak RSS ${(r.peakRss / 2 ** 20).toFixed(0)} MiB${r.pool ? `  (${r.pool})` : ''}`,
    )
  }
  console.log(
    `verify-bench node ${JSON.stringify({ updates: n, signatures: sigs, ratio_fast_cli: +(plain.wallMs / best('fast (cli)').wallMs).toFixed(2), ratio_fast_pool: +(plain.wallMs / best('fast pool').wallMs).toFixed(2), ratio_fast_warm: +(plain.wallMs / best('fast warm').wallMs).toFixed(2), all_ms: runs.map((r) => `${r.path} ${Math.round(r.wallMs)}`) })}`,
  )
}

const sizes = process.argv
  .slice(2)
  .map(Number)
  .filter((x) => Number.isInteger(x) && x > 0)
for (const n of sizes.length ? sizes : [256, 10000]) await measure(n)
