/**
 * The `test` every spec imports (instead of @playwright/test's):
 * - an auto fixture that keeps the browser on this machine: a request to any host
 *   other than localhost / 127.0.0.1 / [::1] is aborted and fails the test, and so does
 *   any uncaught page error (`pageerror`) and any console message of type error, on
 *   every page of the test's context; `guardContext` does the same for a context a spec
 *   makes itself;
 * - `expectedConsoleErrors` (set with `test.use` on the test or describe that provokes
 *   them: a chunk routed to 404, a node that is down): patterns of the console errors
 *   such a test causes on purpose, keyed by why (`failedToLoad` writes the pattern of a
 *   failed request). An error one of them matches is allowed; a pattern that matches no
 *   error fails the test, so no allowance outlives its cause;
 * - `expectNoA11yViolations(page)`: an axe-core scan (@axe-core/playwright) that fails
 *   on serious or critical violations.
 */
import AxeBuilder from '@axe-core/playwright'
import { test as base, type BrowserContext, expect, type Page } from '@playwright/test'

export { expect }

const LOCAL_HOSTS = new Set(['localhost', '127.0.0.1', '[::1]'])

/** True for URLs that would leave the machine (http, https, ws, wss, ftp to another host). */
function isOffHost(url: string): boolean {
  let u: URL
  try {
    u = new URL(url)
  } catch {
    return false
  }
  if (!/^(https?|wss?|ftp):$/.test(u.protocol)) return false // data:, blob:, about:, chrome-extension:
  return !LOCAL_HOSTS.has(u.hostname)
}

/**
 * Console errors a test provokes on purpose, each pattern keyed by why. A recorded error
 * reads `PAGE_URL: TEXT (SOURCE_URL)` (for "Failed to load resource", SOURCE_URL is the
 * resource's); one a pattern matches is allowed, and each pattern must match at least one.
 * (A record, not an array: Playwright's `test.use` reads a two-element array whose second
 * element is an object, a RegExp too, as a [value, options] tuple.)
 */
export type ExpectedConsoleErrors = Readonly<Record<string, RegExp>>

/** What `guardContext` records beside off-host requests and uncaught page errors. */
export interface GuardOptions {
  /** Record console messages of type error (default true). */
  readonly consoleErrors?: boolean
  readonly expectedConsoleErrors?: ExpectedConsoleErrors
}

const escapeRegExp = (s: string): string => s.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&')

/**
 * The console error Chromium logs for a request that fails, as the guard records it, for
 * `expectedConsoleErrors`: `reason` as Chromium words it ("net::ERR_CONNECTION_REFUSED",
 * "the server responded with a status of 404 (Not Found)"), `url` the request's (a RegExp
 * where part of it is not known before the test runs: a port, a chunk's hash).
 */
export function failedToLoad(reason: string, url: string | RegExp): RegExp {
  const u = typeof url === 'string' ? escapeRegExp(url) : url.source
  return new RegExp(`: Failed to load resource: ${escapeRegExp(reason)} \\(${u}\\)$`)
}

/**
 * The app's embedded default node (src/app/features/settings/node-url.ts): `npm start` runs
 * one there, no test does. Every request to it is refused, whatever listens on the port (a
 * developer's `npm start` must not answer a test), and the browser's "Failed to load
 * resource" line for it is no test's error: the app asks its node in the background (the
 * open log's head, a handle's holder, the claim policy) and says when it gets no answer. A
 * test that needs a node gives the app its own (`?node=`, e2e/support/playground.ts).
 */
const APP_DEFAULT_NODE = /^http:\/\/(127\.0\.0\.1|localhost):8787\//

/** A guarded context: `watch` adds a page made before the guard; `check` fails on what was recorded. */
export interface ContextGuard {
  readonly watch: (page: Page) => void
  readonly check: () => void
}

/**
 * Keeps a browser context on this machine and records its pages' errors: a request to any
 * host other than localhost / 127.0.0.1 / [::1] is aborted and recorded (one to the app's
 * default node, APP_DEFAULT_NODE, is refused), and every uncaught page error and every
 * console error (unless `consoleErrors: false`) of its pages is recorded, those opened
 * later included; a console error an `expectedConsoleErrors` pattern
 * matches is allowed, and a pattern that matched none is recorded. The `test` fixture
 * guards every test's context with it; a spec that makes a context of its own (a
 * benchmark's fresh one) guards it the same way.
 */
