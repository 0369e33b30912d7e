/**
 * Presenter mode (issue #12): entered from the header's Present button or from the address
 * (`#…&present`), one step per screen with its narration, stepped with the keyboard,
 * Escape back to the same step in the inspector; no request leaves the origin while
 * presenting; readable at 390 px; no motion under prefers-reduced-motion.
 */
import type { Page, Request } from '@playwright/test'
import { expect, expectNoA11yViolations, test } from './fixtures'
import { shot, summary, waitForLog } from './helpers'

// Code inside evaluate runs in the page; tsconfig.node.json has no DOM lib.
declare const document: any, getComputedStyle: any

const W1 = 'wallet 0x507c8c…d488'
const W2 = 'wallet 0xfe28ef…7a0c'

function presenter(page: Page) {
  return page.getByRole('main', { name: /^Presenting/ })
}
const progress = (page: Page) => presenter(page).locator('.presenter-progress')
const narration = (page: Page) => presenter(page).locator('.presenter-narration')

test('enter with the Present button, step with the keyboard, Escape back to the same step', async ({ page }, info) => {
  await page.setViewportSize({ width: 1440, height: 900 })
  await page.goto('/#example=valid-full-life&step=3.0')
  await waitForLog(page)
  await page.getByRole('button', { name: 'Present' }).click()
  await expect(presenter(page)).toBeVisible()
  await expect(presenter(page)).toBeFocused()
  await expect(page.locator('main.workspace')).toHaveCount(0)
  // valid-full-life: 13 updates, 14 actions; sequence id 3 is the fourth.
  await expect(progress(page)).toHaveText('Step 4 of 14')
  await expect(narration(page)).toHaveText(`Sequence id 3: the ${W1} adds ${W2} (applied)`)
  await expect(presenter(page).locator('.presenter-meta .badge')).toHaveText('applied')
  await expect(presenter(page).getByRole('list', { name: 'Changes' })).toContainText(`member ${W2}`)
  await expect(page).toHaveURL(/#example=valid-full-life&step=3\.0&present$/)
  await expectNoA11yViolations(page)
  await shot(page, info, 'presenter-1440x900')

  const steps: [string, string][] = [
    ['ArrowRight', 'Step 5 of 14'],
    ['Space', 'Step 6 of 14'],
    ['PageDown', 'Step 7 of 14'],
    ['ArrowDown', 'Step 8 of 14'],
    ['PageUp', 'Step 7 of 14'],
    ['ArrowLeft', 'Step 6 of 14'],
    ['ArrowUp', 'Step 5 of 14'],
    ['Shift+Space', 'Step 4 of 14'],
    ['End', 'Step 14 of 14'],
    ['ArrowRight', 'Step 14 of 14'], // the last step stays
    ['Home', 'Step 1 of 14'],
    ['ArrowLeft', 'Step 1 of 14'],
  ]
  for (const [key, text] of steps) {
    await page.keyboard.press(key)
    await expect(progress(page), `after ${key}`).toHaveText(text)
  }
  await expect(narration(page)).toHaveText(`Sequence id 1, action 0 of 2: the ${W1} creates the inbox (applied)`)
  await expect(presenter(page).getByRole('button', { name: /Previous/ })).toBeDisabled()

  // Sequence id 10: the revocation and its cascade (IDENT-044).
  for (let n = 0; n < 10; n++) await page.keyboard.press('ArrowRight')
  await expect(progress(page)).toHaveText('Step 11 of 14')
  await expect(narration(page)).toHaveText(
    `Sequence id 10: the ${W2} revokes ${W1}, and with it 1 installation it added (applied)`,
  )
  const changes = presenter(page).getByRole('list', { name: 'Changes' })
  await expect(changes).toContainText(`member ${W1}`)
  await expect(changes).toContainText('member installation 838d8f…7b51')

  await page.keyboard.press('Escape')
  await expect(presenter(page)).toHaveCount(0)
  await expect(summary(page)).toContainText('sequence id 10')
  await expect(
    page.getByRole('listbox', { name: /Updates and their actions/ }).getByRole('option', { selected: true }),
  ).toContainText('RevokeAssociation')
  await expect(page.getByRole('button', { name: 'Present' })).toBeFocused()
  await expect(page).toHaveURL(/#example=valid-full-life&step=10\.0$/)
})

test('enter from the address, at a rejected step; nothing leaves the origin, even offline', async ({
  page,
  context,
}) => {
  await page.goto('/#example=IDENT-040-add-signer-mismatch&step=2.0&present')
  await expect(presenter(page)).toBeVisible({ timeout: 30_000 })
  await expect(progress(page)).toHaveText('Step 3 of 4')
  await expect(narration(page)).toHaveText(
    `Sequence id 2: the ${W1} would add ${W2}, rejected under IDENT-040: the new member signature is by wallet 0x312965…3752, not by the member named (${W2})`,
  )
  await expect(presenter(page).locator('.presenter-meta .badge')).toHaveText('rejected')
  await expect(presenter(page).getByRole('heading', { name: 'What changed' })).toBeVisible()
  await expect(presenter(page)).toContainText('Nothing: the association state stays as it was before this update.')
  await expectNoA11yViolations(page)

  const origin = new URL(page.url()).origin
  const elsewhere: string[] = []
  const onRequest = (r: Request) => {
    if (!r.url().startsWith(`${origin}/`) && !/^(data|blob):/.test(r.url())) elsewhere.push(r.url())
  }
  page.on('request', onRequest)
  await context.setOffline(true)
  await page.keyboard.press('ArrowRight')
  await expect(progress(page)).toHaveText('Step 4 of 4')
  await expect(narration(page)).toHaveText(
    `Sequence id 3: the ${W1} would add ${W2}, not applied: the log stops at sequence id 2`,
  )
  await expect(presenter(page).locator('.presenter-meta .badge')).toHaveText('not applied')
  await page.keyboard.press('Home')
  await expect(progress(page)).toHaveText('Step 1 of 4')
  await page.getByRole('button', { name: /Next/ }).click()
  await expect(progress(page)).toHaveText('Step 2 of 4')
  await page.getByRole('button', { name: 'Back to the inspector (Esc)' }).click()
  await expect(summary(page)).toContainText('sequence id 1')
  await context.setOffline(false)
  page.off('request', onRequest)
  expect(elsewhere, 'requests that left the origin while presenting').toEqual([])
})

test('at 390 px the step stays readable, with no sideways scrolling', async ({ page }, info) => {
  await page.setViewportSize({ width: 390, height: 844 })
  await page.goto('/#example=IDENT-040-add-signer-mismatch&step=2.0&present')
  await expect(narration(page)).toContainText('rejected under IDENT-040')
  const size = await narration(page).evaluate((el) => Number.parseFloat(getComputedStyle(el).fontSize))
  expect(size).toBeGreaterThanOrEqual(20)
  await expect(narration(page)).toBeInViewport()
  const box = (await narration(page).boundingBox())!
  expect(box.x).toBeGreaterThanOrEqual(0)
  expect(box.x + box.width).toBeLessThanOrEqual(390)
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390)
  await expectNoA11yViolations(page)
  await shot(page, info, 'presenter-390x844')
})

test('a step enters with a short fade, and with none under prefers-reduced-motion', async ({ page }) => {
  const animation = () =>
    presenter(page)
      .locator('.presenter-step')
      .evaluate((el) => getComputedStyle(el).animationName)
  await page.goto('/#example=valid-full-life&present')
  await expect(presenter(page)).toBeVisible({ timeout: 30_000 })
  expect(await animation()).toBe('presenter-in')
  await page.emulateMedia({ reducedMotion: 'reduce' })
  await page.keyboard.press('ArrowRight')
  await expect(progress(page)).toHaveText('Step 2 of 14')
  expect(await animation()).toBe('none')
})
