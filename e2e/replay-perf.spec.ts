/**
 * Replay speed and feel in headless Chromium: a valid synthetic log of N updates
 * (e2e/synthetic-log.ts; N = INSPECTOR_PERF_UPDATES, default 1,000 under `npm test`,
 * 10,000 for the figures) is opened as a file. While the worker replays it, a
 * PerformanceObserver('longtask') records every main-thread task over 50 ms. Time to shown:
 * from choosing the file until the timeline shows all its updates and no replay runs (under
 * `npm run bench`, of an open in a fresh context with no tracer attached first). Then
 * stepping: STEP_PRESSES real key presses (arrows, j/k), each timed by the Event Timing API
 * (PerformanceObserver type 'event', durationThreshold 16: a keydown's duration runs from
 * the press to the next paint after its handlers), on this log and on a 256-update one.
 * Reopen: the page reloaded and the same file opened again (its verdicts read from IndexedDB).
 *
 * Under `npm test` the spec checks behaviour only (progress bar, every update applied,
 * stepping moves the selection). Under `npm run bench` (INSPECTOR_PERF_BENCH=1) the figures
 * are printed beside their targets and the load average; the long-task bound (none over
 * 100 ms during the replay) is asserted there.
 */
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs'
import { basename, join } from 'node:path'
import { availableParallelism, loadavg } from 'node:os'
import type { Browser } from '@playwright/test'
import { PHASE_AFTER, READ_MARK } from '../src/app/trace/phase-switch'
import { expect, guardContext, test } from './fixtures'
import {
  benchTarget,
  type OpenClock,
  openClock,
  paintedSignal,
  pressAndSee,
  shot,
  summary,
  syntheticLogFile,
  timedFileOpen,
  type TraceEvent,
  waitForLog,
} from './helpers'

// Code inside page.evaluate runs in the page; tsconfig.node.json (which checks e2e/) has no DOM lib.
declare const window: any,
  document: any,
  PerformanceObserver: any,
  MutationObserver: any,
  KeyboardEvent: any,
  requestAnimationFrame: any

// Playwright's own trace recorder (the config's trace: 'retain-on-failure') snapshots the
// page's DOM in its main thread at every action: tens of ms per key press that would be
// counted as the app's. Off here, so the figures are the app's.
// A console error (a failed worker, a failed chunk) makes a run's figures no figures.
test.use({ trace: 'off', consoleErrors: true })

const N = Number(process.env.INSPECTOR_PERF_UPDATES ?? 1000)
const TIMED = process.env.INSPECTOR_PERF_BENCH === '1'

/** The log file (generated once, cached): opened by path, so Chromium reads it natively. */
async function logOf(n: number): Promise<{ file: string; size: number }> {
  const file = await syntheticLogFile(n)
  return { file, size: readFileSync(file).length }
}

/** The app's user-timing mark once the open log's state checkpoints are built (src/app/trace/useInspector.ts). */
const CHECKPOINTS = 'inspector: checkpoints'

/** Forgets the checkpoints mark of the log open before (call before opening the next one). */
async function forgetCheckpoints(page: import('@playwright/test').Page): Promise<void> {
  await page.evaluate((m) => performance.clearMarks(m), CHECKPOINTS)
}

/**
 * Waits until the state checkpoints the app builds in idle time after a load are all built
 * (its mark), then until the page's main thread is idle: an idle callback with most of a
 * frame to spare.
 */
async function idle(page: import('@playwright/test').Page): Promise<void> {
  await page.waitForFunction((m) => performance.getEntriesByName(m, 'mark').length > 0, CHECKPOINTS, {
    polling: 100,
    timeout: 120_000,
  })
  await page.waitForFunction(
    () =>
      new Promise<boolean>((resolve) =>
        (window as { requestIdleCallback: (f: (d: { timeRemaining(): number }) => void) => void }).requestIdleCallback(
          (d) => resolve(d.timeRemaining() >= 40),
        ),
      ),
    null,
    { timeout: 60_000 },
  )
}

