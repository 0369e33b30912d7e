/**
 * Issue #12, the workbench's step views: the selected step in WAI-ARIA tabs (keyboard,
 * kept from step to step and in the permalink, a rejected step opening where its failure
 * is explained), a diff between any two steps (Compare with…, a row pinned by shift-click
 * or `b`), the time slider, at 1440×900, 1280×720 (the signature text above the fold) and
 * 390×844, axe clean. Screenshots are artifacts.
 */
import type { Page } from '@playwright/test'
import { expect, expectNoA11yViolations, test } from './fixtures'
import { DESKTOP, openLog, pressAndSee, shot, summary, waitForLog } from './helpers'

// Code inside page.evaluate runs in the page; tsconfig.node.json (which checks e2e/) has no DOM lib.
declare const document: any

const tablist = (page: Page) => page.getByRole('tablist', { name: 'Views of the selected step' })
const tab = (page: Page, name: string) => tablist(page).getByRole('tab', { name, exact: true })
const timeline = (page: Page) => page.getByRole('listbox', { name: /Updates and their actions/ })

async function expectTab(page: Page, name: string): Promise<void> {
  await expect(tab(page, name)).toHaveAttribute('aria-selected', 'true')
  await expect(page.getByRole('tabpanel', { name, exact: true })).toBeVisible()
}

test('tabs by keyboard: arrows, Home/End, the choice kept from step to step and in the permalink', async ({
  page,
}, info) => {
  await openLog(page, DESKTOP)
  await expect(tablist(page).getByRole('tab')).toHaveText(['State', 'Diff', 'Signature text', 'Signatures', 'Raw'])
  await expectTab(page, 'State')
  await expect(page.getByRole('heading', { name: 'Who added whom' })).toBeVisible()
  await tab(page, 'State').focus()
  await page.keyboard.press('ArrowRight')
  await expectTab(page, 'Diff')
  await expect(tab(page, 'Diff')).toBeFocused()
  await expect(page.getByRole('heading', { name: 'Change from the previous step' })).toBeVisible()
  await page.keyboard.press('End')
  await expectTab(page, 'Raw')
  await expect(page.getByRole('region', { name: 'Raw update (protobuf)' })).toBeVisible()
  await page.keyboard.press('ArrowRight') // wraps to the first
  await expectTab(page, 'State')
  await page.keyboard.press('ArrowLeft') // and back to the last
  await expectTab(page, 'Raw')
  await page.keyboard.press('Home')
  await expectTab(page, 'State')
  // The tabs' arrows did not step the timeline.
  await expect(summary(page)).toContainText('sequence id 1 · action 0 of 2')
  await page.keyboard.press('ArrowRight')
  await page.keyboard.press('ArrowRight')
  await page.keyboard.press('ArrowRight')
  await expectTab(page, 'Signatures')
  await page.keyboard.press('Tab')
  await expect(page.getByRole('tabpanel', { name: 'Signatures' })).toBeFocused()

  // Another step keeps the tab.
  await timeline(page).focus()
  await pressAndSee(page, 'ArrowRight', 'sequence id 2')
  await expectTab(page, 'Signatures')
  await expect(page.getByRole('article', { name: /new member signature of action 0: valid/ })).toBeVisible()
  await expectNoA11yViolations(page)
  await shot(page, info, 'tabs-signatures-1440')

  // The permalink holds the tab: a reload opens the same step on the same tab.
  await expect.poll(() => new URL(page.url()).hash).toBe('#example=valid-full-life&step=2.0&tab=signatures')
  await page.reload()
  await waitForLog(page)
  await expect(summary(page)).toContainText('sequence id 2')
  await expectTab(page, 'Signatures')
})

test('a rejected step opens on what explains it, the fix-it above the tabs', async ({ page }, info) => {
  await openLog(page, DESKTOP, '/#example=IDENT-040-add-signer-mismatch&step=2.0')
  await expect(summary(page)).toContainText('rejected')
  // IDENT-040: the new member signature was made by another signer than the one added.
  await expectTab(page, 'Signatures')
  await expect(page.getByRole('article', { name: /new member signature of action 0/ })).toBeVisible()
  const fix = await page.getByRole('region', { name: 'Fix-it' }).boundingBox()
  const tabs = await tablist(page).boundingBox()
  expect(fix!.y + fix!.height).toBeLessThanOrEqual(tabs!.y)
  // An update whose bytes are the problem (IDENT-001, the retired field 4) opens on its raw fields.
  await page.goto('/#example=IDENT-001-signature-field-4-only')
  // Only the fragment changed: the page stays and opens the other example (wait for it, not
  // for any log, which the previous one already is).
  await expect(page.getByLabel('Open log', { exact: true })).toContainText('IDENT-001-signature-field-4-only', {
    timeout: 30_000,
  })
  await waitForLog(page)
  await expectTab(page, 'Raw')
  await expect(page.getByRole('region', { name: 'Raw update (protobuf)' }).getByText('retired field 4')).toBeVisible()
  await expectNoA11yViolations(page)
  await shot(page, info, 'tabs-rejected-raw-1440')
})

