/**
 * Issue #12, rejections as fix-its: the rejected step shows what its check expected and
 * found as rows, the rationale of that check, a "To fix" line and where the would-be
 * signature text is. Screenshots at 1440×900 and 390 px are artifacts.
 */
import { expect, expectNoA11yViolations, test } from './fixtures'
import { shot, waitForLog } from './helpers'

for (const width of [1440, 390]) {
  test(`IDENT-040 at ${width} px: expected and found signer as rows, a fix, the signature text linked`, async ({
    page,
  }, info) => {
    await page.setViewportSize({ width, height: width === 390 ? 844 : 900 })
    await page.goto('/#example=IDENT-040-add-signer-mismatch')
    await waitForLog(page)
    const fix = page.getByRole('region', { name: 'Fix-it' })
    await expect(fix).toBeVisible()
    await expect(fix.locator('.fx-expected')).toContainText(/^ethereum 0x[0-9a-f]{40}$/)
    await expect(fix.locator('.fx-found')).toContainText(/^ethereum 0x[0-9a-f]{40}$/)
    const expected = await fix.locator('.fx-expected').textContent()
    expect(await fix.locator('.fx-found').textContent()).not.toBe(expected)
    await expect(fix).toContainText('new member signature')
    await expect(fix.locator('.to-fix')).toContainText(`To fix: Have ${expected} sign the new member signature`)
    await expect(page.getByRole('region', { name: /Rejected: IDENT-040/ }).locator('.why')).toContainText(
      'consent of the member being added',
    )
    // The rejected step opens on its signatures (the check that failed); the fix-it stays above the tabs.
    await expect(page.getByRole('tab', { name: 'Signatures' })).toHaveAttribute('aria-selected', 'true')
    await expectNoA11yViolations(page)
    await shot(page, info, `fixit-IDENT-040-${width}`)
    await fix.getByRole('button', { name: 'would-be signature text' }).click()
    await expect(page.getByRole('tab', { name: 'Signature text' })).toHaveAttribute('aria-selected', 'true')
    await expect(page.getByRole('tab', { name: 'Signature text' })).toBeFocused()
    await expect(page.getByLabel('Signature text as signed')).toBeVisible()
  })
}