test(`a ${N.toLocaleString('en')}-update log replays in the worker with a progress bar and steps by key (timing bounds under npm run bench)`, async ({
  page,
  browser: chromium,
  baseURL,
}, info) => {
  test.setTimeout(Math.max(120_000, N * (TIMED ? 90 : 60)))
  const log = await logOf(N)
  // The figure: an open with no tracer attached (the traced one below is for its tasks' CPU).
  const untracedMs = TIMED ? await untracedOpenMs(chromium, baseURL!, log.file, N) : null
  await page.addInitScript(openClock, basename(log.file))
  const painted = await paintedSignal(page)
  await page.addInitScript(() => {
    const w = window as unknown as { __long: { start: number; duration: number }[] }
    w.__long = []
    new PerformanceObserver((list: any) => {
      for (const e of list.getEntries() as { startTime: number; duration: number }[])
        w.__long.push({ start: e.startTime, duration: e.duration })
    }).observe({ type: 'longtask', buffered: true })
  })
  // When the busy bar first says "Replaying n of N", and whether its progress bar was there:
  // a MutationObserver's cheap check, so nothing polls the page while it is measured.
  await page.addInitScript(() => {
    const w = window as unknown as { __replaying: { bar: boolean } | null }
    w.__replaying = null
    new MutationObserver((_: unknown, observer: { disconnect(): void }) => {
      const busy = document.querySelector('.busy')
      if (!busy || !/Replaying [\d,]+ of [\d,]+ updates/.test(busy.textContent ?? '')) return
      w.__replaying = { bar: !!busy.querySelector('progress[aria-label="Replay progress"]') }
      observer.disconnect()
    }).observe(document, { subtree: true, childList: true, characterData: true })
  })
  await page.goto('/')
  await waitForLog(page)
  await page.getByRole('button', { name: 'Open log…' }).click()
  // Also trace the renderer: a task's thread time (CPU) is what the page itself spent,
  // unlike its wall time, which a machine busy with other work stretches.
  const browser = page.context().browser()!
  await browser.startTracing(page, { categories: ['devtools.timeline', 'disabled-by-default-devtools.timeline'] })
  await forgetCheckpoints(page)
  const t0 = await page.evaluate(() => performance.now())
  await page.getByLabel('Open a log file').setInputFiles(log.file)
  // Cheap predicates only while measuring: Playwright's locator polling runs in the
  // page's main thread and, over a large DOM, would itself show up as long tasks.
  await shown(page, N, 250)
  const { chosen: t0Open, painted: t1Open } = await openTimes(page)
  const t1 = await page.evaluate(() => performance.now())
  const cpu = mainThreadTasks(JSON.parse((await browser.stopTracing()).toString('utf8')))
  // The bar says "Replaying" PHASE_AFTER ms after the read, or sooner at the replay's first
  // progress message (src/app/trace/phase-switch.ts). A log shown well after that must have
  // shown it, with its progress bar; one shown sooner (a fast machine at 1,000 updates) need not.
  const replaying = await page.evaluate(() => (window as { __replaying: { bar: boolean } | null }).__replaying)
  const read = await page.evaluate((m) => performance.getEntriesByName(m, 'mark').at(-1)?.startTime ?? null, READ_MARK)
  expect(read, `the app's ${READ_MARK} mark`).not.toBeNull()
  if (t1Open - read! > PHASE_AFTER + 500) {
    expect(
      replaying,
      `"Replaying" in the busy bar, the log shown ${Math.round(t1Open - read!)} ms after its read`,
    ).not.toBeNull()
    expect(replaying!.bar, 'a progress bar while the worker replays').toBe(true)
  } else
    info.annotations.push({
      type: 'progress',
      description: `shown ${Math.round(t1Open - read!)} ms after its read: no "Replaying" expected`,
    })
  await waitForLog(page)
  await expect(page.getByText('every update applies')).toBeVisible()
  await expect(page.locator('.timeline-head')).toContainText(`${N.toLocaleString('en')} updates`)
  // The replay's user-timing measure (src/app/trace/replay-client.ts REPLAY_MEASURE): the
  // latest replay only, with the worker's replay time and how its updates were verified.
  const measures = await page.evaluate(() =>
    performance
      .getEntriesByName('inspector: replay', 'measure')
      .map((e: any) => ({ duration: e.duration as number, detail: e.detail })),
  )
  expect(measures, 'one measure: the latest replay').toHaveLength(1)
  const [measure] = measures
  expect(measure!.detail).toMatchObject({ file: `synthetic-${N}.json`, updates: N, engine: 'fast' })
  expect(measure!.detail.replayMs).toBeCloseTo(measure!.duration, 1)
  expect(measure!.detail.remote + measure!.detail.local + measure!.detail.cached, 'every update verified once').toBe(N)
  // The steps' conversion and posting left after the replay: a timing, reported, not bounded
  // (the steps go to the page while the replay runs, so what is left can take under the
  // worker clock's 0.1 ms resolution and read 0).
  expect(measure!.detail.stepsMs, "the steps' conversion and posting after the replay").toBeGreaterThanOrEqual(0)
  const long = await page.evaluate(
    ([a, b]) =>
      (window as unknown as { __long: { start: number; duration: number }[] }).__long.filter(
        (e) => e.start >= a! && e.start <= b!,
      ),
    [t0, t1],
  )
  const longest = Math.max(0, ...long.map((e) => e.duration))

  // Stepping, once the state checkpoints built in idle time after the load are done.
  await idle(page)
  const steps = await stepTimes(page)
  await expect(summary(page)).toContainText('sequence id')
  // A 5-character filter, one keystroke at a time: from the key press until the list
  // shows the filter (the timeline's data-filter, set when its render commits). Figures
  // only (npm run bench), no bound asserted: the machine is shared.
  const filterMs: number[] = []
  const typed = '0x1f3'
  await page.getByRole('searchbox', { name: /Filter by member or handle/ }).focus()
  for (let c = 1; c <= typed.length; c++) {
    const t = await page.evaluate(() => performance.now())
    await page.keyboard.press(typed[c - 1]!)
    await page.waitForFunction(
      (v) => document.querySelector('.timeline')?.getAttribute('data-filter') === v,
      typed.slice(0, c),
      {
        polling: 'raf',
      },
    )
    filterMs.push((await page.evaluate(() => performance.now())) - t)
  }
  // Reopen: a reload, then the same file again; its verdicts come from IndexedDB.
  await page.reload()
  await waitForLog(page)
  await page.getByRole('button', { name: 'Open log…' }).click()
  const reopen = await timedFileOpen(page, painted)
  await reopen(log.file)
  await shown(page, N, 50)
  const reopened_ = await openTimes(page)
  const reopenMs = reopened_.painted - reopened_.chosen
  const reopened = await page.evaluate(
    () => performance.getEntriesByName('inspector: replay', 'measure').map((e: any) => e.detail)[0],
  )
  expect(reopened.remote + reopened.local + reopened.cached, 'every update verified once on reopen').toBe(N)
  const figures = {
    updates: N,
    bytes: log.size,
    load_ms: Math.round(untracedMs ?? t1Open - t0Open),
    load_ms_traced: Math.round(t1Open - t0Open),
    reopen_ms: Math.round(reopenMs),
    reopen_cached: reopened.cached,
    longest_main_thread_task_ms: Math.round(longest),
    long_tasks_over_50ms: long.length,
    longest_main_thread_task_cpu_ms: Math.round(cpu.longestCpu),
    longest_main_thread_task_wall_ms_traced: Math.round(cpu.longestWall),
    load_average: loadavg()[0]!.toFixed(1),
    cores: availableParallelism(),
    steps,
    filter_keystroke_ms: filterMs.map(Math.round),
    filter_keystroke_ms_max: Math.round(Math.max(...filterMs)),
  }
  console.log(`replay-perf ${JSON.stringify(figures)}`)
  const load = `load average ${figures.load_average}`
  console.log(
    `replay-perf target: ${N}-update file open to shown ${figures.load_ms} ms (target under 3000 ms; ${load})`,
  )
  console.log(`replay-perf target: ${N}-update reopen to shown ${figures.reopen_ms} ms (${load})`)
  // The 3 s target is the 10,000-update log's (the 256-update one's is e2e/open-bench.spec.ts's row).
  if (N === 10_000)
    benchTarget({
      name: `${N}-update log opened from a file, shown`,
      value: figures.load_ms,
      unit: 'ms',
      target: '≤ 3000',
      met: figures.load_ms <= 3000,
      detail: `untraced; ${figures.load_ms_traced} ms with Chromium's tracer attached`,
    })
  benchTarget({
    name: `${N}-update log reopened (verdicts stored), shown`,
    value: figures.reopen_ms,
    unit: 'ms',
    target: '< its first open',
    met: figures.reopen_ms < figures.load_ms,
    detail: `${figures.reopen_cached} of ${N} updates answered from the store`,
  })
  printSteps(N, steps)
  info.annotations.push({ type: 'figures', description: JSON.stringify(figures) })
  await info.attach('figures.json', { body: JSON.stringify(figures, null, 2), contentType: 'application/json' })
  await shot(page, info, `perf-${N}`)
  // The bound is on wall time (PerformanceObserver), as a person feels it; on a machine
  // loaded past its cores the bound applies to the tasks' CPU time instead (annotated).
  const overloaded = loadavg()[0]! > availableParallelism()
  if (overloaded)
    info.annotations.push({
      type: 'overloaded',
      description: `load average ${loadavg()[0]!.toFixed(1)} on ${availableParallelism()} cores: wall-clock long tasks reported, CPU time asserted`,
    })
  if (!TIMED) return
  expect(cpu.longestCpu, 'longest main-thread task during the replay, CPU time (ms)').toBeLessThanOrEqual(100)
  if (!overloaded)
    expect(
      longest,
      `longest main-thread task during the replay (ms); all: ${JSON.stringify(long)}`,
    ).toBeLessThanOrEqual(100)
})

