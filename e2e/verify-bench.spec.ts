/**
 * The verification benchmark in headless Chromium (issue #7), run by `npm run bench`
 * only (INSPECTOR_VERIFY_BENCH=1; skipped otherwise, so `npm test` stays fast).
 *
 * First, the app's own first replay after load: the page opened on `?url=` of a synthetic
 * log (e2e/synthetic-log.ts), in a fresh browser context and then after reloads (verdict
 * cache deleted), timed by the app's user-timing measure (REPLAY_MEASURE in
 * src/app/trace/replay-client.ts). Then, in one page session, it drives the app's own
 * replay worker (the built replay.worker-*.js, started from the page under the app's CSP)
 * on the same log of mixed signature kinds (erc_191, passkey, installation_key), for each
 * size: first `fast first`, the first replay after the replay worker started
 * (cold: its verification pool starts with it, as the app's does when the app loads; no
 * cache), then alternating:
 *   plain       today's replay: one thread, noble, no cache
 *   fast        the verification pool + fast backend, no verdict cache
 *   fast cold   the same with the verdict cache, emptied first (lookups miss, verdicts are written)
 *   fast warm   the same again, the cache now full (a log reopened in the same session:
 *               the cache's in-memory front answers)
 *   fast warm idb  the same, reading IndexedDB only (a log reopened after a reload)
 * and last, in pairs, `fast first settled`: a new replay worker, its log opened and
 * replayed once its pool reports every verification worker ready and its warm-up done (the
 * app's case: it starts the worker at load, a user opens a log later), with how long that
 * start took, then `plain first settled`: the same with the plain path, the cold baseline
 * (the ratio of each pair is cold against cold; the ratios above are against warm plain);
 * and prints, per path: wall time, the ratio to plain, signatures/s, the share of time
 * outside signature verification (replay time not spent waiting for verified updates),
 * pool use, and the peak resident memory of the page's renderer process (page and its
 * workers), sampled from /proc. All three Traces must give the same report.
 */
import { readdirSync, readFileSync } from 'node:fs'
import { availableParallelism, loadavg } from 'node:os'
import { expect, test } from './fixtures'
import { clearIndexedDb, syntheticLogFile, waitForLog } from './helpers'
import { readLogs } from '../src/core/decode/logs'
import { signaturesOf } from '../src/core/verify/update'

declare const Worker: any, navigator: any

const ON = process.env.INSPECTOR_VERIFY_BENCH === '1'
const SIZES = (process.env.INSPECTOR_VERIFY_SIZES ?? '256,10000').split(',').map(Number)
const OUT_DIR = process.env.E2E_SLOT ? `tmp/e2e-${process.env.E2E_SLOT}/dist` : 'dist'

async function logText(n: number): Promise<string> {
  return readFileSync(await syntheticLogFile(n), 'utf8')
}

/** The renderer processes this test's browser started: descendants of this process. */
function rendererRssKiB(): number {
  const parent = new Map<number, number>()
  const renderers: { pid: number; rss: number }[] = []
  for (const d of readdirSync('/proc')) {
    if (!/^\d+$/.test(d)) continue
    try {
      const status = readFileSync(`/proc/${d}/status`, 'utf8')
      parent.set(Number(d), Number(/PPid:\s+(\d+)/.exec(status)?.[1] ?? 0))
      const cmd = readFileSync(`/proc/${d}/cmdline`, 'utf8')
      if (cmd.includes('--type=renderer'))
        renderers.push({ pid: Number(d), rss: Number(/VmRSS:\s+(\d+)/.exec(status)?.[1] ?? 0) })
    } catch {
      // the process ended
    }
  }
  const mine = (pid: number): boolean => {
    for (let p = pid, hops = 0; p > 1 && hops < 20; p = parent.get(p) ?? 0, hops++) if (p === process.pid) return true
    return false
  }
  return renderers.filter((r) => mine(r.pid)).reduce((k, r) => k + r.rss, 0)
}

type Timings = Record<string, { calls: number; ms: number }>
/** Per primitive: calls and mean ms per call. */
const perCall = (t: Timings | undefined) =>
  Object.fromEntries(Object.entries(t ?? {}).map(([k, v]) => [k, `${v.calls} × ${(v.ms / v.calls).toFixed(2)} ms`]))

