/**
 * The replay worker's writes after an answer (src/worker/deferred-writes.ts: a log's record
 * and its verdicts) wait until the page has been idle a second; a page being hidden or
 * unloaded asks for them at once (visibilitychange to hidden, pagehide:
 * src/app/trace/useInspector.ts). Hidden while the page lives on (another tab), the writes
 * are done before the idle wait could have ended; reloaded at once, the worker is ended
 * a few milliseconds after pagehide, and the log's record, put first, is kept. Either way
 * a later load of the page reopens the log from storage (the replay's measure counts its
 * updates as cached).
 */
import { expect, test } from './fixtures'
import { syntheticLogFile, waitForLog } from './helpers'

// Code inside page.evaluate runs in the page; tsconfig.node.json has no DOM lib.
declare const window: any, document: any, indexedDB: any

const N = 64
/** The reload's log: large enough that its record's put needs committing with its request (docs/performance.md). */
const RELOADED = 1000

/** Opens the log file and waits until the page shows it; the replay's measure (src/app/trace/replay-client.ts) of it. */
async function openFile(page: import('@playwright/test').Page, file: string, n = N): Promise<{ cached: number }> {
  await page.getByRole('button', { name: 'Open log…' }).click()
  await page.getByLabel('Open a log file').setInputFiles(file)
  const name = file.split('/').at(-1)!
  const detail = await page.waitForFunction(
    ([name, head]) => {
      const m = performance.getEntriesByName('inspector: replay', 'measure').at(-1) as any
      if (m?.detail?.file !== name || document.querySelector('.busy')) return null
      return (document.querySelector('.timeline-head')?.textContent ?? '').includes(head) ? m.detail : null
    },
    [name, `· ${n.toLocaleString('en')} updates`] as const,
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

test(`a ${N}-update log, the page hidden while the user is active: its writes are done at once, and a new load reopens it from storage`, async ({
  page,
}) => {
  const file = await syntheticLogFile(N)
  const name = file.split('/').at(-1)!
  await page.goto('/')
  await waitForLog(page)
  // The user is active from the open on and stays so (a key down every 100 ms; the page
  // tells the worker at most every 250 ms, replay-client.ts ACTIVITY_EVERY): the writes
  // wait for a second without activity, or a minute after the answer (src/worker/deferred-writes.ts).
  await page.evaluate(() => {
    const w = window as any
    w.__active = setInterval(() => w.dispatchEvent(new w.KeyboardEvent('keydown', { key: 'Shift' })), 100)
  })
  const first = await openFile(page, file)
  expect(first.cached, 'a first open verifies every update').toBe(0)
  expect(await savedAt(page, name), 'nothing written while the page is active').toBeNull()
  // The page is hidden (another tab is shown): the document says so and fires visibilitychange.
  await page.evaluate(() => {
    Object.defineProperty(document, 'visibilityState', { configurable: true, get: () => 'hidden' })
    document.dispatchEvent(new Event('visibilitychange'))
  })
  // Written while the activity goes on: only the flush the page asked for writes now.
  await expect
    .poll(() => savedAt(page, name), { message: "the log's record, written while the page is hidden", timeout: 4000 })
    .not.toBeNull()
  await page.evaluate(() => clearInterval((window as any).__active))
  // A new load of the page (its address without the log, so the demo opens first), the same file again.
  await page.goto('/')
  await waitForLog(page)
  const again = await openFile(page, file)
  expect(again.cached, "the reopen's updates answered from storage").toBe(N)
})

test(`a ${RELOADED.toLocaleString('en')}-update log and the page reloaded at once: the reopen reads the log's record from storage`, async ({
  page,
}) => {
  const file = await syntheticLogFile(RELOADED)
  const name = file.split('/').at(-1)!
  await page.goto('/')
  await waitForLog(page)
  const first = await openFile(page, file, RELOADED)
  expect(first.cached, 'a first open verifies every update').toBe(0)
  expect(await savedAt(page, name), 'nothing written before the reload').toBeNull()
  // At once, inside the writes' idle wait. A new load of the page rather than reload(): the
  // address may carry the log by now (#log=), which a reload would open by itself.
  await page.goto('/')
  await waitForLog(page)
  const again = await openFile(page, file, RELOADED)
  expect(again.cached, "the reopen's updates answered from storage").toBe(RELOADED)
})
