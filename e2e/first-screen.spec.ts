/**
 * What the first screen loads (against the built app): the JavaScript requested until the
 * inspector shows the demo log holds no wallet (wagmi, viem) or passkey (@simplewebauthn)
 * code; that code loads when a signing view opens. Deterministic (which chunks are
 * requested, not how long they take). It prints the first screen's JavaScript bytes as a
 * `BENCH-TARGET` line (scripts/bench.mjs collects it; the 500 KB target is a benchmark
 * figure, not asserted here).
 */
import type { Page, Response } from '@playwright/test'
import { expect, test } from './fixtures'
import { waitForLog } from './helpers'

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
}

/** Records every JavaScript response of `page` from now on, with the libraries in it. */
function recordScripts(page: Page): Script[] {
  const seen: Script[] = []
  const pending: Promise<void>[] = []
  page.on('response', (r: Response) => {
    const type = r.headers()['content-type'] ?? ''
    if (!/javascript/.test(type)) return
    pending.push(
      r.body().then(
        (b) => {
          const text = b.toString('utf8')
          seen.push({
            url: new URL(r.url()).pathname,
            bytes: b.length,
            libs: Object.keys(MARKERS).filter((k) => MARKERS[k]!.test(text)),
          })
        },
        () => undefined, // a response whose body went with its page
      ),
    )
  })
  Object.defineProperty(seen, 'settled', { value: () => Promise.all(pending) })
  return seen
}
const settled = (s: Script[]) => (s as unknown as { settled: () => Promise<void> }).settled()

test.describe('the first screen', () => {
  test('loads no wallet or passkey code before a signing view opens; the signers panel loads it', async ({ page }) => {
    const scripts = recordScripts(page)
    await page.goto('/')
    await waitForLog(page)
    await expect(page.getByText('example valid-full-life')).toBeVisible()
    await settled(scripts)
    const first = [...scripts]
    const bytes = first.reduce((k, s) => k + s.bytes, 0)
    // The workers' scripts (the replay worker and its verification workers) are counted too, and named apart.
    const workers = first.filter((s) => /\.worker-[^/]*\.js$/.test(s.url)).reduce((k, s) => k + s.bytes, 0)
    const target = 500 * 1024
    const kb = (n: number) => Math.round(n / 1024)
    console.log(
      `BENCH-TARGET ${JSON.stringify({ name: 'first-screen JavaScript (page + workers)', value: kb(bytes), unit: 'KB', target: '≤ 500', met: bytes <= target, detail: `page ${kb(bytes - workers)} KB, workers ${kb(workers)} KB, ${first.length} scripts` })}`,
    )
    console.log(`first-screen ${JSON.stringify(first.map((s) => `${s.url} ${s.bytes}`))}`)
    expect(first.length, 'the first screen loads JavaScript').toBeGreaterThan(0)
    expect(
      first.filter((s) => s.libs.length > 0).map((s) => `${s.url}: ${s.libs.join(', ')}`),
      'no wallet or passkey code on the first screen',
    ).toEqual([])

    // Opening a signing view loads them (the signers panel lists wallets and passkeys).
    await page.getByRole('button', { name: 'Signers…' }).click()
    await expect(page.getByRole('heading', { name: 'Signers', exact: true })).toBeVisible()
    await expect(page.getByText('Loading wallets and passkeys…')).toHaveCount(0)
    await settled(scripts)
    const later = scripts.slice(first.length).flatMap((s) => s.libs)
    expect(new Set(later)).toEqual(new Set(['wagmi', 'viem', '@simplewebauthn']))
  })
})
