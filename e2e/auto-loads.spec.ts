/**
 * What the app loads by itself gives way to what the user does while it loads
 * (src/app/features/log-input/start-guard.ts), on the built app: the demo log of a first
 * visit, a fetch the address names (`?url=`, `?node=…&inbox=…`) and the log a reload
 * restores from the address (`#log=`). Each test holds the automatic load (page.route
 * holds the response; the restore's decompression waits on a gate the test's init script
 * puts in front of the browser's DecompressionStream), does the user's action, releases
 * the load and checks that the user's state survived. The local node is the one
 * playwright.config.ts starts (E2E_NODE_PORT, demo inboxes).
 */
import type { Page, Request } from '@playwright/test'
import { demoInboxes } from '../src/devnode/demo'
import { expect, test } from './fixtures'
import { fixture, shot, waitForLog } from './helpers'

// Code inside page.evaluate / addInitScript runs in the page; tsconfig.node.json has no DOM lib.
declare const window: any

const NODE = `http://127.0.0.1:${process.env.E2E_NODE_PORT}`
const PASTED = fixture('IDENT-013-add-checksummed-address.json').toString('utf8')

/** Counts the replay worker's `open` requests (each one is a load of a log). */
async function countOpens(page: Page): Promise<void> {
  await page.addInitScript(() => {
    const w = window
    w.__opens = 0
    const post = w.Worker.prototype.postMessage
    w.Worker.prototype.postMessage = function (this: unknown, m: { type?: string }, ...rest: unknown[]) {
      if (m && typeof m === 'object' && m.type === 'open') w.__opens++
      return post.call(this, m, ...rest)
    }
  })
}
const opens = (page: Page): Promise<number> => page.evaluate(() => window.__opens)

/** Two animation frames and an idle period: what the page had queued has run. */
const settle = (page: Page) =>
  page.evaluate(
    () =>
      new Promise<void>((done) =>
        window.requestAnimationFrame(() =>
          window.requestAnimationFrame(() => window.requestIdleCallback(() => done(), { timeout: 1000 })),
        ),
      ),
  )

/** Holds the requests `url` matches until `release` (then continued, or answered by `fulfill`). */
async function hold(page: Page, url: RegExp | ((u: URL) => boolean), fulfill?: { body: string }) {
  let release!: () => void
  const held = new Promise<void>((r) => (release = r))
  const seen: Request[] = []
  await page.route(url, async (route) => {
    seen.push(route.request())
    await held
    // The page may have given the request up meanwhile (the app aborts its own fetch when the user acts).
    await (fulfill
      ? route.fulfill({ status: 200, contentType: 'application/json', body: fulfill.body })
      : route.continue()
    ).catch(() => undefined)
  })
  return { release, seen }
}

const status = (page: Page) => page.getByRole('status', { name: 'Opening by itself' })
const openButton = (page: Page) => page.getByRole('button', { name: 'Open log…' })
const pasteBox = (page: Page) => page.getByLabel(/^Paste:/)

/** The user's state while no log is open: the Open panel, with the half-typed paste, and no log. */
async function expectUsersPanel(page: Page): Promise<void> {
  await expect(pasteBox(page)).toHaveValue(PASTED)
  await expect(page.getByRole('region', { name: 'Open a log' })).toBeVisible()
  await expect(page.getByLabel('Open log', { exact: true })).toHaveCount(0)
  await expect(page.getByRole('listbox', { name: /Updates and their actions/ })).toHaveCount(0)
  // With no log open the panel is the page: it reaches the bottom of the window (it scrolls there).
  const box = (await page.getByRole('region', { name: 'Open a log' }).boundingBox())!
  expect(Math.round(box.y + box.height)).toBe(page.viewportSize()!.height)
}

/** The user finishes: the pasted log opens, and it is the one shown. */
async function openThePaste(page: Page): Promise<void> {
  await page.getByRole('button', { name: 'Open pasted log' }).click()
  await waitForLog(page)
  await expect(page.getByLabel('Open log', { exact: true })).toContainText('The pasted text')
}

for (const address of ['/', '/#example=valid-full-life'])
  test(`the demo log (${address}) gives way to the Open panel the user opened while it loaded`, async ({ page }) => {
    // Hold the chunk that holds the example logs until the user has acted.
    const chunk = await hold(page, /valid-full-life-[^/]*\.js$/)
    await countOpens(page)
    await page.goto(address)
    await expect(status(page)).toContainText('Opening example valid-full-life')
    await openButton(page).click()
    await expect(openButton(page)).toHaveAttribute('aria-expanded', 'true')
    await expect(status(page)).toHaveCount(0)
    await pasteBox(page).fill(PASTED)

    const loaded = page.waitForResponse(/valid-full-life-[^/]*\.js$/)
    chunk.release()
    const url = (await loaded).url()
    // Importing the chunk again resolves after the app's own import did: by then the demo's
    // load has either handed its log to the worker or given way.
    await page.evaluate((u) => import(u).then(() => undefined), url)
    await settle(page)
    expect(await opens(page)).toBe(0)
    await expectUsersPanel(page)
    await openThePaste(page)
    expect(await opens(page)).toBe(1)
  })

/**
 * The user opens the Open log panel and pastes a log while the app's load is held: its status
 * goes, its request fails (`gaveUp`), and the held answer is released only then.
 */
async function pasteMeanwhile(page: Page, gaveUp: Promise<unknown>, held: { release(): void }): Promise<void> {
  await openButton(page).click()
  await pasteBox(page).fill(PASTED)
  await expect(status(page)).toHaveCount(0)
  await gaveUp
  held.release()
  await settle(page)
}

