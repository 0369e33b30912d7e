/** Helpers of the inspector specs (the hermetic `test` itself is in ./fixtures.ts). */
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs'
import { loadavg } from 'node:os'
import { fileURLToPath } from 'node:url'
import type { BrowserContext, Page, TestInfo } from '@playwright/test'
import { expect } from './fixtures'
import { syntheticBundle } from './synthetic-log'

// Code inside page.evaluate / addInitScript runs in the page; tsconfig.node.json has no DOM lib.
declare const window: any, document: any, indexedDB: any, requestAnimationFrame: any, MutationObserver: any

const FIXTURES = fileURLToPath(new URL('../test/fixtures/', import.meta.url))

export function fixture(name: string): Buffer {
  return readFileSync(FIXTURES + name)
}

const SYNTHETIC_CACHE = fileURLToPath(new URL('../node_modules/.cache/inspector-e2e/', import.meta.url))

/** The path of the synthetic log of `n` updates as bundle JSON (./synthetic-log), generated once and cached. */
export async function syntheticLogFile(n: number): Promise<string> {
  const file = `${SYNTHETIC_CACHE}synthetic-${n}.json`
  if (!existsSync(file)) {
    const text = await syntheticBundle(n)
    mkdirSync(SYNTHETIC_CACHE, { recursive: true })
    writeFileSync(file, text)
  }
  return file
}

/** Waits until a log is open: the timeline shows rows and no replay is running. */
export async function waitForLog(page: Page): Promise<void> {
  await expect(
    page
      .getByRole('listbox', { name: /Updates and their actions/ })
      .getByRole('option')
      .first(),
  ).toBeVisible({ timeout: 30_000 })
  await expect(page.getByRole('progressbar', { name: 'Replay progress' })).toHaveCount(0, { timeout: 30_000 })
}

/** The window sizes the specs check: a desktop and a phone. */
export const DESKTOP = { width: 1440, height: 900 } as const
export const PHONE = { width: 390, height: 844 } as const

/** Opens the app at `path` in a window of `size` and waits for its log. */
export async function openLog(page: Page, size: { width: number; height: number }, path = '/'): Promise<void> {
  await page.setViewportSize(size)
  await page.goto(path)
  await waitForLog(page)
}

/** Opens `text` through the Open log panel's paste box (the result is not awaited: garbage shows an alert, a log replays). */
export async function pasteLog(page: Page, text: string): Promise<void> {
  await page.getByRole('button', { name: 'Open log…' }).click()
  await page.getByLabel(/^Paste:/).fill(text)
  await page.getByRole('button', { name: 'Open pasted log' }).click()
}

/** The selected step's summary line ("applied sequence id 2 · AddAssociation …"). */
export function summary(page: Page) {
  return page.locator('.step-summary')
}

/** Presses `key` (a timeline key) and waits for the selected step's summary to contain `text`. */
export async function pressAndSee(page: Page, key: string, text: string | RegExp): Promise<void> {
  await page.keyboard.press(key)
  await expect(summary(page)).toContainText(text)
}

/**
 * A `BENCH-TARGET` line: one figure beside its target (scripts/bench.mjs collects them into
 * its closing table), with the 1-minute load average now unless `load` names the one it was
 * measured at.
 */
export function benchTarget(t: {
  readonly name: string
  readonly value: number
  readonly unit: string
  readonly target: string
  readonly met: boolean
  readonly detail?: string
  readonly load?: string
}): void {
  console.log(`BENCH-TARGET ${JSON.stringify({ ...t, load: t.load ?? loadavg()[0]!.toFixed(1) })}`)
}

/** A full-page screenshot saved as a test artifact. */
export async function shot(page: Page, info: TestInfo, name: string): Promise<void> {
  const path = info.outputPath(`${name}.png`)
  await page.screenshot({ path, fullPage: true })
  await info.attach(name, { path, contentType: 'image/png' })
}

/** Records Content-Security-Policy violations (the built app ships a CSP). */
export async function watchCsp(page: Page): Promise<() => Promise<string[]>> {
  await page.addInitScript(() => {
    const w = window as unknown as { __csp: string[] }
    w.__csp = []
    document.addEventListener('securitypolicyviolation', (e: any) =>
      w.__csp.push(`${e.violatedDirective} ${e.blockedURI}`),
    )
  })
  return () => page.evaluate(() => (window as unknown as { __csp: string[] }).__csp)
}

