/**
 * Replay speed and feel in headless Chromium: a valid synthetic log of N updates
 * (e2e/synthetic-log.ts; N = INSPECTOR_PERF_UPDATES, default 1,000 under `npm test`,
 * 10,000 for the figures) is opened as a file. While the worker replays it, a
 * PerformanceObserver('longtask') records every main-thread task over 50 ms. Then stepping
 * (End, arrow keys, j/k) is timed from each key press to the next painted frame.
 *
 * Under `npm test` the spec checks behaviour only (progress bar, every update applied,
 * stepping moves the selection). The timing bounds (no main-thread task over 100 ms, median
 * step under 100 ms, none over 250 ms) are asserted only under `npm run bench`
 * (INSPECTOR_PERF_BENCH=1), where the figures are printed beside the load average.
 */
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs'
import { availableParallelism, loadavg } from 'node:os'
import { fileURLToPath } from 'node:url'
import { expect, test } from './fixtures'
import { summary, waitForLog, shot } from './helpers'
import { syntheticBundle } from './synthetic-log'

// Code inside page.evaluate runs in the page; tsconfig.node.json (which checks e2e/) has no DOM lib.
declare const window: any, document: any, PerformanceObserver: any, KeyboardEvent: any, requestAnimationFrame: any

const N = Number(process.env.INSPECTOR_PERF_UPDATES ?? 1000)
const TIMED = process.env.INSPECTOR_PERF_BENCH === '1'
const CACHE = fileURLToPath(new URL('../node_modules/.cache/inspector-e2e/', import.meta.url))

/** The log file (generated once, cached): opened by path, so Chromium reads it natively. */
async function logOf(n: number): Promise<{ file: string; size: number }> {
  const file = `${CACHE}synthetic-${n}.json`
  if (!existsSync(file)) {
    const text = await syntheticBundle(n)
    mkdirSync(CACHE, { recursive: true })
    writeFileSync(file, text)
  }
  return { file, size: readFileSync(file).length }
}

/**
 * Waits until the page's main thread is idle: an idle callback with most of a frame to
 * spare, so the state checkpoints built in idle time after a load are done.
 */