export async function guardContext(context: BrowserContext, options: GuardOptions = {}): Promise<ContextGuard> {
  const offHost: string[] = []
  const pageErrors: string[] = []
  const consoleErrors: string[] = []
  const expected = Object.entries(options.expectedConsoleErrors ?? {})
  const matched = new Set<string>()
  const watched = new WeakSet<Page>()
  const watch = (p: Page): void => {
    if (watched.has(p)) return
    watched.add(p)
    p.on('pageerror', (err) => pageErrors.push(`${p.url()}: ${err.stack ?? err.message}`))
    if (options.consoleErrors ?? true)
      p.on('console', (m) => {
        if (m.type() !== 'error') return
        if (APP_DEFAULT_NODE.test(m.location().url) && m.text().startsWith('Failed to load resource')) return
        const line = `${p.url()}: ${m.text()} (${m.location().url})`
        const allowing = expected.filter(([, re]) => line.search(re) !== -1)
        for (const [why] of allowing) matched.add(why)
        if (allowing.length === 0) consoleErrors.push(line)
      })
  }
  await context.route(
    (url) => isOffHost(url.href),
    async (route) => {
      offHost.push(`${route.request().method()} ${route.request().url()}`)
      await route.abort('blockedbyclient')
    },
  )
  await context.route(
    (url) => APP_DEFAULT_NODE.test(url.href),
    (route) => route.abort('connectionrefused'),
  )
  context.on('request', (req) => {
    // Also catches what routing does not see (e.g. a service worker's requests).
    if (isOffHost(req.url()) && !offHost.some((r) => r.endsWith(` ${req.url()}`))) {
      offHost.push(`${req.method()} ${req.url()}`)
    }
  })
  context.on('page', watch)
  for (const p of context.pages()) watch(p)
  return {
    watch,
    check: () => {
      expect(offHost, 'requests to hosts other than localhost/127.0.0.1 (tests must stay on this machine)').toEqual([])
      expect(pageErrors, 'uncaught errors in the page').toEqual([])
      expect(consoleErrors, 'console errors in the page').toEqual([])
      expect(
        expected.filter(([why]) => !matched.has(why)).map(([why, re]) => `${why}: ${re}`),
        'expected console errors that did not occur (expectedConsoleErrors)',
      ).toEqual([])
    },
  }
}

export const test = base.extend<{
  consoleErrors: boolean
  expectedConsoleErrors: ExpectedConsoleErrors
  hermetic: void
}>({
  // On for every test; a test that provokes console errors names them in expectedConsoleErrors instead.
  consoleErrors: [true, { option: true }],
  // Set (test.use) narrowly on the test or describe that provokes them, with a comment naming why.
  expectedConsoleErrors: [{}, { option: true }],
  hermetic: [
    async ({ context, page, consoleErrors, expectedConsoleErrors }, use) => {
      const guard = await guardContext(context, { consoleErrors, expectedConsoleErrors })
      guard.watch(page)
      await use()
      guard.check()
    },
    { auto: true },
  ],
})

/** The part of the page's Animation (Web Animations) that the scan waits on; e2e/ is typed without the DOM lib. */
interface PageAnimation {
  readonly effect: { getComputedTiming(): { endTime?: number | string } } | null
  readonly finished: Promise<unknown>
}

export interface A11yOptions {
  /** CSS selector to scan instead of the whole page. */
  include?: string
  /** CSS selectors to leave out of the scan. */
  exclude?: string[]
  /** axe rule ids to turn off; say why at the call site. */
  disableRules?: string[]
}

/**
 * Runs axe-core on the page and fails on serious or critical violations, once the page's
 * finite animations have ended: a scan during a fade (presenter mode's step, 180 ms) reads
 * the colours half-way and reports contrast the page does not have.
 */
export async function expectNoA11yViolations(page: Page, options: A11yOptions = {}): Promise<void> {
  await page.evaluate(() =>
    Promise.all(
      (globalThis as unknown as { document: { getAnimations(): PageAnimation[] } }).document
        .getAnimations()
        .filter((a) => Number.isFinite(Number(a.effect?.getComputedTiming().endTime ?? Number.POSITIVE_INFINITY)))
        .map((a) => a.finished.catch(() => undefined)),
    ),
  )
  let builder = new AxeBuilder({ page })
  if (options.include) builder = builder.include(options.include)
  for (const sel of options.exclude ?? []) builder = builder.exclude(sel)
  if (options.disableRules?.length) builder = builder.disableRules(options.disableRules)
  const results = await builder.analyze()
  const bad = results.violations.filter((v) => v.impact === 'serious' || v.impact === 'critical')
  if (bad.length > 0) {
    await test.info().attach('axe-violations.json', {
      body: JSON.stringify(bad, null, 2),
      contentType: 'application/json',
    })
  }
  expect(
    bad.map(
      (v) =>
        `[${v.impact}] ${v.id}: ${v.help} (${v.helpUrl})\n` +
        v.nodes.map((n) => `    ${n.target.join(' ')}: ${n.failureSummary?.split('\n').join(' ') ?? ''}`).join('\n'),
    ),
    'serious or critical accessibility violations (axe-core)',
  ).toEqual([])
}