/** The header's More menu (on a phone the header is one row: the other actions are in it), opened. */
export async function moreMenu(page: Page) {
  const header = page.locator('header.topbar')
  const menu = header.getByRole('menu', { name: 'More' })
  if (!(await menu.isVisible())) await header.getByRole('button', { name: 'More', exact: true }).click()
  await expect(menu).toBeVisible()
  return menu
}

/** A header action by its name: its button, or on a phone (where that is hidden) its item in the More menu. */
export async function headerAction(page: Page, name: string) {
  const button = page.locator('header.topbar').getByRole('button', { name, exact: true })
  if (await button.isVisible()) return button
  const menu = await moreMenu(page)
  return menu.getByRole('menuitem', { name, exact: true }).or(menu.getByRole('menuitemcheckbox', { name, exact: true }))
}

/** Opens the Settings dialog (header button, or More › Settings… on a phone) and returns it. */
export async function openSettings(page: Page) {
  await (await headerAction(page, 'Settings…')).click()
  const dialog = page.getByRole('dialog', { name: 'Settings' })
  await expect(dialog).toBeVisible()
  return dialog
}

/** The Open drawer's "From a node" section, the drawer opened first when it is closed. */
export async function fromNode(page: Page) {
  const section = page.getByRole('region', { name: 'From a node', exact: true })
  if ((await section.count()) === 0) await page.getByRole('button', { name: 'Open log…' }).click()
  await expect(section).toBeVisible()
  return section
}

/**
 * Fetches a log from a node as a person would: Open log… › From a node, the profile
 * (by its option label; the one chosen when omitted), Fetch by, the identifier, Fetch log.
 * Not awaited: the caller waits for the result or the error.
 */
export async function fetchFromNode(page: Page, by: string, identifier: string, profile?: string): Promise<void> {
  const section = await fromNode(page)
  if (profile) await section.getByRole('combobox', { name: 'Network profile' }).selectOption({ label: profile })
  await section.getByRole('combobox', { name: 'Fetch by' }).selectOption({ label: by })
  await section.getByRole('textbox', { name: 'Identifier to fetch' }).fill(identifier)
  await section.getByRole('button', { name: 'Fetch log' }).click()
}

/** Deletes every IndexedDB database of the page's origin (a returning user with no stored verdicts or logs). */
export async function clearIndexedDb(page: Page): Promise<void> {
  await page.evaluate(async () => {
    for (const db of await indexedDB.databases())
      if (db.name)
        await new Promise((resolve, reject) => {
          const r = indexedDB.deleteDatabase(db.name!)
          r.onsuccess = r.onblocked = resolve
          r.onerror = () => reject(r.error)
        })
  })
}

/** An event of a Chromium trace (`browser.startTracing`): `tdur` is the thread (CPU) time of an 'X' event, in µs. */
export interface TraceEvent {
  readonly name: string
  readonly ph: string
  readonly pid: number
  readonly tid: number
  readonly ts: number
  readonly dur?: number
  readonly tdur?: number
  readonly args?: { readonly name?: string; readonly data?: { readonly maxDuration?: number } }
}

/** Two spans on the page's clock (performance.now). */
export interface Span {
  readonly start: number
  readonly end: number
}

/** What the open clock (openClock) recorded, on the page's clock; 0 while not yet reached. */
export interface OpenClock {
  /** The file input's change event: the user chose the file. */
  chosen: number
  /** The DOM shows the log: the replay answered for this file, no progress bar, its rows listed. */
  rendered: number
  /** The frame after `rendered` painted (a task queued from the requestAnimationFrame before that paint). */
  painted: number
  /** The replay worker's own measures (`inspector worker: …`), put on the page's clock. */
  worker: Record<string, Span>
}

/** The binding openClock calls once the open is painted (paintedSignal). */
const PAINTED_BINDING = '__benchPainted'

/** Node's side of openClock's paint (paintedSignal). */
export interface PaintedSignal {
  /** Resolves when the page's open clock next paints an open; call it before the action it times. */
  readonly next: () => Promise<void>
}

/**
 * Node's side of openClock's paint. Waiting on it, the bench runs nothing in the page while
 * it is timed: a `waitForFunction` installs Playwright's poller in the page (20–25 ms of
 * main-thread script on this machine, inside the timed open, taken from the workers' two
 * cores) and runs its predicate at every poll. Call before the page's first navigation.
 */