async function idle(page: import('@playwright/test').Page): Promise<void> {
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
}, info) => {
  test.setTimeout(Math.max(120_000, N * 60))
  const log = await logOf(N)
  await page.addInitScript(() => {
    const w = window as unknown as { __long: { start: number; duration: number }[] }
    w.__long = []
    new PerformanceObserver((list: any) => {
      for (const e of list.getEntries() as { startTime: number; duration: number }[])
        w.__long.push({ start: e.startTime, duration: e.duration })
    }).observe({ type: 'longtask', buffered: true })
  })
  await page.goto('/')
  await waitForLog(page)
  await page.getByRole('button', { name: 'Open log…' }).click()
  // Also trace the renderer: a task's thread time (CPU) is what the page itself spent,
  // unlike its wall time, which a machine busy with other work stretches.
  const browser = page.context().browser()!
  await browser.startTracing(page, { categories: ['devtools.timeline', 'disabled-by-default-devtools.timeline'] })
  const t0 = await page.evaluate(() => performance.now())
  await page.getByLabel('Open a log file').setInputFiles(log.file)
  // Cheap predicates only while measuring: Playwright's locator polling runs in the
  // page's main thread and, over a large DOM, would itself show up as long tasks.
  await page.waitForFunction(
    () => /Replaying [\d,]+ of [\d,]+ updates/.test(document.querySelector('.busy')?.textContent ?? ''),
    null,
    { polling: 50, timeout: 60_000 },
  )
  const sawProgress = await page.evaluate(() => !!document.querySelector('progress[aria-label="Replay progress"]'))
  await page.waitForFunction(
    (name) => !document.querySelector('.busy') && (document.querySelector('.source')?.textContent ?? '').includes(name),
    `file synthetic-${N}.json`,
    { polling: 250, timeout: N * 50 },
  )
  const t1 = await page.evaluate(() => performance.now())
  const cpu = mainThreadTasks(JSON.parse((await browser.stopTracing()).toString('utf8')))
  expect(sawProgress, 'a progress bar while the worker replays').toBe(true)
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
  expect(measure!.detail.stepsMs, "the steps' conversion and posting after the replay").toBeGreaterThan(0)
  const long = await page.evaluate(
    ([a, b]) =>
      (window as unknown as { __long: { start: number; duration: number }[] }).__long.filter(
        (e) => e.start >= a! && e.start <= b!,
      ),
    [t0, t1],
  )
  const longest = Math.max(0, ...long.map((e) => e.duration))

  // stepping, once the log has been open for two seconds (state checkpoints are built in
  // idle time after the load): End, then arrows and j/k. Traced too, for each step's
  // main-thread CPU time (user-timing marks bracket each step in the trace).
  const diag = process.env.INSPECTOR_PERF_TRACE
  await idle(page)
  await page.getByRole('listbox', { name: /Updates and their actions/ }).focus()
  await browser.startTracing(page, {
    categories: [
      'devtools.timeline',
      'disabled-by-default-devtools.timeline',
      'blink.user_timing',
      ...(diag ? ['v8'] : []),
    ],
  })
  const stepMs: number[] = []
  const keys = ['End', 'ArrowUp', 'k', 'k', 'Home', 'ArrowDown', 'j', 'j', 'PageDown', 'End', 'ArrowUp', 'ArrowUp']
  for (const [i, key] of keys.entries()) {
    const before = await summary(page).textContent()
    const ms = await page.evaluate(
      ([k, i]) =>
        new Promise<number>((resolve) => {
          performance.mark(`perf-step-${i}-start`)
          const start = performance.now()
          window.dispatchEvent(new KeyboardEvent('keydown', { key: k, bubbles: true }))
          requestAnimationFrame(() =>
            setTimeout(() => {
              performance.mark(`perf-step-${i}-end`)
              resolve(performance.now() - start)
            }, 0),
          )
        }),
      [key, i] as const,
    )
    stepMs.push(ms)
    await expect(summary(page)).not.toHaveText(before ?? '')
  }
  await expect(summary(page)).toContainText(`sequence id ${N - 2}`)
  const stepTrace = await browser.stopTracing()
  if (diag) writeFileSync(diag, stepTrace)
  const stepCpu = stepCpuMs(JSON.parse(stepTrace.toString('utf8')), keys.length)
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
  const figures = {
    updates: N,
    bytes: log.size,
    load_ms: Math.round(t1 - t0),
    longest_main_thread_task_ms: Math.round(longest),
    long_tasks_over_50ms: long.length,
    longest_main_thread_task_cpu_ms: Math.round(cpu.longestCpu),
    longest_main_thread_task_wall_ms_traced: Math.round(cpu.longestWall),
    load_average: loadavg()[0]!.toFixed(1),
    cores: availableParallelism(),
    step_ms_max: Math.round(Math.max(...stepMs)),
    step_ms_median: Math.round(median(stepMs)),
    step_cpu_ms_max: Math.round(Math.max(...stepCpu)),
    step_cpu_ms_median: Math.round(median(stepCpu)),
    filter_keystroke_ms: filterMs.map(Math.round),
    filter_keystroke_ms_max: Math.round(Math.max(...filterMs)),
  }
  console.log(`replay-perf ${JSON.stringify(figures)}`)
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
  // Instant: the median step (key press to the next painted frame) under 100 ms, none over 250 ms
  // (jumps such as End rebuild a far state). Like the long tasks above: wall time as a
  // person feels it, but on a machine loaded past its cores each step's main-thread CPU
  // time, since there a step's wall time is mostly time the renderer waited for a core.
  const steps = overloaded ? stepCpu : stepMs
  const what = `step ${overloaded ? 'CPU' : 'wall'} times (ms): ${steps.map(Math.round).join(', ')}; wall: ${stepMs.map(Math.round).join(', ')}`
  expect(median(steps), what).toBeLessThan(100)
  expect(Math.max(...steps), what).toBeLessThan(250)
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
  await page.keyboard.press('End')
  await expect(summary(page)).toContainText('sequence id 13')
})

const median = (xs: readonly number[]): number => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!

interface TraceEvent {
  readonly name: string
  readonly ph: string
  readonly pid: number
  readonly tid: number
  readonly ts: number
  readonly dur?: number
  readonly tdur?: number
  readonly args?: { readonly name?: string }
}

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

/**
 * The main-thread CPU time of each step: the thread time of the renderer's tasks that
 * overlap the step's user-timing marks (perf-step-i-start .. perf-step-i-end), in ms.
 */
function stepCpuMs(trace: { traceEvents: TraceEvent[] }, steps: number): number[] {
  const main = new Set(
    trace.traceEvents
      .filter((e) => e.name === 'thread_name' && e.args?.name === 'CrRendererMain')
      .map((e) => `${e.pid}:${e.tid}`),
  )
  const mark = new Map<string, number>()
  for (const e of trace.traceEvents) if (e.name.startsWith('perf-step-') && !mark.has(e.name)) mark.set(e.name, e.ts)
  const tasks = trace.traceEvents.filter((e) => e.name === 'RunTask' && e.ph === 'X' && main.has(`${e.pid}:${e.tid}`))
  return Array.from({ length: steps }, (_, i) => {
    const a = mark.get(`perf-step-${i}-start`)
    const b = mark.get(`perf-step-${i}-end`)
    if (a === undefined || b === undefined) throw new Error(`step ${i}: its marks are missing from the trace`)
    const inside = tasks.filter((t) => t.ts < b && t.ts + (t.dur ?? 0) > a)
    // The key's own task is always among them: none means the trace lacks what is measured.
    if (inside.length === 0) throw new Error(`step ${i}: no main-thread task between its marks in the trace`)
    return inside.reduce((k, t) => k + (t.tdur ?? 0), 0) / 1000
  })
}