test('stepping a 256-update log, each key press timed to the next paint (figures under npm run bench)', async ({
  page,
}) => {
  test.setTimeout(300_000)
  const log = await logOf(256)
  await page.goto('/')
  await waitForLog(page)
  await page.getByRole('button', { name: 'Open log…' }).click()
  await forgetCheckpoints(page)
  await page.getByLabel('Open a log file').setInputFiles(log.file)
  await shown(page, 256, 50)
  await idle(page)
  const steps = await stepTimes(page)
  expect(steps.presses).toBe(STEP_PRESSES)
  printSteps(256, steps)
})

test('a replay can be cancelled; the log shown before stays open and usable', async ({ page }) => {
  test.setTimeout(120_000)
  const log = await logOf(1000)
  await page.goto('/')
  await waitForLog(page)
  await page.getByRole('button', { name: 'Open log…' }).click()
  await page.getByLabel('Open a log file').setInputFiles(log.file)
  await page.getByRole('button', { name: 'Cancel replay' }).click()
  await expect(page.getByRole('status').filter({ hasText: 'Stopped reading file synthetic-1000.json' })).toBeVisible()
  await expect(page.getByText('example valid-full-life')).toBeVisible()
  await expect(page.getByRole('progressbar', { name: 'Replay progress' })).toHaveCount(0)
  await page.getByRole('listbox', { name: /Updates and their actions/ }).focus()
  await pressAndSee(page, 'End', 'sequence id 13')
})