export async function paintedSignal(target: Page | BrowserContext): Promise<PaintedSignal> {
  let waiting: (() => void) | null = null
  await target.exposeBinding(PAINTED_BINDING, () => {
    waiting?.()
    waiting = null
  })
  return {
    next: () =>
      new Promise<void>((resolve) => {
        waiting = resolve
      }),
  }
}

/** The Open panel's file input. */
const OPEN_FILE_INPUT = 'input[type=file][aria-label="Open a log file"]'

/**
 * A timed open of a file that runs nothing in the page: the file input (`selector`) is
 * awaited and looked up now, before the timing starts; the `open(file)` it returns chooses the file (a
 * path) through the DevTools protocol alone (Chromium sets the input's files and fires its
 * change event; Playwright's setInputFiles also runs a script of its own in the page, 6–13
 * ms of main-thread script here) and resolves once the page's open clock has painted it.
 */
export async function timedFileOpen(
  page: Page,
  painted: PaintedSignal,
  selector = OPEN_FILE_INPUT,
): Promise<(file: string) => Promise<void>> {
  // The Open drawer is a lazy chunk: a click on Open log… before the page prefetched it
  // shows the input once the chunk is loaded.
  await page.locator(selector).waitFor({ state: 'attached' })
  const cdp = await page.context().newCDPSession(page)
  const { result } = await cdp.send('Runtime.evaluate', {
    expression: `document.querySelector(${JSON.stringify(selector)})`,
  })
  if (!result.objectId) throw new Error(`no element ${selector}`)
  const { node } = await cdp.send('DOM.describeNode', { objectId: result.objectId })
  return async (file) => {
    const shown = painted.next()
    try {
      await cdp.send('DOM.setFileInputFiles', { files: [file], backendNodeId: node.backendNodeId })
    } finally {
      await cdp.detach()
    }
    await shown
  }
}

/**
 * An init script (`page.addInitScript(openClock, fileName)`) that times the open of the file
 * named `fileName` in the page itself, as `window.__bench` (an OpenClock): from the file
 * chosen to the log shown and painted. A MutationObserver sees the log shown in the task
 * that shows it, so the figure is exact to a frame; polling from Playwright would add up to
 * its interval and run its predicate on the page's main thread meanwhile.
 */
export function openClock(fileName: string): void {
  const b: OpenClock = (window.__bench = { worker: {}, chosen: 0, rendered: 0, painted: 0 })
  // The replay worker's measures, on the page's clock.
  const Base = window.Worker
  window.Worker = class extends Base {
    constructor(url: unknown, options?: { name?: string }) {
      super(url, options)
      if (options?.name !== 'replay') return
      this.addEventListener('message', (ev: any) => {
        const m = ev.data
        if (m?.type !== 'measure') return
        const shift = m.timeOrigin - performance.timeOrigin
        b.worker[m.name] = { start: m.start + shift, end: m.end + shift }
      })
    }
  }
  // Shown and validated: the replay's answer for this file came (the app's measure), and the page shows its rows.
  const answered = () =>
    performance
      .getEntriesByName('inspector: replay', 'measure')
      .some((e: any) => e.detail?.file === fileName && e.startTime + e.duration > b.chosen)
  const shown = () =>
    answered() &&
    document.querySelector('[role=progressbar][aria-label="Replay progress"]') === null &&
    document.body.textContent.includes(fileName) &&
    document.querySelector('[role=listbox] [role=option]') !== null
  document.addEventListener(
    'change',
    (ev: any) => {
      if (ev.target?.type !== 'file') return
      b.chosen = performance.now()
      b.rendered = b.painted = 0
      performance.mark('bench: file chosen')
      const watch = new MutationObserver(() => {
        if (b.rendered || !shown()) return
        b.rendered = performance.now()
        performance.mark('bench: rendered')
        watch.disconnect()
        requestAnimationFrame(() =>
          setTimeout(() => {
            b.painted = performance.now()
            performance.mark('bench: painted')
            // The bench's binding (paintedSignal's PAINTED_BINDING; this function runs in the page, without
            // this module's names), when there is one: Node learns of the paint with no script run in the page.
            window.__benchPainted?.()
          }, 0),
        )
      })
      watch.observe(document.body, { childList: true, subtree: true, characterData: true, attributes: true })
    },
    true,
  )
}
