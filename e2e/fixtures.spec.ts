/**
 * The guard every context runs under (./fixtures.ts `guardContext`), on a context made
 * outside the test fixture as the benchmarks make theirs: what it records fails the run.
 */
import { expect, guardContext, test } from './fixtures'

test.describe('guardContext', () => {
  test("records a fresh context's uncaught page errors and, when asked, its console errors", async ({ browser }) => {
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

  test('leaves console errors alone unless asked, and aborts requests that leave the machine', async ({ browser }) => {
    const context = await browser.newContext()
    try {
      const guard = await guardContext(context)
      const page = await context.newPage()
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
      await context.close()
    }
  })
})