/**
 * From choosing the file (the input's change event) to the frame after the log shown
 * (./helpers.ts openClock), with no tracer attached: Chromium's tracer costs
 * the renderer and the workers time on every task (a 10,000-update open took 3.02–3.28 s
 * traced against 2.82–2.84 s untraced, alternating, load 0.6–1.5). A fresh context (its own
 * IndexedDB: no stored verdicts), the page loaded and its demo shown first, as in the test.
 */
async function untracedOpenMs(chromium: Browser, baseURL: string, file: string, n: number): Promise<number> {
  const context = await chromium.newContext({ baseURL })
  try {
    // Kept on this machine and failed on a page or console error, as this spec's test context is (./fixtures.ts).
    const guard = await guardContext(context, { consoleErrors: true })
    await context.addInitScript(openClock, basename(file))
    const signal = await paintedSignal(context)
    const page = await context.newPage()
    await page.goto('/')
    await waitForLog(page)
    await page.getByRole('button', { name: 'Open log…' }).click()
    // Nothing of the bench's runs in the page while the open is timed (timedFileOpen).
    const open = await timedFileOpen(page, signal)
    await open(file)
    await shown(page, n, 250)
    const { chosen, painted } = await openTimes(page)
    guard.check()
    return painted - chosen
  } finally {
    await context.close()
  }
}

