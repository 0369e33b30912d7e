/**
 * A view whose chunk failed to load (the network dropped, a chunk of an older deploy gone)
 * says so in its place, and its Try again loads it anew (src/app/ui/lazy-again.tsx). Both
 * kinds of lazy view, on the built app: a step's tab (a plain lazy view) and a drawer (a
 * lazyView, whose chunk the idle prefetch asks for first).
 */
import type { Page, Route } from '@playwright/test'
import { expect, expectNoA11yViolations, failedToLoad, test } from './fixtures'
import { DESKTOP, openLog, shot } from './helpers'

/** Routes a chunk to a 404 until `let()`; records every request for it. */
async function refuseChunk(page: Page, name: string) {
  const requests: string[] = []
  let failing = true
  await page.route(new RegExp(`/assets/${name}-[\\w-]+\\.js(\\?retry=\\d+)?$`), async (route: Route) => {
    requests.push(route.request().url())
    if (failing) await route.fulfill({ status: 404, body: 'gone' })
    else await route.continue()
  })
  return {
    requests,
    let: () => {
      failing = false
    },
  }
}

const chunk404 = (name: string) =>
  failedToLoad(
    'the server responded with a status of 404 (Not Found)',
    new RegExp(`http://localhost:\\d+/assets/${name}-[\\w-]+\\.js(\\?retry=\\d+)?`),
  )

/** The failed import as React logs it, and as the error boundary labelled `label` does. */
const failedImport = (name: string, label: string) =>
  new RegExp(
    `: (inspector: ${label} failed )?TypeError: Failed to fetch dynamically imported module: http://localhost:\\d+/assets/${name}-[\\w-]+\\.js`,
  )

test.describe(() => {
  test.use({
    expectedConsoleErrors: {
      "the raw view's chunk is routed to a 404 until the test lets it through": chunk404('RawView'),
      "React and the raw view's boundary log the failure it shows": failedImport('RawView', 'The raw view'),
    },
  })
  test("a step's tab whose chunk failed: says so in the tab; Try again loads it anew", async ({ page }) => {
    const raw = await refuseChunk(page, 'RawView')
    await openLog(page, DESKTOP)
    const tabs = page.getByRole('tablist', { name: 'Views of the selected step' })
    await tabs.getByRole('tab', { name: 'Raw', exact: true }).click()
    const panel = page.getByRole('tabpanel', { name: 'Raw', exact: true })
    const alert = panel.getByRole('alert')
    await expect(alert).toContainText('The raw view could not be shown.')
    await expect(alert).toContainText(/dynamically imported module/i)
    const failed = raw.requests.length
    // The network is back: Try again fetches the chunk again, by a URL of its own.
    raw.let()
    await alert.getByRole('button', { name: 'Try again' }).click()
    await expect(page.getByRole('region', { name: 'Raw update (protobuf)' })).toBeVisible()
    await expect(panel.getByRole('alert')).toHaveCount(0)
    expect(raw.requests.length).toBe(failed + 1)
    expect(raw.requests.at(-1)).toMatch(/\?retry=1$/)
  })
})

test.describe(() => {
  test.use({
    expectedConsoleErrors: {
      "the other drawers' chunk is routed to a 404 until the test lets it through": chunk404('drawer-views'),
      "React and the signers drawer's boundary log the failure it shows": failedImport(
        'drawer-views',
        'The signers panel',
      ),
    },
  })
  test('a drawer whose chunk failed: says so under its heading; Try again and opening it again load it anew', async ({
    page,
  }, info) => {
    const views = await refuseChunk(page, 'drawer-views')
    await openLog(page, DESKTOP)
    // The idle prefetch (src/app/shell/prefetch.ts) asks for the chunk once: let it fail first,
    // so that every request counted below is the drawer's own.
    await page.waitForFunction(() => performance.getEntriesByName('inspector: prefetch').length > 0)
    await expect.poll(() => views.requests.length).toBe(1)
    await page.keyboard.press('s')
    // The drawer keeps its heading and Close around the failure.
    const drawer = page.getByRole('region', { name: 'Signers' })
    const alert = drawer.getByRole('alert')
    await expect(alert).toContainText('The signers panel could not be shown.')
    await expectNoA11yViolations(page)
    await shot(page, info, 'drawer-failed-1440')
    // Try again asks the network again (still failing here): one request, the failure shown again.
    let asked = views.requests.length
    await alert.getByRole('button', { name: 'Try again' }).click()
    await expect.poll(() => views.requests.length).toBe(asked + 1)
    await expect(alert).toContainText('The signers panel could not be shown.')
    await drawer.getByRole('button', { name: 'Close the signers panel' }).click()
    await expect(drawer).toHaveCount(0)
    // The network is back: the drawer opened again loads its chunk.
    asked = views.requests.length
    views.let()
    await page.keyboard.press('s')
    await expect(page.getByRole('heading', { name: 'Local Ethereum keys' })).toBeVisible()
    await expect(page.getByRole('region', { name: 'Signers' }).getByRole('alert')).toHaveCount(0)
    expect(views.requests.length).toBe(asked + 1)
    expect(views.requests.at(-1)).toMatch(/\?retry=\d+$/)
    // Another drawer of the same chunk is the module that retry loaded: no request of its own.
    asked = views.requests.length
    await page.keyboard.press('Escape')
    await page.keyboard.press('i')
    await expect(page.getByRole('region', { name: 'Inbox tasks' })).toBeVisible()
    await expect(page.getByRole('region', { name: 'Inbox tasks' }).getByRole('alert')).toHaveCount(0)
    expect(views.requests.length).toBe(asked)
  })
})
