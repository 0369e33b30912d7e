/**
 * The workbench layout at 1440×900, 1280×720, 1024×768, 800 and 390 px: the header at
 * the top (one row on a phone, the other actions in its More menu), the timeline and the
 * selected step on screen, and Open, Signers and Sign as drawers that never move the
 * inspector. Full-page screenshots are saved as artifacts.
 */
import type { Page } from '@playwright/test'
import { expect, expectNoA11yViolations, test } from './fixtures'
import { fixture, headerAction, moreMenu, shot, summary, waitForLog, openLog, PHONE, DESKTOP } from './helpers'

// Code inside page.evaluate runs in the page; tsconfig.node.json has no DOM lib.
declare const document: any, navigator: any

const SIZES = [
  [1440, 900],
  [1280, 720],
  [1024, 768],
  [800, 900],
  [390, 844],
] as const

for (const [width, height] of SIZES) {
  test(`layout at ${width}×${height}: header, timeline and step on screen; drawers over the inspector`, async ({
    page,
  }, info) => {
    await openLog(page, { width, height })
    const header = page.locator('header.topbar')
    await expect(header).toBeInViewport()
    await expect(page.getByRole('listbox', { name: /Updates and their actions/ })).toBeInViewport()
    if (width > 900) await expect(summary(page)).toBeInViewport()
    // One row on a phone (the rest of the actions in More, see the test below) and from 1200 px;
    // between, the actions wrap under the log: two rows at most.
    const headerBox = (await header.boundingBox())!
    const oneRow = width <= 640 || width >= 1200
    expect(headerBox.height, `header height at ${width} px`).toBeLessThanOrEqual(oneRow ? 44 : 80)
    // The demo's verdict is whole in the header on a screen of 1280 px or more (a laptop's).
    if (width >= 1280) {
      const verdict = header.locator('.source .badge').first()
      await expect(verdict).toHaveText('every update applies')
      const cut = await verdict.evaluate((b: any) => b.scrollWidth > b.clientWidth)
      expect(cut, `the verdict cut short at ${width} px`).toBe(false)
    }
    await shot(page, info, `layout-${width}x${height}`)
    // The state panel's members table fits the panel, whatever room the step's pane has (a
    // narrow pane drops "added by" and "time added"), and the identifier keeps its room.
    const members = await page.locator('.panel.state').evaluate((panel: any) => {
      const table = panel.querySelector('table.members')
      const head = [...table.querySelectorAll('th')].find((th: any) => th.textContent === 'identifier')
      return { panel: panel.clientWidth, table: table.getBoundingClientRect().width, identifier: head.clientWidth }
    })
    expect(members.table, `members table within its panel at ${width} px`).toBeLessThanOrEqual(members.panel)
    expect(members.identifier, `identifier column at ${width} px`).toBeGreaterThan(120)
    // The step's tabs are one row (a narrow pane scrolls them sideways rather than wrapping them).
    const tabRow = await page
      .locator('#step-details [role=tablist]')
      .first()
      .evaluate((l: any) => new Set([...l.querySelectorAll('[role=tab]')].map((t: any) => t.offsetTop)).size)
    expect(tabRow, `the step's tabs in one row at ${width} px`).toBe(1)

    const timeline = page.locator('section.timeline')
    const before = await timeline.boundingBox()
    for (const [button, region] of [
      ['Sign…', 'Signing playground'],
      ['Signers…', 'Signers'],
    ] as const) {
      await (await headerAction(page, button)).click()
      const drawer = page.getByRole('region', { name: region, exact: true })
      await expect(drawer).toBeInViewport()
      // The inspector stays where it was: the drawer is over it, not above it.
      expect(await timeline.boundingBox()).toEqual(before)
      // Close is beside the drawer's name, at its top right, as in every drawer.
      const name = (await drawer.getByRole('heading').first().boundingBox())!
      const close = (await drawer
        .getByRole('button', { name: /^Close/ })
        .first()
        .boundingBox())!
      const box = (await drawer.boundingBox())!
      expect(
        Math.abs(close.y + close.height / 2 - (name.y + name.height / 2)),
        `${region}: Close in the name's row`,
      ).toBeLessThan(8)
      expect(box.x + box.width - (close.x + close.width), `${region}: Close at the right`).toBeLessThan(32)
      await expect(header).toBeInViewport()
      await shot(page, info, `layout-${width}x${height}-${region.toLowerCase().replace(/\s+/g, '-')}`)
      await page.keyboard.press('Escape')
      await expect(drawer).toHaveCount(0)
    }
    if (width === 1440) await expectNoA11yViolations(page)
  })
}

