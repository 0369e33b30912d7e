/**
 * What the first screen loads (against the built app): the JavaScript requested until the
 * inspector shows the demo log holds no wallet (wagmi, viem) or passkey (@simplewebauthn)
 * code; that code loads when a signing view opens. Deterministic (which chunks are
 * requested, not how long they take; what the page prefetches once idle after the log shows
 * is left out). It prints the first screen's JavaScript bytes as a
 * `BENCH-TARGET` line, page and workers apart (scripts/bench.mjs collects it; the 500 KB target is a benchmark
 * figure, not asserted here).
 */
import type { Page, Response } from '@playwright/test'
import { expect, test } from './fixtures'
import { benchTarget, waitForLog } from './helpers'

/** Text only found in each library's code: its version banner or its documentation links. */
const MARKERS: Record<string, RegExp> = {
  wagmi: /@wagmi\/core@/,
  viem: /viem@/,
  '@simplewebauthn': /simplewebauthn\.dev\/docs/,
}

interface Script {
  readonly url: string
  readonly bytes: number
  readonly libs: string[]
  /** A worker's own script. */
  readonly worker: boolean
  /** The chunks it imports statically. */
  readonly imports: string[]
}

/**
 * Records every JavaScript response of `page` from now on, with the libraries in it, and
 * every worker's script: Playwright reports no response for the main script of a worker
 * started by a worker (the replay worker's verification workers), so a worker whose script
 * was not seen is fetched once from the server and counted.
 */
function recordScripts(page: Page): Script[] {
  const seen: Script[] = []
  const pending: Promise<void>[] = []
  const add = (url: string, b: Buffer, worker: boolean): void => {
    const text = b.toString('utf8')
    seen.push({
      url: new URL(url).pathname,
      bytes: b.length,
      libs: Object.keys(MARKERS).filter((k) => MARKERS[k]!.test(text)),
      worker,
      imports: [...text.matchAll(/(?:from|import)\s*"(\.\/[^"]+\.js)"/g)].map((m) => new URL(m[1]!, url).pathname),
    })
  }
  const responded = new Set<string>()
  const workers = new Set<string>()
  page.on('response', (r: Response) => {
    const type = r.headers()['content-type'] ?? ''
    if (!/javascript/.test(type)) return
    responded.add(r.url())
    pending.push(
      r.body().then(
        (b) => add(r.url(), b, workers.has(r.url())),
        () => undefined, // a response whose body went with its page
      ),
    )
  })
  page.on('worker', (w) => {
    workers.add(w.url())
    for (const s of seen) if (s.url === new URL(w.url()).pathname) (s as { worker: boolean }).worker = true
  })
  const fetched = new Set<string>()
  Object.defineProperty(seen, 'settled', {
    value: async () => {
      // Responses settled while more were pending add their own: wait until none is left.
      for (let n = 0; n < pending.length; n = pending.length) await Promise.all(pending.slice(n))
      for (const url of workers) {
        if (responded.has(url) || fetched.has(url)) continue
        fetched.add(url)
        add(url, await (await page.request.get(url)).body(), true)
      }
    },
  })
  return seen
}
const settled = (s: Script[]) => (s as unknown as { settled: () => Promise<void> }).settled()

/** The bytes of the workers' code: each worker's script and every chunk it imports, transitively. */
function workerBytes(scripts: readonly Script[]): number {
  const byUrl = new Map(scripts.map((s) => [s.url, s]))
  const inWorker = new Set<string>()
  const visit = (url: string): void => {
    if (inWorker.has(url)) return
    inWorker.add(url)
    for (const i of byUrl.get(url)?.imports ?? []) visit(i)
  }
  for (const s of scripts) if (s.worker) visit(s.url)
  // A chunk loaded in both realms (the same file) counts once per load: each realm evaluates its own.
  return scripts.filter((s) => inWorker.has(s.url)).reduce((k, s) => k + s.bytes, 0)
}

test.describe('the first screen', () => {
  test('loads no wallet or passkey code before a signing view opens; the signers panel loads it', async ({ page }) => {
    const scripts = recordScripts(page)
    await page.goto('/')
    await waitForLog(page)
    await expect(page.getByText('example valid-full-life')).toBeVisible()
    await settled(scripts)
    // The page's idle prefetch of the chunks one click away (src/app/shell/prefetch.ts) is not the first screen's.
    const prefetched = new Set(
      await page.evaluate(() => {
        const mark = performance.getEntriesByName('inspector: prefetch', 'mark')[0]
        if (!mark) return []
        return performance
          .getEntriesByType('resource')
          .filter((e) => e.startTime >= mark.startTime)
          .map((e) => new URL(e.name).pathname)
      }),
    )
    const seenFirst = scripts.length
    const first = scripts.filter((s) => s.worker || !prefetched.has(s.url))
    const bytes = first.reduce((k, s) => k + s.bytes, 0)
    // The workers' code (the replay worker, its verification workers and their chunks) is counted too, and named apart.
    const workers = workerBytes(first)
    const target = 500 * 1024
    const kb = (n: number) => Math.round(n / 1024)
    benchTarget({
      name: 'first-screen JavaScript (page + workers)',
      value: kb(bytes),
      unit: 'KB',
      target: '≤ 500',
      met: bytes <= target,
      detail: `page ${kb(bytes - workers)} KB, workers ${kb(workers)} KB, ${first.length} scripts; then ${kb(
        scripts.slice(0, seenFirst).reduce((k, s) => k + s.bytes, 0) - bytes,
      )} KB prefetched once idle`,
    })
    console.log(`first-screen ${JSON.stringify(first.map((s) => `${s.url} ${s.bytes}`))}`)
    expect(first.length, 'the first screen loads JavaScript').toBeGreaterThan(0)
    // Nor in what the page prefetches once idle: that code loads when a signing view opens.
    expect(
      scripts
        .slice(0, seenFirst)
        .filter((s) => s.libs.length > 0)
        .map((s) => `${s.url}: ${s.libs.join(', ')}`),
      'no wallet or passkey code on the first screen or in its prefetch',
    ).toEqual([])

    // Opening a signing view loads them (the signers panel lists wallets and passkeys).
    await page.getByRole('button', { name: 'Signers…' }).click()
    await expect(page.getByRole('heading', { name: 'Signers', exact: true })).toBeVisible()
    await expect(page.getByText('Loading wallets and passkeys…')).toHaveCount(0)
    await settled(scripts)
    const later = scripts.slice(seenFirst).flatMap((s) => s.libs)
    expect(new Set(later)).toEqual(new Set(['wagmi', 'viem', '@simplewebauthn']))
  })
})
