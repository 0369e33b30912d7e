/**
 * The replay worker's writes after an answer (src/worker/deferred-writes.ts: a log's
 * verdicts and its record) wait until the page has been idle a second; a page being hidden
 * (visibilitychange to hidden, pagehide) asks for them at once (src/app/trace/useInspector.ts).
 * Hidden while the page stays alive (another tab, a minimized window), the writes are done
 * before the idle wait could have ended, and a later load of the page reopens the log from
 * storage. A reload or a closed tab within the idle wait still loses them: Chromium ends the
 * worker a few milliseconds after the page's pagehide, before its IndexedDB transactions
 * commit (docs/app.md).
 */
import { expect, test } from './fixtures'
import { syntheticLogFile, waitForLog } from './helpers'

// Code inside page.evaluate runs in the page; tsconfig.node.json has no DOM lib.
declare const window: any, document: any, indexedDB: any

const N = 64

/** Opens the log file and waits until the page shows it; the replay's measure (src/app/trace/replay-client.ts) of it. */
async function openFile(page: import('@playwright/test').Page, file: string): Promise<{ cached: number }> {
  await page.getByRole('button', { name: 'Open log…' }).click()
  await page.getByLabel('Open a log file').setInputFiles(file)
  const name = file.split('/').at(-1)!
  const detail = await page.waitForFunction(
    ([name, head]) => {
      const m = performance.getEntriesByName('inspector: replay', 'measure').at(-1) as any
      if (m?.detail?.file !== name || document.querySelector('.busy')) return null
      return (document.querySelector('.timeline-head')?.textContent ?? '').includes(head) ? m.detail : null
    },
    [name, `· ${N} updates`] as const,
    { timeout: 60_000 },
  )
  return (await detail.jsonValue()) as { cached: number }
}

/** The log store's record of the file (src/storage/log-store.ts), when it has one: when it was saved. */
function savedAt(page: import('@playwright/test').Page, name: string): Promise<number | null> {
  return page.evaluate(
    (name) =>
      new Promise<number | null>((resolve, reject) => {
        const r = indexedDB.open('inbox-inspector-logs')
        r.onerror = () => reject(r.error)
        r.onsuccess = () => {
          const db = r.result
          if (!db.objectStoreNames.contains('logs')) {
            db.close()
            resolve(null)
            return
          }
          const all = db.transaction('logs', 'readonly').objectStore('logs').getAll()
          all.onerror = () => reject(all.error)
          all.onsuccess = () => {
            db.close()
            resolve(all.result.find((x: any) => x.name === name)?.savedAt ?? null)
          }
        }
      }),
    name,
  )
}

test(`a ${N}-update log, the page hidden right after it is shown: its writes are done at once, and a new load reopens it from storage`, async ({
  page,
}) => {
  const file = await syntheticLogFile(N)
  const name = file.split('/').at(-1)!
  await page.goto('/')
  await waitForLog(page)
  // The user is active from the open on (a key down every 100 ms; the page tells the worker
  // at most every 250 ms, replay-client.ts ACTIVITY_EVERY): the writes wait until a second
  // after the last activity the worker is told of (src/worker/deferred-writes.ts).
  await page.evaluate(() => {
    const w = window as any
    w.__active = setInterval(() => w.dispatchEvent(new w.KeyboardEvent('keydown', { key: 'Shift' })), 100)
  })
  const first = await openFile(page, file)
  expect(first.cached, 'a first open verifies every update').toBe(0)
  await page.waitForTimeout(300)
  expect(await savedAt(page, name), 'nothing written while the page is active').toBeNull()
  // The activity stops and the page is hidden (another tab is shown): the document says so
  // and fires visibilitychange.
  const hiddenAt = await page.evaluate(() => {
    const w = window as any
    clearInterval(w.__active)
    Object.defineProperty(document, 'visibilityState', { configurable: true, get: () => 'hidden' })
    document.dispatchEvent(new Event('visibilitychange'))
    return Date.now()
  })
  await expect.poll(() => savedAt(page, name), { timeout: 10_000 }).not.toBeNull()
  // Without the flush the first write waits until a second after the last activity, 750 ms after this at least.
  expect((await savedAt(page, name))! - hiddenAt, 'ms from hidden to the record written').toBeLessThan(600)
  // A new load of the page (its address without the log, so the demo opens first), the same file again.
  await page.goto('/')
  await waitForLog(page)
  const again = await openFile(page, file)
  expect(again.cached, "the reopen's updates answered from storage").toBe(N)
})