test("an edited copy's name stays readable where the actions wrap under it (800 px)", async ({ page }) => {
  await openLog(page, { width: 800, height: 900 })
  await editedCopy(page)
  // The log's row is the log's: the app's name is kept for screen readers only.
  await expect(page.getByRole('heading', { name: 'Inbox Inspector', level: 1 })).toHaveCount(1)
  const label = page.locator('.source.edited .source-label')
  await expect(label).toContainText('edited copy of')
  const width = await label.evaluate((e) => e.getBoundingClientRect().width)
  expect(width, 'the label shows more than a few letters').toBeGreaterThan(150)
  expect((await page.locator('header.topbar').boundingBox())!.height).toBeLessThanOrEqual(80)
})

/** Turns the open log into an edited copy (a break-it button of the Edit drawer) and waits for its mark. */
async function editedCopy(page: Page): Promise<void> {
  await (await headerAction(page, 'Edit…')).click()
  await page
    .locator('[data-drawer="edit"]')
    .getByRole('button', { name: 'Replay an old add after its revocation', exact: true })
    .click()
  await expect(page.locator('.source.edited .edited-badge')).toHaveText('edited')
}

/** Every visible control of the header, with its box. */
function headerControls(page: Page) {
  return page.locator('header.topbar').evaluate((h: any) =>
    [...h.querySelectorAll('button, select, a, .source-label, .badge, [role="status"]')]
      .filter((el: any) => el.getClientRects().length > 0 && el.closest('[role="menu"]') === null)
      .map((el: any) => {
        const r = el.getBoundingClientRect()
        return {
          what: el.getAttribute('aria-label') ?? el.textContent!.trim(),
          tag: el.tagName,
          top: r.top,
          bottom: r.bottom,
          left: r.left,
          right: r.right,
        }
      }),
  )
}

const PHONE_ACTIONS = [
  'Signers…',
  'Sign…',
  'Audit…',
  'Node traffic…',
  'Present',
  'Edit…',
  'Inbox tasks…',
  'Copy link',
  'Settings…',
]

test('at 390×844 the header is one row: Open log…, the theme and More, which holds every other action', async ({
  page,
  context,
}, info) => {
  await context.grantPermissions(['clipboard-read', 'clipboard-write'])
  await openLog(page, PHONE, '/#example=valid-full-life&step=3.0')
  const header = page.locator('header.topbar')
  const box = (await header.boundingBox())!
  expect(box.height).toBeLessThanOrEqual(44)
  // One row: the buttons share one top, and nothing starts below the end of anything else (no wrapping).
  const controls = await headerControls(page)
  const buttons = controls.filter((c) => c.tag === 'BUTTON')
  expect(buttons.map((b) => b.what)).toEqual(['Open log…', expect.stringMatching(/^Theme: /), 'More'])
  for (const b of buttons) expect(b.top, b.what).toBeCloseTo(buttons[0]!.top, 0)
  const lowestTop = Math.max(...controls.map((c) => c.top))
  const highestBottom = Math.min(...controls.map((c) => c.bottom))
  expect(lowestTop, JSON.stringify(controls)).toBeLessThan(highestBottom)
  for (const c of controls) expect(c.right, c.what).toBeLessThanOrEqual(390)
  const overflow = await page.evaluate(
    () => document.documentElement.scrollWidth - document.documentElement.clientWidth,
  )
  expect(overflow).toBeLessThanOrEqual(0)

  // More holds the rest, in the wide header's order, on screen.
  const more = header.getByRole('button', { name: 'More', exact: true })
  await expect(more).toHaveAttribute('aria-expanded', 'false')
  const menu = await moreMenu(page)
  await expect(more).toHaveAttribute('aria-expanded', 'true')
  await expect(menu.locator('[role^="menuitem"]')).toHaveText(PHONE_ACTIONS)
  const m = (await menu.boundingBox())!
  expect(m.x).toBeGreaterThanOrEqual(0)
  expect(m.x + m.width).toBeLessThanOrEqual(390)
  expect(m.y + m.height).toBeLessThanOrEqual(844)
  await expectNoA11yViolations(page)
  await shot(page, info, 'header-390-more')
  await page.keyboard.press('Escape')
  await expect(menu).toHaveCount(0)
  await expect(more).toBeFocused()

  // Each action, through the menu: the drawers open (checked in the menu while open) and close.
  for (const [name, drawer] of [
    ['Signers…', 'signers'],
    ['Sign…', 'sign'],
    ['Audit…', 'audit'],
    ['Node traffic…', 'traffic'],
    ['Edit…', 'edit'],
    ['Inbox tasks…', 'flows'],
  ] as const) {
    await (await headerAction(page, name)).click()
    await expect(page.locator(`[data-drawer="${drawer}"]`), name).toBeVisible()
    await expect((await moreMenu(page)).getByRole('menuitemcheckbox', { name })).toHaveAttribute('aria-checked', 'true')
    await (await headerAction(page, name)).click()
    await expect(page.locator(`[data-drawer="${drawer}"]`), name).toHaveCount(0)
  }
  await (await headerAction(page, 'Present')).click()
  await expect(page.getByRole('main', { name: /^Presenting/ })).toBeVisible()
  await page.keyboard.press('Escape')
  await expect(page.getByRole('main', { name: /^Presenting/ })).toHaveCount(0)
  await (await headerAction(page, 'Copy link')).click()
  await expect(page.getByRole('status').filter({ hasText: 'The link to this step was copied.' })).toBeVisible()
  // The address bar takes a change in an idle moment after the frame that shows it.
  const copied = await page.evaluate(() => navigator.clipboard.readText())
  await expect.poll(() => page.url()).toBe(copied)
  await (await headerAction(page, 'Settings…')).click()
  await expect(page.getByRole('dialog', { name: 'Settings' })).toBeVisible()
  await page.keyboard.press('Escape')

  // From the keyboard: ↓ on More opens it, Enter picks, and the drawer gives the focus back to More.
  await more.focus()
  await page.keyboard.press('ArrowDown')
  await expect(menu.getByRole('menuitemcheckbox', { name: 'Signers…' })).toBeFocused()
  await page.keyboard.press('ArrowDown')
  await page.keyboard.press('Enter')
  await expect(page.getByRole('region', { name: 'Signing playground', exact: true })).toBeFocused()
  await page.keyboard.press('Escape')
  await expect(more).toBeFocused()
})