test('the Chain tab is there only beside erc_6492 signatures, and a signature card leads to it', async ({
  page,
}, info) => {
  await page.goto('/#example=IDENT-060-smart-wallet-valid')
  await waitForLog(page)
  await expect(tab(page, 'Chain')).toBeVisible()
  await tab(page, 'Signatures').click()
  const card = page.getByRole('region', { name: 'Signatures' }).getByRole('article').filter({ hasText: 'erc_6492' })
  await card.first().getByRole('button', { name: 'chain evidence' }).click()
  await expectTab(page, 'Chain')
  const chain = page.getByRole('region', { name: 'Chain evidence' })
  await expect(chain.getByRole('article').first()).toContainText('initial identifier signature')
  await expect(chain.locator('details.chain-evidence').first()).not.toHaveAttribute('open') // read on demand only
  await expectNoA11yViolations(page)
  await shot(page, info, 'tabs-chain-1440')
  await page.goto('/#example=valid-full-life')
  await waitForLog(page)
  await expect(tab(page, 'Raw')).toBeVisible()
  await expect(tab(page, 'Chain')).toHaveCount(0)
})

test('a diff between step 1 and the head, then back to the previous step', async ({ page }, info) => {
  await openLog(page, DESKTOP, '/#example=valid-full-life&step=13.0&tab=diff')
  await expect(summary(page)).toContainText('sequence id 13')
  await expectTab(page, 'Diff')
  const compare = page.getByRole('combobox', { name: 'Compare with…' })
  await expect(compare).toHaveValue('previous')
  await compare.selectOption({ label: 'after sequence id 1 (CreateInbox, AddAssociation)' })
  await expect(page.getByRole('heading', { name: 'Change between two steps' })).toBeVisible()
  const diff = page.getByRole('region', { name: 'Change between two steps' })
  await expect(diff.locator('.caption')).toHaveText(
    'From the state after action 1 of sequence id 1 to the state after sequence id 13.',
  )
  // The head (CLI: 4 members, recovery 0xfe28…, handles nick#2341 and nick, 3 claims, 20
  // replay keys) against the state after update 1 (the creator wallet and its installation).
  await expect(diff.getByRole('list', { name: 'Changes' }).getByRole('listitem')).toHaveText([
    '+ passkey 04754c…a45c added by 0x507c8c…d488',
    '+ wallet 0x312965…3752 added by 838d8f…7b51',
    '+ installation e315ba…40dd added by 04754c…a45c',
    '+ installation 47e804…5dc2 added by 0xfe28ef…7a0c',
    '− wallet 0x507c8c…d488 removed',
    '− installation 838d8f…7b51 removed (added by 0x507c8c…d488)',
    '~ recovery 0x507c8c…d488 — → 0xfe28ef…7a0c —',
    '+ handle nick#2341',
    '+ handle nick',
    '~ display handle — → nick',
    '~ claim count 0 → 3',
    '+ 18 replay keys recorded (IDENT-050)',
  ])
  await expectNoA11yViolations(page)
  await shot(page, info, 'tabs-diff-step1-head-1440')
  // The base stays while stepping: one update back, the change from step 1 is smaller by one installation.
  await timeline(page).focus()
  await pressAndSee(page, 'ArrowLeft', 'sequence id 12')
  await expect(diff.getByRole('listitem').filter({ hasText: '47e804' })).toHaveCount(0)
  await expect(diff.getByRole('listitem').filter({ hasText: 'e315ba' })).toHaveCount(1)
  await compare.selectOption('previous')
  await expect(page.getByRole('heading', { name: 'Change from the previous step' })).toBeVisible()
  await expect(page.getByRole('region', { name: 'Change from the previous step' }).getByRole('listitem')).toHaveText([
    '+ installation e315ba…40dd added by 04754c…a45c',
    '+ 2 replay keys recorded (IDENT-050)',
  ])
})