/**
 * The open just shown, by the page's own clock (./helpers.ts openClock): from the file
 * chosen to the frame after the log was shown, exact to a frame however often `shown` polls.
 */
async function openTimes(page: import('@playwright/test').Page): Promise<OpenClock> {
  const h = await page.waitForFunction(() => (window.__bench?.painted ? window.__bench : null), null, { polling: 50 })
  return (await h.jsonValue()) as OpenClock
}

/** Waits (cheap predicate, polled every `polling` ms) until no replay runs and the timeline shows all `n` updates. */
async function shown(page: import('@playwright/test').Page, n: number, polling: number): Promise<void> {
  await page.waitForFunction(
    (head) =>
      !document.querySelector('.busy') && (document.querySelector('.timeline-head')?.textContent ?? '').includes(head),
    `· ${n.toLocaleString('en')} updates`,
    { polling, timeout: Math.max(60_000, n * 50) },
  )
}

const STEP_PRESSES = 40
/**
 * Key presses start this far apart: a press's own work (its render, and what it schedules
 * after the paint) ends before the next press, so each figure is one press's, not the
 * spill of the one before.
 */
const PRESS_GAP_MS = 200

interface StepFigures {
  readonly presses: number
  /** Key presses whose keydown took more than 16 ms to the next paint (Event Timing). */
  readonly over_16ms: number
  /** null: the median press stayed under the observer's 16 ms threshold. */
  readonly median_ms: number | null
  readonly worst_ms: number | null
  /**
   * The same presses' durations to the next paint in whole milliseconds, as Chromium's
   * tracer reports them (its interaction events, not rounded to 8 ms as the Event Timing
   * API's are; the tracer's own cost is in them): how many presses have one, over 16 ms,
   * median, 9 in 10 within, worst (null: no press has one).
   */
  readonly exact_presses: number
  readonly exact_over_16ms: number
  readonly exact_median_ms: number | null
  readonly exact_p90_ms: number | null
  readonly exact_worst_ms: number | null
  /** The same presses by main-thread CPU time (traced): over 16 ms, median, worst. */
  readonly cpu_over_16ms: number
  readonly cpu_median_ms: number
  readonly cpu_worst_ms: number
  /** Presses during which the page's workers used more than 2 ms of CPU, and their CPU then (ms). */
  readonly worker_busy_presses: number
  readonly worker_cpu_ms: number
  readonly load_average: string
}

/**
 * STEP_PRESSES real key presses on the focused timeline (arrows and j/k, down then up),
 * PRESS_GAP_MS apart, each waiting until the selected step's summary changes, then for the
 * frame after; user-timing marks `perf-step-i-start`/`-end` bound each press for a trace.
 */