for (const [width, height] of [
  [1440, 900],
  [1280, 720],
] as const)
  test(`at ${width}×${height} the header is one row, the log's name and verdict readable, an edited copy's too`, async ({
    page,
  }, info) => {
    await openLog(page, { width, height })
    const header = page.locator('header.topbar')
    const label = page.locator('.source .source-label')
    const verdict = page.locator('.source .badge', { hasText: /applies|stops at/ })
    expect((await header.boundingBox())!.height, 'one row').toBeLessThanOrEqual(44)
    // Whatever the width cuts is in the title; the demo's name and verdict are whole at 1440 px.
    await expect(label).toHaveAttribute('title', 'example valid-full-life')
    await expect(verdict).toHaveAttribute('title', 'every update applies')
    const cut = (l: typeof label) => l.evaluate((e) => e.scrollWidth > e.clientWidth)
    if (width === 1440) {
      expect(await cut(label), 'the name is whole').toBe(false)
      expect(await cut(verdict), 'the verdict is whole').toBe(false)
      await expect(page.getByRole('heading', { name: 'Inbox Inspector', level: 1 })).toBeInViewport()
    }
    expect(await label.evaluate((e) => e.getBoundingClientRect().width), 'more than a few letters').toBeGreaterThan(100)
    // The log's part gives way inside itself (ellipses), never by cutting off its last chip.
    const clipped = () => page.locator('.topbar-id').evaluate((e) => e.scrollWidth > e.clientWidth + 0.5)
    expect(await clipped(), 'the row fits: nothing cut off at its end').toBe(false)
    // No control of the header overlaps another, none leaves the screen.
    const boxes = await headerControls(page)
    for (const [i, a] of boxes.entries()) {
      expect(a.right, `${a.what} on screen`).toBeLessThanOrEqual(width)
      for (const b of boxes.slice(i + 1))
        expect(a.right <= b.left + 0.5 || b.right <= a.left + 0.5, `${a.what} beside ${b.what}`).toBe(true)
    }

    await editedCopy(page)
    await expect(page.locator('.source.edited .source-label')).toContainText('edited copy of')
    expect((await header.boundingBox())!.height, 'an edited copy: one row').toBeLessThanOrEqual(44)
    expect(await clipped(), 'the edited row fits: nothing cut off at its end').toBe(false)
    const edited = await page.locator('.source.edited .source-label').evaluate((e) => e.getBoundingClientRect().width)
    expect(edited, 'the edited name shows more than a few letters').toBeGreaterThan(60)
    await shot(page, info, `header-${width}-edited`)
  })

