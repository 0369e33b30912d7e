/**
 * The app with the keyboard alone (issue #12): Tab and Enter only, no mouse. Open a log
 * from the examples, select a step, read its signature text, open and close every drawer
 * and the `?` list, present and come back; at each stop the focus is visible and axe finds
 * no serious or critical violation.
 */
import type { Locator, Page } from '@playwright/test'
import { expect, expectNoA11yViolations, test } from './fixtures'
import { DESKTOP, openLog, PHONE, pressAndSee, summary, syntheticLogFile, waitForLog } from './helpers'

// Code inside evaluate runs in the page; tsconfig.node.json has no DOM lib.
declare const document: any,
  getComputedStyle: any,
  innerHeight: number,
  innerWidth: number,
  window: any,
  MutationObserver: any

/** Presses Tab (or Shift+Tab) until `target` has the focus; fails after `max` presses. */
async function tabTo(page: Page, target: Locator, { max = 300, back = false } = {}): Promise<void> {
  for (let n = 0; n < max; n++) {
    await page.keyboard.press(back ? 'Shift+Tab' : 'Tab')
    if (await target.evaluate((el) => el === document.activeElement).catch(() => false)) return
  }
  throw new Error(`${max} presses of Tab never reached ${target}`)
}

/**
 * The focused element shows a focus ring (outline or shadow, or the border of the
 * `.focus-ring` sibling drawn over it, as the timeline's list has) and is on screen.
 */
async function expectVisibleFocus(page: Page): Promise<void> {
  const focus = await page.evaluate(() => {
    const el = document.activeElement
    if (!el || el === document.body) return { what: 'nothing', ring: false, onScreen: false }
    const cs = getComputedStyle(el)
    const r = el.getBoundingClientRect()
    const sibling = el.nextElementSibling?.classList.contains('focus-ring') ? el.nextElementSibling : null
    const drawn = sibling ? getComputedStyle(sibling) : null
    return {
      what: `${el.tagName} ${(el.getAttribute('aria-label') ?? el.textContent ?? '').trim().slice(0, 60)}`,
      ring:
        (cs.outlineStyle !== 'none' && Number.parseFloat(cs.outlineWidth) > 0) ||
        cs.boxShadow !== 'none' ||
        (drawn !== null && drawn.borderTopStyle !== 'none' && Number.parseFloat(drawn.borderTopWidth) > 0),
      onScreen: r.width > 0 && r.bottom > 0 && r.right > 0 && r.top < innerHeight && r.left < innerWidth,
    }
  })
  expect(focus, `the focus ring of ${focus.what}`).toEqual({ what: focus.what, ring: true, onScreen: true })
}

const timeline = (page: Page) => page.getByRole('listbox', { name: /Updates and their actions/ })