async function pressSteps(page: import('@playwright/test').Page): Promise<void> {
  const keys = ['ArrowDown', 'j', 'ArrowDown', 'j', 'ArrowDown', 'k', 'ArrowUp', 'k']
  for (let n = 0; n < STEP_PRESSES; n++) {
    const pressed = Date.now()
    const before = await page.evaluate((i) => {
      performance.mark(`perf-step-${i}-start`)
      return document.querySelector('.step-summary')?.textContent ?? ''
    }, n)
    await page.keyboard.press(keys[n % keys.length]!)
    await page.waitForFunction((b) => (document.querySelector('.step-summary')?.textContent ?? '') !== b, before, {
      polling: 'raf',
    })
    await page.evaluate(
      (i) =>
        new Promise<void>((resolve) =>
          requestAnimationFrame(() => {
            performance.mark(`perf-step-${i}-end`)
            resolve()
          }),
        ),
      n,
    )
    await page.waitForTimeout(Math.max(0, PRESS_GAP_MS - (Date.now() - pressed)))
  }
}

/**
 * Two frames and 50 ms more: what a frame's paint queues (Event Timing entries, Chromium's
 * interaction records) has been queued.
 */
async function presented(page: import('@playwright/test').Page): Promise<void> {
  await page.evaluate(
    () =>
      new Promise<void>((resolve) => requestAnimationFrame(() => requestAnimationFrame(() => setTimeout(resolve, 50)))),
  )
}

/**
 * Two passes of presses (`pressSteps`): the first untimed by the tracer, where the Event
 * Timing API reports every keydown whose duration (press to the next paint after its
 * handlers, in 8 ms steps) is 16 ms or more (the presses it does not report took less); the
 * second traced, for each press's main-thread CPU.
 */