test('the time slider moves the selection, by keyboard and by value', async ({ page }) => {
  await page.goto('/')
  await waitForLog(page)
  const slider = page.getByRole('slider', { name: 'Time' })
  await expect(slider).toHaveAttribute('aria-valuetext', /^sequence id 1, update 1 of 13/)
  await slider.focus()
  await pressAndSee(page, 'ArrowRight', 'sequence id 2')
  await expect(timeline(page).getByRole('option', { selected: true })).toContainText('passkey')
  await pressAndSee(page, 'End', 'sequence id 13')
  await pressAndSee(page, 'Home', 'sequence id 1 · action 0 of 2')
  await slider.fill('5') // the update at index 5: sequence id 6, the claim of nick#2341
  await expect(summary(page)).toContainText('sequence id 6')
  await expect(slider).toHaveAttribute('aria-valuetext', /^sequence id 6, update 6 of 13/)
  // The timeline's keys move the slider with the selection.
  await timeline(page).focus()
  await page.keyboard.press('ArrowRight')
  await expect(slider).toHaveValue('6')
})

test('shift-click pins a row as the diff base (b for the selected row), documented in the ? list', async ({
  page,
}, info) => {
  await page.goto('/')
  await waitForLog(page)
  const row3 = timeline(page).getByRole('option').filter({ hasText: '0xfe28e' }).first()
  await row3.click({ modifiers: ['Shift'] })
  // Pinning keeps the selection.
  await expect(summary(page)).toContainText('sequence id 1 · action 0 of 2')
  await expect(row3).toContainText('diff base')
  await timeline(page)
    .getByRole('option', { name: /RevokeAssociation/ })
    .first()
    .click()
  await expect(summary(page)).toContainText('sequence id 10')
  await tab(page, 'Diff').click()
  await expect(page.getByRole('combobox', { name: 'Compare with…' })).toHaveValue('2:0')
  const diff = page.getByRole('region', { name: 'Change between two steps' })
  await expect(diff.locator('.caption')).toHaveText(
    'From the state after sequence id 3 to the state after sequence id 10.',
  )
  // From 3 to 10: the second wallet, the claims, the new installation and the recovery change joined;
  // the creator and its installation were revoked.
  await expect(diff.getByRole('listitem').filter({ hasText: 'removed' })).toHaveCount(2)
  await expect(diff.getByRole('listitem').filter({ hasText: /^\+ wallet 0x312965/ })).toHaveCount(1)
  await shot(page, info, 'tabs-pinned-1440')
  // Shift-click again unpins: the diff is the step's own again.
  await row3.click({ modifiers: ['Shift'] })
  await expect(row3).not.toContainText('diff base')
  await expect(page.getByRole('heading', { name: 'Change from the previous step' })).toBeVisible()
  // b pins the selected row from the keyboard.
  await timeline(page).focus()
  await page.keyboard.press('b')
  await expect(timeline(page).getByRole('option', { selected: true })).toContainText('diff base')
  await page.keyboard.press('ArrowRight')
  await expect(page.getByRole('heading', { name: 'Change between two steps' })).toBeVisible()
  await expect(page.getByRole('combobox', { name: 'Compare with…' })).toHaveValue('9:0')
  // The ? list documents it.
  await page.keyboard.press('?')
  const keys = page.getByRole('dialog', { name: 'Keyboard' })
  await expect(keys).toContainText('Shift-click')
  await expect(keys).toContainText('Diff tab’s base')
  await page.keyboard.press('Escape')
})

for (const [width, height] of [
  [1440, 900],
  [1280, 720],
  [390, 844],
] as const) {
  test(`at ${width}×${height}: the tabs, and the signature text in view when its tab is open`, async ({
    page,
  }, info) => {
    await openLog(page, { width, height })
    if (width < 900) await tablist(page).scrollIntoViewIfNeeded()
    await tab(page, 'Signature text').click()
    await expectTab(page, 'Signature text')
    const text = page.getByLabel('Signature text as signed')
    if (width >= 900) {
      // The workbench keeps the step beside the timeline: the text is above the fold.
      const box = await text.boundingBox()
      expect(box).not.toBeNull()
      expect(box!.y).toBeGreaterThanOrEqual(0)
      expect(box!.x + box!.width).toBeLessThanOrEqual(width)
      expect(box!.y + box!.height).toBeLessThanOrEqual(height)
    } else {
      await text.scrollIntoViewIfNeeded()
      await expect(text).toBeInViewport()
      const overflow = await page.evaluate(
        () => document.documentElement.scrollWidth - document.documentElement.clientWidth,
      )
      expect(overflow).toBeLessThanOrEqual(0)
    }
    await expectNoA11yViolations(page)
    await shot(page, info, `tabs-text-${width}x${height}`)
  })
}