test('a fetch the address names (?url=) gives way to a log the user pasted meanwhile', async ({ page }) => {
  const logUrl = '/held/log.json'
  const served = await hold(page, (u) => u.pathname === logUrl, {
    body: fixture('valid-full-life.json').toString('utf8'),
  })
  await countOpens(page)
  await page.goto(`/?url=${encodeURIComponent(logUrl)}`)
  await expect(status(page)).toContainText(`Opening the log at ${logUrl}`)
  await expect.poll(() => served.seen.length).toBe(1)
  const gaveUp = page.waitForEvent('requestfailed', (r) => r.url().endsWith(logUrl))

  // The user opens the panel and pastes a log: the app's fetch stops there.
  await pasteMeanwhile(page, gaveUp, served)
  expect(await opens(page)).toBe(0)
  await expectUsersPanel(page)
  await openThePaste(page)
  // Nothing comes after: the held answer never replaces the pasted log.
  await settle(page)
  expect(await opens(page)).toBe(1)
  await expect(page.getByLabel('Open log', { exact: true })).toContainText('The pasted text')
})

test('a node fetch the address names (?node=…&inbox=…) gives way to a log the user pasted meanwhile', async ({
  page,
}) => {
  const alice = demoInboxes().find((d) => d.name === 'alice')!
  const node = await hold(page, (u) => u.origin === NODE)
  await countOpens(page)
  await page.goto(`/?node=${encodeURIComponent(NODE)}&inbox=${alice.inboxId}`)
  await expect(status(page)).toContainText(`the log the page address names on ${NODE}`)
  await expect.poll(() => node.seen.length).toBeGreaterThan(0)
  const gaveUp = page.waitForEvent('requestfailed', (r) => r.url().startsWith(NODE))

  await pasteMeanwhile(page, gaveUp, node)
  await openThePaste(page)
  await settle(page)
  expect(await opens(page)).toBe(1)
  await expect(page.getByLabel('Open log', { exact: true })).toContainText('The pasted text')
  await expect(openButton(page)).toHaveAttribute('aria-expanded', 'false')
})

test('the log a reload restores from the address gives way to the Open panel the user opened at once', async ({
  page,
}) => {
  await page.goto('/')
  await waitForLog(page)
  await openButton(page).click()
  await pasteBox(page).fill(fixture('valid-full-life.json').toString('utf8'))
  await page.getByRole('button', { name: 'Open pasted log' }).click()
  await waitForLog(page)
  await expect.poll(() => page.url()).toMatch(/#log=/)

  // From the reload on, the restore's decompression waits for the test (a hook of this test only).
  await page.addInitScript(() => {
    const w = window
    const Real = w.DecompressionStream
    let open!: () => void
    const gate = new Promise<void>((r) => (open = r))
    w.__restoreRead = false
    w.__releaseRestore = open
    w.DecompressionStream = class {
      readonly writable: unknown
      readonly readable: unknown
      constructor(format: string) {
        const held = new w.TransformStream({
          async transform(chunk: unknown, c: { enqueue: (x: unknown) => void }) {
            await gate
            c.enqueue(chunk)
          },
        })
        const tail = new w.TransformStream({
          flush() {
            w.__restoreRead = true
          },
        })
        this.writable = held.writable
        this.readable = held.readable.pipeThrough(new Real(format)).pipeThrough(tail)
      }
    }
  })
  await countOpens(page)
  await page.reload()
  await expect(status(page)).toContainText('Opening the log in the page address')
  await openButton(page).click()
  await expect(openButton(page)).toHaveAttribute('aria-expanded', 'true')
  await expect(status(page)).toHaveCount(0)
  await pasteBox(page).fill(PASTED)

  await page.evaluate(() => window.__releaseRestore())
  await page.waitForFunction(() => window.__restoreRead === true)
  await settle(page)
  expect(await opens(page)).toBe(0)
  await expectUsersPanel(page)
  await expect(openButton(page)).toHaveAttribute('aria-expanded', 'true')
  await openThePaste(page)
  expect(await opens(page)).toBe(1)
})

test('left alone, each automatic load opens as before (the held load is the one the tests hold)', async ({ page }) => {
  const chunk = await hold(page, /valid-full-life-[^/]*\.js$/)
  await page.goto('/#example=valid-full-life')
  await expect(status(page)).toContainText('Opening example valid-full-life')
  chunk.release()
  await waitForLog(page)
  await expect(status(page)).toHaveCount(0)
  await expect(page.getByLabel('Open log', { exact: true })).toContainText('example valid-full-life')

  const logUrl = '/held/log.json'
  const served = await hold(page, (u) => u.pathname === logUrl, {
    body: fixture('IDENT-013-add-checksummed-address.json').toString('utf8'),
  })
  await page.goto(`/?url=${encodeURIComponent(logUrl)}`)
  await expect(status(page)).toContainText(`Opening the log at ${logUrl}`)
  served.release()
  await waitForLog(page)
  await expect(page.getByLabel('Open log', { exact: true })).toContainText(`URL ${logUrl}`)
})

test('while the first log is read and validated, the page says so in place of the inspector, then shows the log', async ({
  page,
}, info) => {
  // The replay worker's script held: the demo log is being read, with no log shown yet.
  const worker = await hold(page, /replay\.worker-[^/]*\.js$/)
  await page.goto('/')
  const pending = page.locator('main.workspace-pending')
  await expect(pending).toHaveText('Reading example valid-full-life…')
  // Shown after a moment (a quick load does not flash it): fully opaque once its fade ends.
  await expect(pending).toHaveCSS('opacity', '1')
  await shot(page, info, 'first-log-pending')
  worker.release()
  await waitForLog(page)
  await expect(pending).toHaveCount(0)
  await expect(page.getByRole('main')).toHaveCount(1)
})