interface Run {
  path:
    | 'fast first'
    | 'fast first settled'
    | 'plain first settled'
    | 'plain'
    | 'fast'
    | 'fast cold'
    | 'fast warm'
    | 'fast warm idb'
  replayMs: number
  wallMs: number
  report: string
  verify: {
    workers: number
    live: number
    ready: number
    backends: string[]
    failures: string[]
    remote: number
    local: number
    cached: number
    waitMs: number
    workerMs: number
    cache: boolean
    startupMs?: number[]
    timings?: { workers: Timings; local: Timings }
  }
  peakRssMiB?: number
  cpuMs?: number
}

test.describe('verification benchmark (npm run bench)', () => {
  test.skip(!ON, 'runs under `npm run bench` only (INSPECTOR_VERIFY_BENCH=1)')

  for (const n of SIZES) {
    test(`a ${n.toLocaleString('en')}-update log: plain one-thread noble replay vs the fast path, in one page session`, async ({
      page,
    }, info) => {
      test.setTimeout(Math.max(240_000, n * 120))
      const text = await logText(n)
      const [log] = readLogs(text)
      const sigs = log!.entries.reduce(
        (k, e) => k + ('error' in e.update ? 0 : e.update.actions.reduce((m, a) => m + signaturesOf(a).length, 0)),
        0,
      )
      const asset = readdirSync(`${OUT_DIR}/assets`).find((f) => /^replay\.worker-.*\.js$/.test(f))
      expect(asset, `the built replay worker in ${OUT_DIR}/assets`).toBeDefined()
      const rounds = n <= 1000 ? 3 : 1
      // The app's own first replay after load: the page opened on `?url=` of the log (served
      // here by routing, same origin), so the app's replay worker starts when the page loads
      // and the log arrives while it starts; timed by the app's user-timing measure
      // (src/app/trace/replay-client.ts REPLAY_MEASURE), with how long after the navigation
      // it ended. The first round is a fresh browser context (nothing cached); before each
      // later one the verdict cache is deleted, then the page reloads (the HTTP cache and
      // the browser's compiled WebAssembly stay: a returning user).
      const logPath = `/bench-log-${n}.json`
      await page.route(`**${logPath}`, (route) => route.fulfill({ body: text, contentType: 'application/json' }))
      const appFirst: { replayMs: number; endedAfterLoadMs: number; detail: any }[] = []
      for (let round = 0; round < rounds; round++) {
        if (round > 0) await clearIndexedDb(page)
        const origin = new URL(page.url() === 'about:blank' ? info.project.use.baseURL! : page.url()).origin
        await page.goto(`/?url=${encodeURIComponent(origin + logPath)}`)
        const m = await page.waitForFunction(
          (updates) => {
            const e = performance.getEntriesByName('inspector: replay', 'measure').at(-1) as any
            return e && e.detail.updates === updates
              ? { replayMs: e.duration, endedAfterLoadMs: e.startTime + e.duration, detail: e.detail }
              : null
          },
          n,
          // Polled on a timer, not every animation frame: frames cost CPU beside the replay.
          { timeout: Math.max(60_000, n * 20), polling: 50 },
        )
        appFirst.push((await m.jsonValue())!)
      }
      await page.unroute(`**${logPath}`)
      await page.goto('/')
      await waitForLog(page)
      // A replay worker with the log opened in it (the one before it ended). `settle`: first
      // wait until its pool says every verification worker is ready and its own warm-up has
      // ended (the 'pool' messages), and say when that was, from new Worker.
      const startWorker = (name: string, settle: boolean) =>
        page.evaluate(
          async ({ url, text, name, settle }) => {
            ;(globalThis as any).__bench?.terminate()
            const t0 = performance.now()
            const w = new Worker(url, { type: 'module', name })
            ;(globalThis as any).__bench = w
            const state = !settle
              ? null
              : await new Promise<any>((resolve, reject) => {
                  const late = setTimeout(
                    () => reject(new Error('the new replay worker never reported its pool ready and warm')),
                    60_000,
                  )
                  let readyAt = 0
                  w.onmessage = (ev: any) => {
                    const m = ev.data
                    if (m.type !== 'pool') return
                    if (m.ready === m.workers && !readyAt) readyAt = performance.now() - t0
                    if (readyAt && m.warmUp.includes('idle:')) {
                      clearTimeout(late)
                      resolve({ ...m, readyAt, settledAt: performance.now() - t0 })
                    }
                  }
                })
            await new Promise<void>((resolve, reject) => {
              w.onmessage = (ev: any) =>
                ev.data.type === 'opened'
                  ? resolve()
                  : ev.data.type === 'pool' || ev.data.type === 'measure' // unasked (src/worker/protocol.ts)
                    ? undefined
                    : reject(new Error(JSON.stringify(ev.data)))
              w.postMessage({ type: 'open', id: 1, input: text, name: 'bench.json' })
            })
            return state
          },
          { url: `/assets/${asset}`, text, name, settle },
        )
      // One replay worker for the session, the log opened once; runs alternate.
      await startWorker('bench-replay', false)
      // CPU time of the renderer process (the page and all its workers), by CDP: steadier
      // than wall time on a shared machine, though it sums the threads instead of overlapping them.
      const cdp = await page.context().browser()!.newBrowserCDPSession()
      const rendererCpuS = async (): Promise<number> => {
        const info = (await cdp.send('SystemInfo.getProcessInfo')) as {
          processInfo: { type: string; cpuTime: number }[]
        }
        return info.processInfo.filter((p) => p.type === 'renderer').reduce((k, p) => k + p.cpuTime, 0)
      }
      const once = async (path: Run['path'], id: number): Promise<Run> => {
        const cpu0 = await rendererCpuS()
        let peak = rendererRssKiB()
        const sampler = setInterval(() => (peak = Math.max(peak, rendererRssKiB())), 100)
        const msg = {
          type: 'replay',
          id,
          logIndex: 0,
          file: 'bench.json',
          verifier: 'none',
          engine: path === 'plain' || path === 'plain first settled' ? 'plain' : 'fast',
          // 'fast first settled': like 'fast first', no cache (src/worker/replay.worker.ts).
          cache: path === 'fast cold' || path === 'fast warm' || path === 'fast warm idb',
          clearCache: path === 'fast cold',
          cacheMemory: path !== 'fast warm idb',
        }
        const r = await page.evaluate(
          (msg) =>
            new Promise<any>((resolve, reject) => {
              const w = (globalThis as any).__bench
              const t0 = performance.now()
              let done: any = null
              w.onmessage = (ev: any) => {
                const m = ev.data
                // The report comes right after the answer (src/worker/protocol.ts).
                if (m.type === 'done') done = { replayMs: m.replayMs, wallMs: performance.now() - t0, verify: m.verify }
                else if (m.type === 'report' && done) resolve({ ...done, report: m.report })
                else if (m.type === 'failed' || m.type === 'input-error') reject(new Error(JSON.stringify(m)))
              }
              w.postMessage(msg)
            }),
          msg,
        )
        clearInterval(sampler)
        return { path, ...r, peakRssMiB: Math.round(peak / 1024), cpuMs: ((await rendererCpuS()) - cpu0) * 1000 }
      }
      const runs: Run[] = []
      let id = 10
      // Cold: the first replay after the worker started (it starts its verification pool at
      // once, as the app's does at load), no verdict cache: the pool's start-up is in it.
      runs.push(await once('fast first', id++))
      for (let round = 0; round < rounds; round++) {
        runs.push(await once('plain', id++))
        runs.push(await once('fast', id++))
        runs.push(await once('fast cold', id++))
        runs.push(await once('fast warm', id++))
        runs.push(await once('fast warm idb', id++))
      }
      // Cold after the start has settled, as in the app: it starts its replay worker when it
      // loads, and a user opens a log later. A new replay worker each time, settled before the
      // log is opened, then replayed once: on the fast path ('fast first settled'), or on the
      // plain path ('plain first settled': noble as cold as the fast path is, the fair
      // baseline of a cold replay). In pairs, fast then plain, so each ratio compares two
      // runs a few seconds apart.
      let settled: any
      const coldPairs: number[] = []
      for (let round = 0; round < rounds; round++) {
        const s = await startWorker(`bench-replay-fast-${round}`, true)
        settled ??= s
        const fast = await once('fast first settled', id++)
        await startWorker(`bench-replay-plain-${round}`, true)
        const plainCold = await once('plain first settled', id++)
        runs.push(fast, plainCold)
        coldPairs.push(plainCold.replayMs / fast.replayMs)
      }
      // Identical verdicts: every run gives the plain report.
      for (const r of runs) expect(r.report, `${r.path}: same report as the plain replay`).toBe(runs[0]!.report)
      const best = (p: Run['path']) => runs.filter((r) => r.path === p).sort((a, b) => a.replayMs - b.replayMs)[0]!
      const plain = best('plain')
      const row = (r: Run) => ({
        ms: Math.round(r.replayMs),
        ratio: +(plain.replayMs / r.replayMs).toFixed(2),
        signatures_per_s: Math.round((sigs / r.replayMs) * 1000),
        renderer_cpu_ms: Math.round(r.cpuMs ?? 0),
        outside_verification_share: +((r.replayMs - r.verify.waitMs) / r.replayMs).toFixed(3),
        peak_renderer_rss_mib: r.peakRssMiB,
        workers: r.verify.live,
        workers_ready: r.verify.ready,
        remote: r.verify.remote,
        local: r.verify.local,
        cached: r.verify.cached,
        worker_busy_ms: Math.round(r.verify.workerMs),
        wait_ms: Math.round(r.verify.waitMs),
        backends: [...new Set(r.verify.backends)].join(',') || (r.path.startsWith('plain') ? 'noble' : ''),
        failures: r.verify.failures,
        primitives_in_workers: perCall(r.verify.timings?.workers),
        primitives_on_replay_thread: perCall(r.verify.timings?.local),
      })
      const figures = {
        updates: n,
        signatures: sigs,
        rounds,
        cores: availableParallelism(),
        hardware_concurrency: await page.evaluate(() => navigator.hardwareConcurrency),
        load_average: loadavg()[0]!.toFixed(1),
        plain: row(plain),
        // The app's first replay after load, per round (above): its time, the ratio to the best
        // plain replay, when it ended after the navigation, and how it was verified.
        app_first_after_load: appFirst.map((a) => ({
          ms: Math.round(a.replayMs),
          ratio: +(plain.replayMs / a.replayMs).toFixed(2),
          ended_after_navigation_ms: Math.round(a.endedAfterLoadMs),
          // After the replay: the steps converted and posted to the page, which the answer waits for.
          steps_ms: Math.round(a.detail.stepsMs),
          workers_ready: `${a.detail.ready}/${a.detail.workers}`,
          remote: a.detail.remote,
          local: a.detail.local,
          cached: a.detail.cached,
          backends: a.detail.backends.join(','),
        })),
        // The harshest case: a second replay worker beside the app's, the log posted the moment it is created.
        fast_first_after_load: row(best('fast first')),
        worker_startup_ms: (best('fast first').verify.startupMs ?? []).map(Math.round),
        fast_first_settled: row(best('fast first settled')),
        // Cold against cold: each settled fast replay against the settled plain replay of a
        // fresh worker right after it (noble's code as cold as the fast path's); the median.
        plain_first_settled: row(best('plain first settled')),
        cold_vs_cold_ratio: {
          median: +[...coldPairs].sort((a, b) => a - b)[(coldPairs.length - 1) >> 1]!.toFixed(2),
          pairs: coldPairs.map((r) => +r.toFixed(2)),
        },
        // The second replay worker: its pool's workers ready (new Worker of the replay worker →
        // the 'pool' message saying all are ready), each worker's start as the replay
        // thread read it, and what each worker and the replay thread said of their start.
        settled_start: {
          pool_ready_after_ms: Math.round(settled.readyAt),
          warm_after_ms: Math.round(settled.settledAt),
          worker_startup_ms: settled.startupMs.map(Math.round),
          workers: settled.backends,
          replay_thread: settled.warmUp,
        },
        fast_no_cache: row(best('fast')),
        fast_cold: row(best('fast cold')),
        fast_warm: row(best('fast warm')),
        fast_warm_indexeddb_only: row(best('fast warm idb')),
        // Every run in order: the first fast run pays the pool's start (workers loading the fast backend).
        all_ms: runs.map(
          (r) =>
            `${r.path} ${Math.round(r.replayMs)}${r.path.startsWith('plain') ? '' : ` (${r.verify.ready}/${r.verify.workers} workers ready)`}`,
        ),
      }
      console.log(`verify-bench chromium ${JSON.stringify(figures)}`)
      info.annotations.push({ type: 'figures', description: JSON.stringify(figures) })
      await info.attach('verify-bench.json', {
        body: JSON.stringify(figures, null, 2),
        contentType: 'application/json',
      })
      expect(best('fast cold').verify.failures, 'no verification worker failed').toEqual([])
    })
  }
})