async function stepTimes(page: import('@playwright/test').Page): Promise<StepFigures> {
  await page.getByRole('listbox', { name: /Updates and their actions/ }).focus()
  // First pass, untraced: the Event Timing API's durations, what a user gets. Chromium's
  // tracer itself costs the renderer time on every frame (in one run, 5 and 7 of 40
  // presses over 16 ms untraced against 11 and 19 traced, load 0.9–1.4).
  await page.evaluate(() => {
    const w = window as { __events: { name: string; duration: number }[]; __eventObserver: any }
    w.__events = []
    w.__eventObserver = new PerformanceObserver((list: any) => {
      for (const e of list.getEntries()) w.__events.push({ name: e.name, duration: e.duration })
    })
    w.__eventObserver.observe({ type: 'event', durationThreshold: 16 })
  })
  await pressSteps(page)
  // Entries are queued after the paint that follows each event: two frames, then take what is left.
  await presented(page)
  const durations = await page.evaluate(() => {
    const w = window as { __events: { name: string; duration: number }[]; __eventObserver: any }
    for (const e of w.__eventObserver.takeRecords()) w.__events.push({ name: e.name, duration: e.duration })
    w.__eventObserver.disconnect()
    return w.__events.filter((e) => e.name === 'keydown').map((e) => e.duration)
  })
  // Second pass, traced: each press's main-thread CPU time, which a machine busy with other
  // work does not stretch as it stretches the wall time the Event Timing API reports.
  const browser = page.context().browser()!
  // INSPECTOR_PERF_CATEGORIES: more of the tracer's categories, comma-separated (say
  // disabled-by-default-v8.cpu_profiler for a JavaScript profile in the kept trace).
  const more = process.env.INSPECTOR_PERF_CATEGORIES?.split(',').filter(Boolean) ?? []
  await browser.startTracing(page, {
    categories: ['devtools.timeline', 'disabled-by-default-devtools.timeline', 'blink.user_timing', ...more],
  })
  await pressSteps(page)
  // Chromium records an interaction once its frame is presented: so the last press's record is in the trace.
  await presented(page)
  const traced = (await browser.stopTracing()).toString('utf8')
  // INSPECTOR_PERF_TRACE=dir: the stepping's Chromium trace kept there (DevTools' Performance panel loads it).
  if (process.env.INSPECTOR_PERF_TRACE) {
    const log = (await page.locator('.timeline-head').textContent())?.match(/([\d,]+) updates/)?.[1]?.replace(/,/g, '')
    mkdirSync(process.env.INSPECTOR_PERF_TRACE, { recursive: true })
    writeFileSync(join(process.env.INSPECTOR_PERF_TRACE, `steps-${log ?? 'log'}.json`), traced)
  }
  const trace = JSON.parse(traced)
  const cpu = stepCpuMs(trace, STEP_PRESSES)
  const exact = pressDurationsMs(trace, STEP_PRESSES).filter((d): d is number => d !== null)
  // The page's workers meanwhile (the replay worker stores a log's verdicts after its answer):
  // on a machine of two cores their work competes with the press's.
  const workers = stepCpuMs(trace, STEP_PRESSES, 'DedicatedWorker thread')
  // The unreported presses count as under 16 ms (0 here) for the median.
  const all = [...durations, ...new Array(Math.max(0, STEP_PRESSES - durations.length)).fill(0)]
  const mid = median(all)
  return {
    presses: STEP_PRESSES,
    over_16ms: durations.filter((d) => d > 16).length,
    median_ms: mid >= 16 ? mid : null,
    worst_ms: durations.length ? Math.max(...durations) : null,
    exact_presses: exact.length,
    exact_over_16ms: exact.filter((d) => d > 16).length,
    exact_median_ms: exact.length ? median(exact) : null,
    exact_p90_ms: exact.length ? [...exact].sort((a, b) => a - b)[Math.floor(exact.length * 0.9)]! : null,
    exact_worst_ms: exact.length ? Math.max(...exact) : null,
    cpu_over_16ms: cpu.filter((c) => c > 16).length,
    cpu_median_ms: Math.round(median(cpu) * 10) / 10,
    cpu_worst_ms: Math.round(Math.max(...cpu) * 10) / 10,
    worker_busy_presses: workers.filter((c) => c > 2).length,
    worker_cpu_ms: Math.round(workers.reduce((a, b) => a + b, 0)),
    load_average: loadavg()[0]!.toFixed(1),
  }
}

/** The trace times of pressSteps' user-timing marks (`perf-step-i-start`, `-end`), the first of each name. */
function stepMarks(trace: { traceEvents: TraceEvent[] }): Map<string, number> {
  const mark = new Map<string, number>()
  for (const e of trace.traceEvents) if (e.name.startsWith('perf-step-') && !mark.has(e.name)) mark.set(e.name, e.ts)
  return mark
}

/**
 * The main-thread CPU time of each press: the thread time of the renderer's tasks that
 * overlap its user-timing marks (perf-step-i-start .. perf-step-i-end, the frame after
 * the step showed), in ms; the test's own polling in those tasks counts too. `thread`:
 * the same for the page's other threads of that name (its workers: 'DedicatedWorker thread').
 */
function stepCpuMs(trace: { traceEvents: TraceEvent[] }, steps: number, thread = 'CrRendererMain'): number[] {
  const main = new Set(
    trace.traceEvents
      .filter((e) => e.name === 'thread_name' && e.args?.name === thread)
      .map((e) => `${e.pid}:${e.tid}`),
  )
  const mark = stepMarks(trace)
  const tasks = trace.traceEvents.filter((e) => e.name === 'RunTask' && e.ph === 'X' && main.has(`${e.pid}:${e.tid}`))
  return Array.from({ length: steps }, (_, i) => {
    const a = mark.get(`perf-step-${i}-start`)
    const b = mark.get(`perf-step-${i}-end`)
    if (a === undefined || b === undefined) throw new Error(`step ${i}: its marks are missing from the trace`)
    const inside = tasks.filter((t) => t.ts < b && t.ts + (t.dur ?? 0) > a)
    if (inside.length === 0 && thread === 'CrRendererMain')
      throw new Error(`step ${i}: no main-thread task between its marks in the trace`)
    return inside.reduce((k, t) => k + (t.tdur ?? 0), 0) / 1000
  })
}