for (const [width, height] of [
  [1440, 900],
  [1280, 720],
] as const)
  test(`at ${width}×${height} a long log name gives way before the verdict`, async ({ page }) => {
    await openLog(page, { width, height })
    const name = 'valid-full-life exported from http://127.0.0.1:8787 (identity over connect) on 2024-06-01.json'
    await page.getByRole('button', { name: 'Open log…' }).click()
    await page
      .getByLabel('Open a log file')
      .setInputFiles({ name, mimeType: 'application/json', buffer: fixture('valid-full-life.json') })
    const label = page.locator('.source .source-label')
    await expect(label).toHaveAttribute('title', new RegExp(name.replace(/[.()]/g, '\\$&')))
    await waitForLog(page)
    const verdict = page.locator('.source .badge', { hasText: 'every update applies' })
    const cut = (l: typeof label) => l.evaluate((e) => e.scrollWidth > e.clientWidth)
    expect(await cut(label), 'the name is cut').toBe(true)
    expect(await cut(verdict), 'the verdict is whole').toBe(false)
  })

test('at 390 px why an input failed is readable: the formats tried fit, each reason with room', async ({ page }) => {
  await openLog(page, { width: 390, height: 844 })
  await (await headerAction(page, 'Open log…')).click()
  const pb = fixture('valid-full-life.pb')
  await page
    .getByLabel('Open a log file')
    .setInputFiles({ name: 'cut.pb', mimeType: 'application/octet-stream', buffer: pb.subarray(0, pb.length - 7) })
  const table = page.getByRole('table', { name: 'Formats tried and why each failed' })
  await expect(table).toBeVisible()
  const box = (await table.boundingBox())!
  expect(box.x + box.width, 'the table within the screen').toBeLessThanOrEqual(390)
  const why = (await table.getByRole('columnheader', { name: 'why it failed' }).boundingBox())!
  expect(why.x + why.width, 'the reasons within the screen').toBeLessThanOrEqual(390)
  expect(why.width, 'the reasons have room').toBeGreaterThan(90)
})

test('at 1440×900 every action is a header button and there is no More', async ({ page }) => {
  await openLog(page, DESKTOP, '/#example=valid-full-life&step=3.0')
  const header = page.locator('header.topbar')
  for (const name of ['Open log…', ...PHONE_ACTIONS.filter((n) => n !== 'Copy link')])
    await expect(header.getByRole('button', { name, exact: true })).toBeVisible()
  await expect(header.getByRole('button', { name: 'Copy permalink to this step' })).toBeVisible()
  await expect(header.getByRole('button', { name: 'More', exact: true })).toBeHidden()
})

test('at 390×844 an edited copy keeps the one row: its badge beside the label, Restore original in More', async ({
  page,
}, info) => {
  await openLog(page, PHONE)
  await editedCopy(page)
  await (await headerAction(page, 'Edit…')).click()
  expect((await page.locator('header.topbar').boundingBox())!.height).toBeLessThanOrEqual(44)
  const controls = await headerControls(page)
  expect(Math.max(...controls.map((c) => c.top))).toBeLessThan(Math.min(...controls.map((c) => c.bottom)))
  await expect(page.locator('.source.edited .edited-badge')).toBeInViewport()
  await shot(page, info, 'header-390-edited')
  await (await headerAction(page, 'Restore original')).click()
  await expect(page.locator('.edited-badge')).toHaveCount(0)
  await expect(page.locator('.source')).toContainText('example valid-full-life')
  await expect((await moreMenu(page)).getByRole('menuitem', { name: 'Restore original' })).toHaveCount(0)
})

test('at 390×844 the header stays one row while a log opens by itself', async ({ page }) => {
  await page.setViewportSize({ width: 390, height: 844 })
  // The log the address names is held until the header has been measured.
  let release!: () => void
  const held = new Promise<void>((r) => (release = r))
  await page.route('**/held/log.json', async (route) => {
    await held
    await route.fulfill({ status: 200, contentType: 'application/json', body: fixture('valid-full-life.json') })
  })
  await page.goto(`/?url=${encodeURIComponent('/held/log.json')}`)
  await expect(page.getByRole('status', { name: 'Opening by itself' })).toContainText('Opening the log at')
  expect((await page.locator('header.topbar').boundingBox())!.height).toBeLessThanOrEqual(44)
  const controls = await headerControls(page)
  expect(Math.max(...controls.map((c) => c.top))).toBeLessThan(Math.min(...controls.map((c) => c.bottom)))
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390)
  release()
  await waitForLog(page)
  await expect(page.getByLabel('Open log', { exact: true })).toContainText('log.json')
})