test('keyboard only: open an example, select a step, read its signature text, every drawer', async ({ page }) => {
  test.setTimeout(240_000) // a few hundred key presses and seven axe scans, on a shared machine
  await openLog(page, DESKTOP)

  // The first Tab is the skip link.
  await page.keyboard.press('Tab')
  await expect(page.getByRole('link', { name: 'Skip to the selected step' })).toBeFocused()
  await expectVisibleFocus(page)

  // Open a log from the examples.
  const openButton = page.getByRole('button', { name: 'Open log…' })
  await tabTo(page, openButton)
  await expectVisibleFocus(page)
  await page.keyboard.press('Enter')
  const openPanel = page.getByRole('region', { name: 'Open a log' })
  await expect(openPanel).toBeFocused()
  await expectVisibleFocus(page)
  await expectNoA11yViolations(page)
  const example = page.getByRole('button', { name: 'Open example IDENT-040-add-signer-mismatch' })
  await tabTo(page, example)
  await expectVisibleFocus(page)
  await page.keyboard.press('Enter')
  await expect(page.getByLabel('Open log', { exact: true })).toContainText('example IDENT-040-add-signer-mismatch')
  await expect(openPanel).toHaveCount(0)
  await expect(openButton).toBeFocused() // back where the drawer was opened from
  await waitForLog(page)

  // Select a step: the timeline is one Tab stop, stepped with the arrow keys.
  await tabTo(page, timeline(page))
  await expectVisibleFocus(page)
  await page.keyboard.press('Home')
  await pressAndSee(page, 'ArrowRight', 'sequence id 2') // the next update: sequence id 2
  await expect(timeline(page).getByRole('option', { selected: true })).toContainText('AddAssociation')
  await expectNoA11yViolations(page)

  // Read its signature text: Tab to the step's views (one Tab stop, the open tab), arrow to
  // the Signature text tab, then Tab into it, to the signature text's own control.
  const views = page.getByRole('tablist', { name: 'Views of the selected step' })
  await tabTo(page, views.getByRole('tab', { selected: true }))
  await expectVisibleFocus(page)
  await page.keyboard.press('Home')
  await page.keyboard.press('ArrowRight')
  await page.keyboard.press('ArrowRight')
  await expect(views.getByRole('tab', { name: 'Signature text', exact: true })).toHaveAttribute('aria-selected', 'true')
  const sigtext = page.getByRole('region', { name: 'Signature text', exact: true })
  await tabTo(page, sigtext.getByRole('button').first())
  await expectVisibleFocus(page)
  const text = sigtext.getByLabel('Signature text as signed')
  await expect(text).toBeInViewport()
  await expect(text).toContainText('Current time: 2024-04-10T12:02:00Z')
  await expect(text).toContainText('- Link address to inbox')
  await expect(text).toContainText('(Address: 0xfe28ef281d27096905fc45901f4b26b59ae97a0c)')
  await expectNoA11yViolations(page)

  // The skip link lands on the step, keeping the step selected and the address.
  await tabTo(page, page.getByRole('link', { name: 'Skip to the selected step' }))
  await page.keyboard.press('Enter')
  await expect(page.locator('#step-details')).toBeFocused()
  await expectVisibleFocus(page)
  await expect(summary(page)).toContainText('sequence id 2')
  await expect(page).toHaveURL(/#example=IDENT-040-add-signer-mismatch&step=2\.0&tab=text$/)

  // Each drawer: opened with Enter, focus inside, Tab stays inside, Escape closes and returns.
  for (const [button, region] of [
    ['Open log…', 'Open a log'],
    ['Signers…', 'Signers'],
    ['Sign…', 'Signing playground'],
    ['Inbox tasks…', 'Inbox tasks'],
  ] as const) {
    const opener = page.getByRole('button', { name: button })
    await tabTo(page, opener)
    await expectVisibleFocus(page)
    await page.keyboard.press('Enter')
    const drawer = page.getByRole('region', { name: region, exact: true })
    await expect(drawer, `${region} takes the focus`).toBeFocused()
    await expectVisibleFocus(page)
    for (let n = 0; n < 12; n++) {
      await page.keyboard.press('Tab')
      expect(
        await drawer.evaluate((el) => el.closest('[data-drawer]')!.contains(document.activeElement)),
        `Tab ${n + 1} in ${region} stays in the drawer`,
      ).toBe(true)
      await expectVisibleFocus(page)
    }
    await expectNoA11yViolations(page)
    await page.keyboard.press('Escape')
    await expect(drawer).toHaveCount(0)
    await expect(opener, `focus back on ${button}`).toBeFocused()
  }

  // The ? list names the presenter's keys; Tab stays on its Close button; Escape gives the focus back.
  const present = page.getByRole('button', { name: 'Present' })
  await tabTo(page, present)
  await page.keyboard.press('?')
  const keys = page.getByRole('dialog', { name: 'Keyboard' })
  await expect(keys).toBeVisible()
  await expect(keys).toContainText('Presenter mode')
  await expect(keys).toContainText('back to the inspector, at the same step')
  await expect(keys.getByRole('button', { name: 'Close' })).toBeFocused()
  await page.keyboard.press('Tab')
  await expect(keys.getByRole('button', { name: 'Close' })).toBeFocused()
  await expectVisibleFocus(page)
  await expectNoA11yViolations(page)
  await page.keyboard.press('Escape')
  await expect(keys).toHaveCount(0)
  await expect(present).toBeFocused()

  // Present with Enter, step, and Escape back to the inspector at that step.
  await page.keyboard.press('Enter')
  const presenter = page.getByRole('main', { name: /^Presenting/ })
  await expect(presenter).toBeFocused()
  await page.keyboard.press('ArrowRight')
  await expect(presenter.locator('.presenter-progress')).toHaveText('Step 4 of 4')
  await tabTo(page, presenter.getByRole('button', { name: /Previous/ }))
  await expectVisibleFocus(page)
  await page.keyboard.press('Enter')
  await expect(presenter.locator('.presenter-progress')).toHaveText('Step 3 of 4')
  await expectNoA11yViolations(page)
  await page.keyboard.press('Escape')
  await expect(presenter).toHaveCount(0)
  await expect(summary(page)).toContainText('sequence id 2')
  await expect(present).toBeFocused()
})

test('keyboard only at 390 px: the drawers open from More, cover the page, and Tab stays in them', async ({ page }) => {
  test.setTimeout(120_000)
  await openLog(page, PHONE, '/#example=valid-full-life&step=3.0')
  // The header is one row: the drawers are items of its More menu (↓ opens it, ↓ moves, Enter picks).
  const opener = page.getByRole('button', { name: 'More', exact: true })
  const focused = (l: Locator) => l.evaluate((el) => el === document.activeElement)
  for (const [item, region] of [
    ['Sign…', 'Signing playground'],
    ['Signers…', 'Signers'],
  ] as const) {
    if (!(await focused(opener))) await tabTo(page, opener)
    await expectVisibleFocus(page)
    await page.keyboard.press('ArrowDown')
    const entry = page.getByRole('menu', { name: 'More' }).getByRole('menuitemcheckbox', { name: item, exact: true })
    for (let n = 0; n < 12 && !(await focused(entry)); n++) await page.keyboard.press('ArrowDown')
    await expect(entry).toBeFocused()
    await expectVisibleFocus(page)
    await page.keyboard.press('Enter')
    const drawer = page.getByRole('region', { name: region, exact: true })
    await expect(drawer).toBeFocused()
    // Every stop, once round: on screen with its ring, not under the Sign bar that sticks to the bottom.
    const seen = new Set<string>()
    for (let n = 0; n < 60; n++) {
      await page.keyboard.press('Tab')
      const stop = await page.evaluate(() => {
        const el = document.activeElement
        const r = el.getBoundingClientRect()
        const top = document.elementFromPoint(r.left + Math.min(r.width, 16) / 2, r.top + Math.min(r.height, 10) / 2)
        if (!el.dataset.kbStop) el.dataset.kbStop = String(document.querySelectorAll('[data-kb-stop]').length)
        return {
          id: el.dataset.kbStop as string,
          inDrawer: !!el.closest('[data-drawer]'),
          uncovered: !!top && (el.contains(top) || top.contains(el)),
          what: (el.getAttribute('aria-label') ?? el.textContent ?? '').trim().slice(0, 40),
        }
      })
      if (seen.has(stop.id)) break
      seen.add(stop.id)
      expect(stop.inDrawer, `${stop.what} is in the drawer`).toBe(true)
      expect(stop.uncovered, `${stop.what} is not covered`).toBe(true)
      await expectVisibleFocus(page)
    }
    expect(seen.size).toBeGreaterThan(3)
    await expectNoA11yViolations(page)
    await page.keyboard.press('Escape')
    await expect(opener).toBeFocused()
  }
})

test('each drawer has its key from the registry, listed under ?, and none is taken while typing', async ({ page }) => {
  await page.goto('/#example=valid-full-life&step=3.0')
  await waitForLog(page)
  for (const [key, drawer, button] of [
    ['o', 'open', 'Open log…'],
    ['s', 'signers', 'Signers…'],
    ['n', 'sign', 'Sign…'],
    ['a', 'audit', 'Audit…'],
    ['t', 'traffic', 'Node traffic…'],
    ['e', 'edit', 'Edit…'],
    ['i', 'flows', 'Inbox tasks…'],
  ] as const) {
    await page.keyboard.press(key)
    await expect(page.locator(`[data-drawer="${drawer}"]`), key).toBeVisible()
    await expect(page.getByRole('button', { name: button, exact: true })).toHaveAttribute('aria-expanded', 'true')
    await page.keyboard.press('Escape')
    await expect(page.locator(`[data-drawer="${drawer}"]`), key).toHaveCount(0)
  }
  // Typed into the filter, the letters are text.
  await page.keyboard.press('/')
  const filter = page.getByRole('searchbox', { name: /Filter by member or handle/ })
  await expect(filter).toBeFocused()
  await page.keyboard.type('snoat')
  await expect(filter).toHaveValue('snoat')
  await expect(page.locator('[data-drawer]')).toHaveCount(0)
  await filter.fill('')
  await page.keyboard.press('Escape')
  // The ? list is generated from the keymap: every drawer key is there with its drawer.
  await page.keyboard.press('?')
  const keys = page.getByRole('dialog', { name: 'Keyboard' })
  for (const [key, name] of [
    ['o', 'Open log'],
    ['s', 'Signers'],
    ['n', 'Sign'],
    ['i', 'Inbox tasks'],
  ])
    await expect(
      keys.locator('.kv-row').filter({ has: page.locator('dt', { hasText: new RegExp(`^${key}$`) }) }),
    ).toContainText(`${name}: open or close`)
  // Under the list (a modal), a drawer key opens nothing.
  await page.keyboard.press('s')
  await expect(page.locator('[data-drawer]')).toHaveCount(0)
  await page.keyboard.press('Escape')
  await expect(keys).toHaveCount(0)
})

test('opening another log leaves the log on screen at its step until the new one replaces it', async ({ page }) => {
  await openLog(page, DESKTOP)
  await page.getByRole('listbox', { name: /Updates and their actions/ }).focus()
  await pressAndSee(page, 'End', 'sequence id 13')
  // Every state the timeline passes through, from now until the new log shows.
  await page.evaluate(() => {
    const w = window as unknown as { __seen: string[] }
    w.__seen = []
    const note = () => {
      const head = document.querySelector('.timeline-head')?.textContent ?? ''
      const row = document.querySelector('[role=option][aria-selected=true]')?.textContent?.slice(0, 40) ?? 'none'
      const s = `${head.includes('256 updates') ? 'new' : 'old'}: ${row}`
      if (w.__seen.at(-1) !== s) w.__seen.push(s)
    }
    note()
    new MutationObserver(note).observe(document.body, { subtree: true, childList: true, attributes: true })
  })
  await page.getByRole('button', { name: 'Open log…' }).click()
  await page.getByLabel('Open a log file').setInputFiles(await syntheticLogFile(256))
  await expect(page.locator('.timeline-head')).toContainText('256 updates')
  await waitForLog(page)
  const seen: string[] = await page.evaluate(() => (window as unknown as { __seen: string[] }).__seen)
  const old = seen.filter((s) => s.startsWith('old: '))
  // The log shown before kept its last step selected all along (its selection was never the new log's).
  expect(new Set(old).size, JSON.stringify(seen)).toBe(1)
  expect(old[0]).toMatch(/^old: 13\D/)
})