/**
 * Each press's duration from the key press to the next paint, in whole ms: the largest
 * `Responsiveness.Renderer.UserInteraction` (Chromium's own record of a keyboard
 * interaction, its maxDuration unrounded) from the press's start mark to the next press's;
 * null for a press with no record in the trace.
 */
function pressDurationsMs(trace: { traceEvents: TraceEvent[] }, steps: number): (number | null)[] {
  const mark = stepMarks(trace)
  const interactions = trace.traceEvents.filter(
    (e) => e.name === 'Responsiveness.Renderer.UserInteraction' && typeof e.args?.data?.maxDuration === 'number',
  )
  return Array.from({ length: steps }, (_, i) => {
    const a = mark.get(`perf-step-${i}-start`)!
    const b = mark.get(`perf-step-${i + 1}-start`) ?? Number.POSITIVE_INFINITY
    const own = interactions.filter((e) => e.ts >= a && e.ts < b).map((e) => e.args!.data!.maxDuration!)
    return own.length ? Math.max(...own) : null
  })
}

function printSteps(n: number, s: StepFigures): void {
  const ms = (v: number | null) => (v === null ? 'under 16 ms' : `${v} ms`)
  const exact =
    s.exact_presses === 0
      ? 'no press recorded'
      : `${s.exact_over_16ms} over 16 ms, median ${s.exact_median_ms} ms, 9 in 10 within ${s.exact_p90_ms} ms, worst ${s.exact_worst_ms} ms${s.exact_presses < s.presses ? ` (${s.exact_presses} of ${s.presses} presses recorded)` : ''}`
  benchTarget({
    name: `${n}-update log, key presses over 16 ms to the next paint`,
    value: s.over_16ms,
    unit: `of ${s.presses}`,
    target: '0',
    met: s.over_16ms === 0,
    detail: `median ${ms(s.median_ms)}, worst ${ms(s.worst_ms)}; traced to the ms: ${exact}; main-thread CPU median ${s.cpu_median_ms} ms, worst ${s.cpu_worst_ms} ms`,
  })
  console.log(
    `replay-perf target: ${n}-update log, step to next paint: ${s.over_16ms} of ${s.presses} presses over 16 ms (target 0), median ${ms(s.median_ms)}, worst ${ms(s.worst_ms)} (target under 16 ms); traced, to the ms: ${exact}; main-thread CPU per press: ${s.cpu_over_16ms} over 16 ms, median ${s.cpu_median_ms} ms, worst ${s.cpu_worst_ms} ms; the page's workers busy during ${s.worker_busy_presses} presses (${s.worker_cpu_ms} ms of CPU) (load average ${s.load_average})`,
  )
}

const median = (xs: readonly number[]): number => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!

/** The page's main-thread tasks in a Chromium trace: longest by thread (CPU) time and by wall time, in ms. */
function mainThreadTasks(trace: { traceEvents: TraceEvent[] }): { longestCpu: number; longestWall: number } {
  const main = trace.traceEvents
    .filter((e) => e.name === 'thread_name' && e.args?.name === 'CrRendererMain')
    .map((e) => `${e.pid}:${e.tid}`)
  let longestCpu = 0
  let longestWall = 0
  for (const e of trace.traceEvents) {
    if (e.name !== 'RunTask' || e.ph !== 'X' || !main.includes(`${e.pid}:${e.tid}`)) continue
    longestCpu = Math.max(longestCpu, (e.tdur ?? 0) / 1000)
    longestWall = Math.max(longestWall, (e.dur ?? 0) / 1000)
  }
  return { longestCpu, longestWall }
}
