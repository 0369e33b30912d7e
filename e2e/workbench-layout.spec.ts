/**
 * The workbench layout (issue #12) at 1440×900, 1280×720, 800 and 390 px: the header at
 * the top, the timeline and the selected step on screen, and Open, Signers and Sign as
 * drawers that never move the inspector. Full-page screenshots are saved as artifacts.
 */
import { expect, expectNoA11yViolations, test } from './fixtures'
import { shot, summary, waitForLog } from './helpers'

const SIZES = [
  [1440, 900],
  [1280, 720],
  [800, 900],
  [390, 844],
] as const

for (const [width, height] of SIZES) {
  test(`layout at ${width}×${height}: header, timeline and step on screen; drawers over the inspector`, async ({
    page,
  }, info) => {
    await page.setViewportSize({ width, height })
    await page.goto('/')
    await waitForLog(page)
    const header = page.locator('header.topbar')
    await expect(header).toBeInViewport()
    await expect(page.getByRole('listbox', { name: /Updates and their actions/ })).toBeInViewport()
    if (width > 900) await expect(summary(page)).toBeInViewport()
    // Two rows at most (the log, then the actions): at 390 px the actions scroll sideways in one row.
    const headerBox = (await header.boundingBox())!
    expect(headerBox.height, `header height at ${width} px`).toBeLessThanOrEqual(width <= 640 ? 72 : 80)
    if (width <= 640) {
      // Every action is still reachable by its name, and focus brings it into view.
      for (const name of ['Open log…', 'Signers…', 'Sign…', 'Present', 'Edit…', 'Inbox tasks…', 'Settings…']) {
        const b = header.getByRole('button', { name, exact: true })
        await b.focus()
        await expect(b).toBeInViewport()
      }
      await expect(header.getByRole('button', { name: /^Theme: / })).toHaveCount(1)
      await header.getByRole('button', { name: 'Open log…', exact: true }).focus()
    }
    await shot(page, info, `layout-${width}x${height}`)

    const timeline = page.locator('section.timeline')
    const before = await timeline.boundingBox()
    for (const [button, region] of [
      ['Sign…', 'Signing playground'],
      ['Signers…', 'Signers'],
    ] as const) {
      await page.getByRole('button', { name: button }).click()
      const drawer = page.getByRole('region', { name: region, exact: true })
      await expect(drawer).toBeInViewport()
      // The inspector stays where it was: the drawer is over it, not above it.
      expect(await timeline.boundingBox()).toEqual(before)
      await expect(header).toBeInViewport()
      await shot(page, info, `layout-${width}x${height}-${region.toLowerCase().replace(/\s+/g, '-')}`)
      await page.keyboard.press('Escape')
      await expect(drawer).toHaveCount(0)
    }
    if (width === 1440) await expectNoA11yViolations(page)
  })
}

test("an edited copy's name stays readable where the actions wrap under it (800 px)", async ({ page }) => {
  await page.setViewportSize({ width: 800, height: 900 })
  await page.goto('/')
  await waitForLog(page)
  await page.getByRole('button', { name: 'Edit…' }).click()
  await page
    .locator('[data-drawer="edit"]')
    .getByRole('button', { name: 'Replay an old add after its revocation', exact: true })
    .click()
  await expect(page.locator('.source.edited .edited-badge')).toHaveText('edited')
  // The log's row is the log's: the app's name is kept for screen readers only.
  await expect(page.getByRole('heading', { name: 'Inbox Inspector', level: 1 })).toHaveCount(1)
  const label = page.locator('.source.edited .source-label')
  await expect(label).toContainText('edited copy of')
  const width = await label.evaluate((e) => e.getBoundingClientRect().width)
  expect(width, 'the label shows more than a few letters').toBeGreaterThan(150)
  expect((await page.locator('header.topbar').boundingBox())!.height).toBeLessThanOrEqual(80)
})
