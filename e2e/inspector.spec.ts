/**
 * The inspector (issue 3) in Chromium against the production build: opening logs
 * every way, stepping with the keyboard, the diff, a rejected log's rule, permalinks,
 * exports, the raw view, themes and accessibility. Screenshots are test artifacts.
 */
import { readFileSync } from 'node:fs'
import { expect, expectNoA11yViolations, failedToLoad, test } from './fixtures'
import { fixture, pasteLog, pressAndSee, shot, summary, syntheticLogFile, waitForLog, watchCsp } from './helpers'

// Code inside page.evaluate runs in the page; tsconfig.node.json (which checks e2e/) has no DOM lib.
declare const window: any, document: any, DataTransfer: any, history: any, MutationObserver: any

test.describe('the inspector', () => {
  test('opens on the demo log with no CSP violation and no serious accessibility violation, in light and dark', async ({
    page,
  }, info) => {
    const csp = await watchCsp(page)
    await page.goto('/')
    await expect(page.getByRole('heading', { name: 'Inbox Inspector', level: 1 })).toBeVisible()
    await waitForLog(page)
    await expect(page.getByText('example valid-full-life')).toBeVisible()
    await expect(page.getByText('every update applies')).toBeVisible()
    await expect(summary(page)).toContainText('sequence id 1')
    await expect(page.getByRole('heading', { name: 'Association state' })).toBeVisible()
    await expect(page.getByRole('heading', { name: 'Who added whom' })).toBeVisible()
    await expect(page.getByRole('img', { name: /Who added whom: 1 members, 1 added by this step/ })).toBeVisible()
    await page.getByRole('tab', { name: 'Signature text' }).click()
    await expect(page.locator('.sigtext-body .line.hl')).toHaveCount(2)
    await expect(page.locator('.byte-length')).toHaveText(/^\d+ bytes$/)
    await expectNoA11yViolations(page)
    await shot(page, info, 'demo-light')
    // The first click always changes the look: system (light here) → dark (issue #12).
    await page.getByRole('button', { name: /^Theme: system \(light\)/ }).click()
    await expect(page.locator('html')).toHaveAttribute('data-theme', 'dark')
    await expectNoA11yViolations(page)
    await shot(page, info, 'demo-dark')
    expect(await csp()).toEqual([])
  })

  test('steps with arrow keys, j/k, Home/End and shows the diff of each step', async ({ page }, info) => {
    await page.goto('/')
    await waitForLog(page)
    const listbox = page.getByRole('listbox', { name: /Updates and their actions/ })
    // The Diff tab stays open while stepping; the timeline takes the keys again once focused.
    await page.getByRole('tab', { name: 'Diff' }).click()
    await listbox.focus()
    await pressAndSee(page, 'ArrowDown', 'action 1 of 2') // seq 1 action 1: add installation
    await expect(page.locator('.diff li.mark-added')).toContainText(['installation'])
    await pressAndSee(page, 'j', 'sequence id 2') // seq 2: passkey
    await expect(page.locator('.diff')).toContainText('passkey')
    await page.getByRole('tab', { name: 'State' }).click()
    await listbox.focus()
    await expect(page.locator('.members tr.mark-added')).toHaveCount(1)
    await pressAndSee(page, 'k', 'action 1 of 2')
    await pressAndSee(page, 'End', 'sequence id 13')
    await pressAndSee(page, 'Home', 'sequence id 1')
    // step to the revocation (seq 10): the cascade removes the wallet and its installation (IDENT-044)
    for (let n = 0; n < 10; n++) await page.keyboard.press('ArrowDown')
    await expect(summary(page)).toContainText('sequence id 10')
    await expect(page.locator('.members tr.mark-removed')).toHaveCount(2)
    await expect(page.locator('.tree .node.mark-removed')).toHaveCount(2)
    await page.getByRole('tab', { name: 'Diff' }).click()
    await expect(page.locator('.diff li.mark-removed')).toHaveCount(2)
    await shot(page, info, 'revocation-cascade')
    // click a row
    await page.getByRole('option', { name: /nick#2341/ }).click()
    await expect(summary(page)).toContainText('sequence id 6')
    // '/' focuses the filter
    await page.keyboard.press('/')
    await expect(page.getByRole('searchbox', { name: /Filter by member or handle/ })).toBeFocused()
  })

  test('stepping does not fetch the icon again at each address change: it is in the page', async ({ page }) => {
    await page.goto('/#example=valid-full-life&step=1.0')
    await waitForLog(page)
    const listbox = page.getByRole('listbox', { name: /Updates and their actions/ })
    await listbox.focus()
    await pressAndSee(page, 'ArrowDown', 'action 1 of 2')
    await expect(page).toHaveURL(/#example=valid-full-life&step=1\.1$/)
    // Chromium reads the page's icon again after each replaceState of the address; a
    // linked icon was a request per step (and a console error per step when offline).
    // The build's chunks (/assets/) still load in the background meanwhile.
    const requests: string[] = []
    page.on('request', (r) => {
      if (!new URL(r.url()).pathname.startsWith('/assets/')) requests.push(r.url())
    })
    for (const [key, step] of [
      ['j', '2.0'],
      ['j', '3.0'],
      ['k', '2.0'],
      ['End', '13.0'],
    ] as const) {
      await page.keyboard.press(key)
      await expect(page).toHaveURL(new RegExp(`#example=valid-full-life&step=${step.replace('.', '\\.')}$`))
    }
    expect(requests).toEqual([])
  })

  test('the display handle names the inbox and the others are secondary (IDENT-086, IDENT-087)', async ({ page }) => {
    await page.goto('/#example=valid-full-life&step=7.0')
    await waitForLog(page)
    await expect(summary(page)).toContainText('sequence id 7')
    await expect(page.locator('.inbox-name .display-handle')).toHaveText('nick')
    await expect(page.getByRole('list', { name: 'Handles, display handle first' }).getByRole('listitem')).toHaveText([
      /nick\s*display/,
      'nick#2341',
    ])
  })

  test('filters the timeline by kind, status and member', async ({ page }) => {
    await page.goto('/')
    await waitForLog(page)
    const list = page.getByRole('listbox', { name: /Updates and their actions/ })
    await page.getByRole('combobox', { name: 'Filter by action kind' }).selectOption('claim_handle')
    await expect(list.getByRole('option')).toHaveCount(3)
    await page.getByRole('combobox', { name: 'Filter by action kind' }).selectOption('')
    await page.getByRole('searchbox', { name: /Filter by member or handle/ }).fill('nick#2341')
    await expect(list.getByRole('option')).toHaveCount(1)
    await page.getByRole('searchbox', { name: /Filter by member or handle/ }).fill('')
    await page.getByRole('combobox', { name: 'Filter by status' }).selectOption('rejected')
    await expect(list.getByRole('option')).toHaveCount(0)
    await expect(page.getByText('No action matches the filter.')).toBeVisible()
  })

  test('a rejected log shows IDENT-040 with its title and requirement, and the log stops there', async ({
    page,
  }, info) => {
    await page.goto('/')
    await waitForLog(page)
    await page.getByRole('button', { name: 'Open log…' }).click()
    await page.getByRole('button', { name: 'Open example IDENT-040-add-signer-mismatch' }).click()
    await waitForLog(page)
    await expect(page.getByText('stops at sequence id 2: IDENT-040')).toBeVisible()
    const rej = page.getByRole('region', { name: /Rejected: IDENT-040/ })
    await expect(rej.getByRole('heading')).toHaveText('Rejected: IDENT-040 Both parties approve an add')
    await expect(rej.getByRole('blockquote', { name: 'Requirement of IDENT-040' })).toContainText(
      'If an AddAssociation’s new_member_signature signer differs from new_member_identifier',
    )
    await expect(rej).toContainText('action 0 (AddAssociation)')
    await expect(rej.locator('.found')).toContainText('differs from new_member_identifier')
    await expect(page.locator('.tl-stop')).toContainText(
      'The log stops at sequence id 2 (rejected under IDENT-040). The 1 later update is not applied',
    )
    await expectNoA11yViolations(page)
    await shot(page, info, 'rejected-IDENT-040')
    await pressAndSee(page, 'j', 'not applied')
    await expect(page.getByRole('region', { name: 'Not applied' })).toContainText(
      'log cannot be read past sequence id 2',
    )
  })

  test('pasted garbage lists every format tried and where it failed; the app stays usable', async ({ page }, info) => {
    await page.goto('/')
    await waitForLog(page)
    await pasteLog(page, 'this is not a log {')
    const alert = page.getByRole('alert')
    await expect(alert).toContainText('The pasted text could not be opened')
    // The error is in the Open drawer, where the text was pasted, not under it.
    const drawer = page.locator('[data-drawer="open"]')
    await expect(drawer.getByRole('alert')).toContainText('The pasted text could not be opened')
    const table = alert.getByRole('table', { name: 'Formats tried and why each failed' })
    await expect(table).toBeVisible()
    await expect(table.getByRole('row')).not.toHaveCount(1)
    for (const f of ['JSON', 'PostgreSQL CSV export', 'hex text', 'base64 text'])
      await expect(table.getByRole('cell', { name: f, exact: true })).toBeVisible()
    await expect(table).toContainText('line 1 column')
    await shot(page, info, 'garbage-paste')
    // the previous log is still open and stepping still works
    await expect(page.getByText('example valid-full-life')).toBeVisible()
    await page.getByRole('listbox', { name: /Updates and their actions/ }).focus()
    await pressAndSee(page, 'j', 'action 1 of 2')
    // a truncated binary file names the format and the byte offset
    const pb = fixture('valid-full-life.pb')
    await page
      .getByLabel('Open a log file')
      .setInputFiles({ name: 'cut.pb', mimeType: 'application/octet-stream', buffer: pb.subarray(0, pb.length - 7) })
    await expect(page.getByRole('alert')).toContainText('file cut.pb could not be opened')
    await expect(page.getByRole('alert')).toContainText(/byte \d+/)
    // Closed, the drawer leaves the error on the page, above the inspector, until dismissed.
    await drawer.getByRole('button', { name: 'Close the open panel' }).click()
    await expect(drawer).toHaveCount(0)
    await expect(page.getByRole('alert')).toContainText('file cut.pb could not be opened')
    await page.getByRole('button', { name: 'Dismiss the error' }).click()
    await expect(page.getByRole('alert')).toHaveCount(0)
  })

  test('pastes a log bundle and a permalink keeps the log and the step across a reload', async ({ page }) => {
    await page.goto('/')
    await waitForLog(page)
    await pasteLog(page, fixture('IDENT-002-whole-update-or-nothing.json').toString('utf8'))
    await waitForLog(page)
    await expect(page.getByText('The pasted text')).toBeVisible()
    await page.keyboard.press('Home')
    await page.keyboard.press('j')
    // Home then j: the second action of sequence id 1. The address bar takes a step once
    // stepping pauses (a few frames later), so the reload waits for it.
    await expect(summary(page)).toContainText('sequence id 1 · action 1 of 2')
    const before = await summary(page).textContent()
    await expect.poll(() => page.url()).toMatch(/#log=[A-Za-z0-9_-]+&step=1\.1$/)
    const url = page.url()
    expect(url).not.toContain('update_hex') // compressed, not the raw text
    // Every address the page writes after the reload: none drops the log it carries (while
    // the reopened log is compressed again, the address it came with stays).
    await page.addInitScript(() => {
      const replace = history.replaceState.bind(history)
      window.__addresses = []
      history.replaceState = (data: unknown, unused: string, address?: string | null) => {
        window.__addresses.push(String(address))
        replace(data, unused, address)
      }
    })
    await page.reload()
    await waitForLog(page)
    await expect(page.getByText('the permalink')).toBeVisible()
    await expect(summary(page)).toHaveText(before!)
    expect(page.url()).toBe(url)
    // Once the permalink is ready again (Copy link), the page has written nothing that lost the log.
    await expect(page.getByRole('button', { name: 'Copy permalink to this step' })).toBeVisible()
    expect(page.url()).toBe(url)
    const written: string[] = await page.evaluate(() => window.__addresses)
    expect(
      written.filter((a) => !a.includes('#log=')),
      'addresses written without the log',
    ).toEqual([])
    // a damaged permalink is a clear error, not a crash
    await page.goto('/#log=AAAA_not-deflate&step=1.0')
    await expect(page.getByRole('alert')).toContainText('The permalink could not be opened')
  })

  test('opens a binary file through the file input and by dropping it', async ({ page }) => {
    await page.goto('/')
    await waitForLog(page)
    await page.getByRole('button', { name: 'Open log…' }).click()
    await page.getByLabel('Open a log file').setInputFiles({
      name: 'IDENT-050-replay-after-revocation.pb',
      mimeType: 'application/octet-stream',
      buffer: fixture('IDENT-050-replay-after-revocation.pb'),
    })
    await waitForLog(page)
    await expect(page.getByText('file IDENT-050-replay-after-revocation.pb')).toBeVisible()
    await expect(page.getByText(/stops at sequence id \d+: IDENT-050/)).toBeVisible()
    // drop
    const b64 = fixture('valid-full-life.json').toString('base64')
    const dt = await page.evaluateHandle((data) => {
      const bin = atob(data)
      const bytes = new Uint8Array(bin.length)
      for (let i = 0; i < bin.length; i++) bytes[i] = bin.charCodeAt(i)
      const t = new DataTransfer()
      t.items.add(new File([bytes], 'dropped.json', { type: 'application/json' }))
      return t
    }, b64)
    await page.locator('.workspace').dispatchEvent('drop', { dataTransfer: dt })
    await expect(page.getByText('file dropped.json')).toBeVisible()
    await waitForLog(page)
    await expect(page.getByText('every update applies')).toBeVisible()
  })

  test('the Open panel closes in the commit that shows the opened log, not a frame before it', async ({ page }) => {
    await page.goto('/')
    await waitForLog(page)
    await page.getByRole('button', { name: 'Open log…' }).click()
    await expect(page.getByLabel('Open a log file')).toBeAttached()
    // Each MutationObserver callback is one batch of DOM changes (a commit and what its
    // layout effects render before the paint): record in which batch the drawer left and
    // in which the new log's verdict appeared.
    await page.evaluate(() => {
      const seen: { drawerGone?: number; logShown?: number } = {}
      window.__closeOrder = seen
      let batch = 0
      new MutationObserver(() => {
        batch++
        if (seen.drawerGone === undefined && !document.querySelector('[data-drawer="open"]')) seen.drawerGone = batch
        if (
          seen.logShown === undefined &&
          /stops at sequence id \d+: IDENT-050/.test(document.querySelector('.topbar')?.textContent ?? '')
        )
          seen.logShown = batch
      }).observe(document.body, { subtree: true, childList: true, characterData: true })
    })
    await page.getByLabel('Open a log file').setInputFiles({
      name: 'IDENT-050-replay-after-revocation.pb',
      mimeType: 'application/octet-stream',
      buffer: fixture('IDENT-050-replay-after-revocation.pb'),
    })
    await waitForLog(page)
    await expect(page.getByText(/stops at sequence id \d+: IDENT-050/)).toBeVisible()
    const order = await page.evaluate(() => window.__closeOrder)
    expect(order.logShown, 'the new log showed').toBeDefined()
    expect(order.drawerGone).toBe(order.logShown)
  })

  test.describe(() => {
    test.use({
      expectedConsoleErrors: {
        'the second address is routed to a 404': failedToLoad(
          'the server responded with a status of 404 (Not Found)',
          `http://localhost:${process.env.E2E_PORT}/served/missing.json`,
        ),
        'the third address names a port Chromium refuses': failedToLoad(
          'net::ERR_UNSAFE_PORT',
          'http://127.0.0.1:9/nothing.json',
        ),
      },
    })
    test('opens a log from ?url= (same origin) and explains an unreachable URL', async ({ page, baseURL }) => {
      await page.route('**/served/full-life.json', (route) =>
        route.fulfill({ body: fixture('valid-full-life.gateway.json'), contentType: 'application/json' }),
      )
      await page.goto(`/?url=${encodeURIComponent(`${baseURL}/served/full-life.json`)}`)
      await waitForLog(page)
      await expect(page.getByText(/URL .*served\/full-life\.json/)).toBeVisible()
      await expect(page.getByText('every update applies')).toBeVisible()
      await page.keyboard.press('j')
      await expect(page).toHaveURL(/\?url=.*#step=1\.1$/)
      await page.route('**/served/missing.json', (route) => route.fulfill({ status: 404, body: 'no' }))
      await page.goto(`/?url=${encodeURIComponent(`${baseURL}/served/missing.json`)}`)
      await expect(page.getByRole('alert')).toContainText('answered 404')
      await page.goto(`/?url=${encodeURIComponent('http://127.0.0.1:9/nothing.json')}`)
      await expect(page.getByRole('alert')).toContainText('could not fetch http://127.0.0.1:9/nothing.json')
    })
  })

  test('exports the bundle JSON, the selected update as hex and base64, and the report JSON', async ({ page }) => {
    await page.goto('/#example=valid-full-life&step=2.0')
    await waitForLog(page)
    const grab = async (name: RegExp) => {
      const [d] = await Promise.all([page.waitForEvent('download'), page.getByRole('button', { name }).click()])
      return { name: d.suggestedFilename(), text: readFileSync((await d.path())!, 'utf8') }
    }
    const bundle = await grab(/^Bundle JSON$/)
    expect(bundle.name).toBe('valid-full-life.bundle.json')
    expect(JSON.parse(bundle.text)).toEqual(JSON.parse(fixture('valid-full-life.json').toString('utf8')))
    const hex = await grab(/Selected update 2 as hex/)
    expect(hex.name).toBe('valid-full-life.update-2.hex')
    const expected = JSON.parse(fixture('valid-full-life.json').toString('utf8')).updates[1].update_hex
    expect(hex.text.trim()).toBe(expected)
    const b64 = await grab(/Selected update 2 as base64/)
    expect(Buffer.from(b64.text.trim(), 'base64').toString('hex')).toBe(expected)
    const report = await grab(/^Report JSON$/)
    const r = JSON.parse(report.text)
    expect(r.ok).toBe(true)
    expect(r.updates).toHaveLength(13)
    expect(r.state.handles).toEqual(['nick#2341', 'nick'])
  })

  test('the raw view flags the retired Signature field 4 (IDENT-001) with offsets and hex', async ({ page }, info) => {
    await page.goto('/#example=IDENT-001-signature-field-4-only')
    await waitForLog(page)
    const raw = page.getByRole('region', { name: 'Raw update (protobuf)' })
    await expect(raw.locator('.badge.flag-retired')).toHaveCount(1)
    await expect(raw.getByText('retired field 4')).toBeVisible()
    await expect(raw).toContainText('legacy delegated signature')
    await expect(raw.locator('.off').first()).toHaveText('@0')
    await expect(page.getByRole('region', { name: /Rejected: IDENT-001/ })).toBeVisible()
    await shot(page, info, 'raw-field-4')
  })

  test('signatures show kind, signer, verdict, replay key and the evidence hashed', async ({ page }) => {
    await page.goto('/#example=valid-full-life&step=2.0')
    await waitForLog(page)
    await page.getByRole('tab', { name: 'Signatures' }).click()
    const sigs = page.getByRole('region', { name: 'Signatures' })
    const passkey = sigs.getByRole('article', { name: /new member signature of action 0: valid/ })
    await expect(passkey).toContainText('passkey (WebAuthn P-256)')
    await passkey.getByText('What was hashed and checked').click()
    await expect(passkey).toContainText('expected challenge')
    await expect(passkey).toContainText('client data challenge')
    const wallet = sigs.getByRole('article', { name: /existing member signature of action 0: valid/ })
    await wallet.getByText('What was hashed and checked').click()
    await expect(wallet).toContainText('EIP-191 digest')
    await expect(wallet.getByRole('button', { name: /Copy replay key/ })).toBeVisible()
  })

  test('is usable on a 390-pixel-wide phone', async ({ page }, info) => {
    await page.setViewportSize({ width: 390, height: 844 })
    await page.goto('/#example=IDENT-040-add-signer-mismatch')
    await waitForLog(page)
    await expect(page.getByRole('region', { name: /Rejected: IDENT-040/ })).toBeVisible()
    const overflow = await page.evaluate(
      () => document.documentElement.scrollWidth - document.documentElement.clientWidth,
    )
    expect(overflow).toBeLessThanOrEqual(0)
    await expectNoA11yViolations(page)
    await shot(page, info, 'phone')
  })
})

test.describe('the inspector with logs from outside', () => {
  test('shows everything in a log as text, never as markup', async ({ page }) => {
    const { syntheticBundle } = await import('./synthetic-log')
    const evil = '<img src=x onerror="window.__pwned=1">'
    const bundle = await syntheticBundle(4, { passkeyOrigin: evil })
    await page.goto('/')
    await waitForLog(page)
    await pasteLog(page, bundle)
    await waitForLog(page)
    await page.keyboard.press('End')
    await expect(page.locator('.members').getByText(evil)).toBeVisible()
    await page.keyboard.press('Home')
    await page.keyboard.press('j')
    await page.keyboard.press('j') // seq 3: the passkey is added; its client data names the origin
    await page.getByRole('tab', { name: 'Signatures' }).click()
    await page
      .getByRole('article', { name: /new member signature of action 0/ })
      .getByText('What was hashed and checked')
      .click()
    await expect(page.getByRole('article', { name: /new member signature of action 0/ })).toContainText(evil)
    expect(await page.locator('img').count()).toBe(0)
    expect(await page.evaluate(() => (window as unknown as { __pwned?: number }).__pwned)).toBeUndefined()
  })

  test('opens the real-world xmtpd CSV export: one log per inbox, rows 8 to 19 rejected under IDENT-001', async ({
    page,
  }) => {
    const csv = readFileSync(new URL('../../shared/vectors/xmtpd-inbox-log.csv', import.meta.url))
    await page.goto('/')
    await waitForLog(page)
    await page.getByRole('button', { name: 'Open log…' }).click()
    await page
      .getByLabel('Open a log file')
      .setInputFiles({ name: 'xmtpd-inbox-log.csv', mimeType: 'text/csv', buffer: csv })
    await waitForLog(page)
    const picker = page.getByRole('combobox', { name: 'Inbox log of the input' })
    await expect(picker).toBeVisible()
    const options = await picker.locator('option').allTextContents()
    expect(options.length).toBeGreaterThan(5)
    const two = options.findIndex((o) => /\(2 updates\)/.test(o))
    await picker.selectOption(String(two))
    await waitForLog(page)
    await expect(page.getByText('every update applies')).toBeVisible()
    await picker.selectOption(String(options.length - 1))
    await waitForLog(page)
    await expect(page.getByText(/stops at sequence id \d+: IDENT-001/)).toBeVisible()
    await page.getByRole('tab', { name: 'Raw' }).click()
    await expect(
      page.getByRole('region', { name: 'Raw update (protobuf)' }).getByText('retired field 4').first(),
    ).toBeVisible()
  })
})

test('when the verification pool cannot be loaded, a large log is verified on the replay worker, and the next one loads it again', async ({
  page,
}) => {
  // The pool's chunk (src/worker/pool.ts, imported by the replay worker when a log needs it) fails to load.
  let failing = true
  let asked = 0
  await page.context().route(/\/assets\/pool-[^/?]*\.js(\?retry=\d+)?$/, async (route) => {
    asked++
    if (failing) await route.abort('failed')
    else await route.continue()
  })
  await page.goto('/')
  await waitForLog(page)
  const verified = () =>
    page.evaluate(
      () => performance.getEntriesByName('inspector: replay', 'measure').map((e: any) => e.detail)[0] as any,
    )
  await page.getByRole('button', { name: 'Open log…' }).click()
  await page.getByLabel('Open a log file').setInputFiles(await syntheticLogFile(256))
  await expect(page.locator('.timeline-head')).toContainText('256 updates')
  await expect(page.getByText('every update applies')).toBeVisible()
  const first = await verified()
  expect(asked, 'the pool was asked for').toBeGreaterThan(0)
  // Verified on the replay worker's own thread: no pool, no update verified by one.
  expect(first).toMatchObject({ updates: 256, workers: 0, remote: 0 })

  // The chunk loads again: the next large log is verified on the pool.
  failing = false
  await page.getByRole('button', { name: 'Open log…' }).click()
  await page.getByLabel('Open a log file').setInputFiles(await syntheticLogFile(1000))
  await expect(page.locator('.timeline-head')).toContainText('1,000 updates')
  await expect(page.getByText('every update applies')).toBeVisible()
  const next = await verified()
  expect(next.remote, 'updates verified by the pool').toBeGreaterThan(0)
})
