/**
 * The guard every context runs under (./fixtures.ts `guardContext`), on a context made
 * outside the test fixture as the benchmarks make theirs, and through the `test` fixture
 * itself: what it records fails the run.
 */
import { expect, guardContext, test } from './fixtures'

test.describe('guardContext', () => {
  test("records a fresh context's uncaught page errors and console errors", async ({ browser }) => {
    const context = await browser.newContext()
    try {
      const guard = await guardContext(context, { consoleErrors: true })
      const page = await context.newPage()
      await page.setContent('<p>guarded</p>')
      guard.check()
      await page.evaluate(() => console.error('a console error'))
      expect(() => guard.check()).toThrow(/console errors in the page[\s\S]*a console error/)
      const second = await context.newPage()
      await second.evaluate(() =>
        setTimeout(() => {
          throw new Error('an uncaught error')
        }),
      )
      await expect
        .poll(() => {
          try {
            guard.check()
            return ''
          } catch (e) {
            return String(e)
          }
        })
        .toMatch(/uncaught errors in the page[\s\S]*an uncaught error/)
    } finally {
      await context.close()
    }
  })

  test('records console errors by default, leaves them alone when told, and aborts requests that leave the machine', async ({
    browser,
  }) => {
    const context = await browser.newContext()
    try {
      const guard = await guardContext(context)
      const page = await context.newPage()
      await page.evaluate(() => console.error('recorded by default'))
      expect(() => guard.check()).toThrow(/console errors in the page[\s\S]*recorded by default/)
    } finally {
      await context.close()
    }
    const quiet = await browser.newContext()
    try {
      const guard = await guardContext(quiet, { consoleErrors: false })
      const page = await quiet.newPage()
      await page.evaluate(() => console.error('not recorded'))
      guard.check()
      const failed = await page.evaluate(() =>
        fetch('https://example.com/').then(
          () => 'fetched',
          () => 'failed',
        ),
      )
      expect(failed).toBe('failed')
      expect(() => guard.check()).toThrow(/GET https:\/\/example.com\//)
    } finally {
      await quiet.close()
    }
  })

  test('allows the console errors an expected pattern matches, and fails on a pattern that matched none', async ({
    browser,
  }) => {
    const context = await browser.newContext()
    try {
      const guard = await guardContext(context, {
        expectedConsoleErrors: { 'the test logs it': /provoked on purpose/, 'a stale allowance': /never logged/ },
      })
      const page = await context.newPage()
      await page.evaluate(() => console.error('provoked on purpose'))
      // The first pattern is used, so only the second is reported.
      expect(() => guard.check()).toThrow(/did not occur[\s\S]*a stale allowance: \/never logged\//)
      expect(() => guard.check()).not.toThrow(/provoked on purpose/)
      await page.evaluate(() => console.error('something else'))
      expect(() => guard.check()).toThrow(/console errors in the page[\s\S]*something else/)
    } finally {
      await context.close()
    }
  })
})

test.describe('the test fixture', () => {
  test('guards every test against console errors by default, with no expected ones', ({
    consoleErrors,
    expectedConsoleErrors,
  }) => {
    expect(consoleErrors).toBe(true)
    expect(expectedConsoleErrors).toEqual({})
  })

  test('fails a test whose page logs a console error', async ({ page }) => {
    // The fixture's check after the test is what fails it; the body itself passes.
    test.fail()
    await page.setContent('<p>guarded</p>')
    await page.evaluate(() => console.error('an unexpected console error'))
  })

  test.describe(() => {
    test.use({ expectedConsoleErrors: { 'the test logs it': /an expected console error/ } })
    test('passes a test whose console error an expected pattern matches', async ({ page }) => {
      await page.setContent('<p>guarded</p>')
      await page.evaluate(() => console.error('an expected console error'))
    })
  })

  test.describe(() => {
    test.use({ expectedConsoleErrors: { 'a stale allowance': /a console error that never comes/ } })
    test('fails a test whose expected pattern matches no console error', async ({ page }) => {
      test.fail()
      await page.setContent('<p>guarded</p>')
    })
  })
})
