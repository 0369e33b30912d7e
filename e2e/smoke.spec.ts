import { expect, expectNoA11yViolations, test } from './fixtures'

test('the app opens on / with its heading and no serious accessibility violations', async ({ page }, testInfo) => {
  await page.goto('/')
  await expect(page.getByRole('heading', { name: 'Inbox Inspector', level: 1 })).toBeVisible()
  await expectNoA11yViolations(page)
  await page.screenshot({ path: testInfo.outputPath('smoke.png'), fullPage: true })
})
