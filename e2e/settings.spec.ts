/**
 * The Settings dialog, used as a person would, against the local node (playwright.config.ts
 * starts it on E2E_NODE_PORT with the demo inboxes): opened from the keyboard, the local
 * node's URL edited there (the one profile list: no separate node panel) and used by the
 * Open drawer's "From a node" section, a custom profile that outlives a reload, Escape
 * closing it with focus back on its button, axe clean, and the layout at 1440x900 and
 * 390x844 (screenshots saved as artifacts); a failed load of its query layer's chunk said
 * in the dialog, with a Try again that loads it.
 */
import { demoInboxes } from '../src/devnode/demo'
import { expect, expectNoA11yViolations, failedToLoad, test } from './fixtures'
import { openSettings, shot, waitForLog, openLog, PHONE, DESKTOP } from './helpers'

// Code inside page.evaluate runs in the page; tsconfig.node.json has no DOM lib.
declare const document: any, window: any

const NODE = `http://127.0.0.1:${process.env.E2E_NODE_PORT}`
const alice = demoInboxes().find((d) => d.name === 'alice')!

test('open Settings by keyboard, set the local node URL, fetch with it; Escape closes and focus returns', async ({
  page,
}, info) => {
  await openLog(page, DESKTOP)
  // No stacked settings panels above the timeline any more.
  await expect(page.getByRole('region', { name: 'Real networks' })).toHaveCount(0)
  await expect(page.getByRole('textbox', { name: 'Local node URL' })).toHaveCount(0)

  const settingsButton = page.getByRole('button', { name: 'Settings…' })
  await settingsButton.focus()
  await page.keyboard.press('Enter')
  const dialog = page.getByRole('dialog', { name: 'Settings' })
  await expect(dialog).toBeVisible()
  await expect(dialog.getByRole('button', { name: 'Close Settings' })).toBeFocused()
  // Tab stays inside the modal dialog: Shift+Tab from its first control goes to its last one.
  await page.keyboard.press('Shift+Tab')
  await expect
    .poll(() => page.evaluate(() => document.activeElement?.closest('dialog')?.getAttribute('aria-labelledby') ?? null))
    .not.toBeNull()

  // One list of profiles; the local node's URL is edited on its own row.
  const list = dialog.getByRole('list', { name: 'Network profiles' })
  for (const name of ['Local node', 'XMTP V3 dev', 'XMTP V3 production', 'xmtpd node'])
    await expect(list.getByRole('listitem', { name, exact: true })).toBeVisible()
  const local = list.getByRole('listitem', { name: 'Local node', exact: true })
  const url = local.getByRole('textbox', { name: 'Local node URL' })
  await url.fill('not a url')
  await page.keyboard.press('Enter')
  await expect(local.getByRole('alert')).toContainText('"not a url" is not a URL')
  await url.fill(NODE)
  await page.keyboard.press('Enter')
  await expect(local.getByRole('status', { name: 'Node status' })).toContainText(`node reachable: ${NODE}`)
  await expectNoA11yViolations(page)
  await shot(page, info, 'settings-1440x900')

  await page.keyboard.press('Escape')
  await expect(dialog).toHaveCount(0)
  await expect(settingsButton).toBeFocused()
  // The log stays open under it.
  await expect(page.getByLabel('Open log', { exact: true })).toContainText('example')

  // The Open drawer's "From a node" section fetches from the local node just set.
  await page.getByRole('button', { name: 'Open log…' }).click()
  const from = page.getByRole('region', { name: 'From a node', exact: true })
  await expect(from.getByRole('combobox', { name: 'Network profile' }).locator('option:checked')).toHaveText(
    'Local node (identity, connect)',
  )
  await expect(from.getByTestId('profile-endpoint')).toContainText(NODE)
  await from.getByRole('combobox', { name: 'Fetch by' }).selectOption({ label: 'Handle' })
  await from.getByRole('textbox', { name: 'Identifier to fetch' }).fill('alice')
  await from.getByRole('button', { name: 'Fetch log' }).click()
  const result = page.getByRole('status', { name: 'Network fetch result' })
  await expect(result).toContainText(`Inbox ${alice.inboxId}`, { timeout: 30_000 })
  await expect(result.locator('.handle')).toHaveText('alice')
  await expect(result).toContainText('Handle answer accepted (IDENT-085)')
  await waitForLog(page)
  // The drawer closed; the call-out sits above the workspace with the timeline beside it.
  await expect(from).toHaveCount(0)
  await expect(page.getByLabel('Open log', { exact: true })).toContainText(`${NODE} (identity over connect)`)
  // The address bar keeps where the log came from.
  await expect.poll(() => new URL(page.url()).searchParams.get('node')).toBe(NODE)
  expect(new URL(page.url()).searchParams.get('handle')).toBe('alice')
  await expectNoA11yViolations(page)
  await shot(page, info, 'fetched-1440x900')

  // Dismissed, the call-out goes; the log stays.
  await page.getByRole('button', { name: 'Dismiss the fetch call-out' }).click()
  await expect(result).toHaveCount(0)
  await expect(page.getByLabel('Open log', { exact: true })).toContainText('every update applies')
})

test('a custom profile is added, kept after a reload, edited and removed', async ({ page }) => {
  await page.goto(`/?node=${encodeURIComponent(NODE)}`)
  await waitForLog(page)
  await page.getByRole('button', { name: 'Settings…' }).click()
  const dialog = page.getByRole('dialog', { name: 'Settings' })
  const add = dialog.getByRole('form', { name: 'Add a network profile' })
  await add.getByRole('textbox', { name: 'Profile URL' }).fill('ftp://nowhere')
  await add.getByRole('button', { name: 'Add profile' }).click()
  await expect(add.getByRole('alert')).toContainText('a node URL is http: or https:, not ftp:')
  await add.getByRole('textbox', { name: 'Profile name' }).fill('my xmtpd')
  await add.getByRole('textbox', { name: 'Profile URL' }).fill(NODE)
  await add.getByRole('combobox', { name: 'API' }).selectOption('d14n')
  await add.getByRole('combobox', { name: 'Transport' }).selectOption('connect')
  await add.getByRole('button', { name: 'Add profile' }).click()
  const list = dialog.getByRole('list', { name: 'Network profiles' })
  await expect(list.getByRole('listitem', { name: 'my xmtpd' })).toContainText('d14n over connect')

  await page.reload()
  await waitForLog(page)
  await page.getByRole('button', { name: 'Settings…' }).click()
  const mine = list.getByRole('listitem', { name: 'my xmtpd' })
  await expect(mine).toContainText(NODE)
  // Edited: a new name, kept.
  await mine.getByRole('button', { name: 'Edit the profile my xmtpd' }).click()
  const edit = dialog.getByRole('form', { name: 'Edit the profile my xmtpd' })
  await edit.getByRole('textbox', { name: 'Profile name' }).fill('local xmtpd')
  await edit.getByRole('button', { name: 'Save profile' }).click()
  await expect(list.getByRole('listitem', { name: 'local xmtpd' })).toBeVisible()
  await page.getByRole('button', { name: 'Close Settings' }).click()

  // It is offered in the Open drawer and fetches over its own API and transport.
  await page.getByRole('button', { name: 'Open log…' }).click()
  const from = page.getByRole('region', { name: 'From a node', exact: true })
  await from.getByRole('combobox', { name: 'Network profile' }).selectOption({ label: 'local xmtpd (d14n, connect)' })
  await from.getByRole('combobox', { name: 'Fetch by' }).selectOption({ label: 'Inbox id' })
  await from.getByRole('textbox', { name: 'Identifier to fetch' }).fill(alice.inboxId)
  await from.getByRole('button', { name: 'Fetch log' }).click()
  await expect(page.getByRole('status', { name: 'Network fetch result' })).toContainText('(d14n over connect', {
    timeout: 30_000,
  })
  await waitForLog(page)

  await page.getByRole('button', { name: 'Settings…' }).click()
  await list.getByRole('button', { name: 'Remove the profile local xmtpd' }).click()
  await expect(list.getByRole('listitem', { name: 'local xmtpd' })).toHaveCount(0)
  // The address bar follows a quarter second after a change: the reload must find the fetch's address.
  await expect(page).toHaveURL(/[?&]transport=connect/)
  await page.reload()
  await waitForLog(page)
  await page.getByRole('button', { name: 'Settings…' }).click()
  // The page address still names the removed profile's endpoint: it is shown as its own, for this page only.
  await expect(list.getByRole('listitem', { name: 'local xmtpd' })).toHaveCount(0)
  await expect(list.getByRole('listitem', { name: 'From the page address' })).toContainText('d14n over connect')
  await expect(list.getByRole('listitem')).toHaveCount(6)
})

test('at 390x844: Settings and the Open drawer fit the phone; axe clean', async ({ page }, info) => {
  await openLog(page, PHONE, `/?node=${encodeURIComponent(NODE)}`)
  // On a phone Settings… is in the header's More menu.
  const dialog = await openSettings(page)
  await expect(dialog.getByRole('status', { name: 'Node status' })).toContainText('node reachable')
  const box = await dialog.boundingBox()
  expect(box!.x).toBeGreaterThanOrEqual(0)
  expect(box!.x + box!.width).toBeLessThanOrEqual(390)
  // Nothing inside runs past the dialog's right edge.
  const overflow = await dialog.evaluate((d) => d.scrollWidth - d.clientWidth)
  expect(overflow).toBeLessThanOrEqual(0)
  await expectNoA11yViolations(page)
  await shot(page, info, 'settings-390x844')
  await page.keyboard.press('Escape')

  await page.getByRole('button', { name: 'Open log…' }).click()
  const from = page.getByRole('region', { name: 'From a node', exact: true })
  await from.scrollIntoViewIfNeeded()
  await expect(from.getByRole('button', { name: 'Fetch log' })).toBeInViewport()
  await shot(page, info, 'open-from-node-390x844')
  await from.getByRole('combobox', { name: 'Fetch by' }).selectOption({ label: 'Inbox id' })
  await from.getByRole('textbox', { name: 'Identifier to fetch' }).fill(alice.inboxId)
  await from.getByRole('button', { name: 'Fetch log' }).click()
  await expect(page.getByRole('status', { name: 'Network fetch result' })).toContainText(`Inbox ${alice.inboxId}`, {
    timeout: 30_000,
  })
  await waitForLog(page)
  await expect.poll(() => new URL(page.url()).searchParams.get('inbox')).toBe(alice.inboxId)
  await expectNoA11yViolations(page)
  await shot(page, info, 'fetched-390x844')
})

test('the deployment limits live in Settings: the log limit and the installation ceiling, seen where they are used', async ({
  page,
}) => {
  await page.goto('/')
  await waitForLog(page)
  let settings = await openSettings(page)
  await settings.getByRole('textbox', { name: 'Log limit' }).fill('0')
  await expect(settings.getByRole('alert')).toContainText('the log limit must be at least 1; still using 256')
  await settings.getByRole('textbox', { name: 'Log limit' }).fill('100')
  await settings.getByRole('textbox', { name: 'Installation ceiling' }).fill('4')
  await page.keyboard.press('Escape')
  // The header's health chip counts against the new limit.
  await expect(page.getByRole('button', { name: /of 100 log entries/ })).toBeVisible()

  // The registration uses the same ceiling, and follows a change made in Settings over its drawer.
  await page.getByRole('button', { name: 'Sign…' }).click()
  await page.getByRole('tab', { name: 'Register this browser' }).click()
  const field = page.locator('[data-drawer="sign"]').getByRole('textbox', { name: 'Installation ceiling' })
  await expect(field).toHaveValue('4')
  settings = await openSettings(page)
  await settings.getByRole('textbox', { name: 'Installation ceiling' }).fill('5')
  await settings.getByRole('button', { name: 'Close Settings' }).click()
  await expect(field).toHaveValue('5')

  await page.reload()
  await waitForLog(page)
  settings = await openSettings(page)
  await expect(settings.getByRole('textbox', { name: 'Log limit' })).toHaveValue('100')
  await expect(settings.getByRole('textbox', { name: 'Installation ceiling' })).toHaveValue('5')
})

test.describe(() => {
  test.use({
    expectedConsoleErrors: {
      "the query layer's chunk is routed to a 404 until the test lets it through": failedToLoad(
        'the server responded with a status of 404 (Not Found)',
        /http:\/\/localhost:\d+\/assets\/query-client-[\w-]+\.js/,
      ),
    },
  })
  test("Settings whose query layer's chunk fails to load: says what failed in the dialog; Try again loads it", async ({
    page,
  }) => {
    // The QueryClient's chunk (src/app/query-client.ts) fails as a stale deploy's would: 404.
    let failing = true
    const requests: string[] = []
    await page.route(/\/assets\/query-client-[\w-]+\.js(\?retry=\d+)?$/, async (route) => {
      requests.push(route.request().url())
      if (failing) await route.fulfill({ status: 404, body: 'gone' })
      else await route.continue()
    })
    const rejections: string[] = []
    await page.addInitScript(() => {
      const w = window
      w.__rejections = []
      w.addEventListener('unhandledrejection', (e: any) => w.__rejections.push(String(e.reason)))
    })
    await openLog(page, DESKTOP)
    const dialog = await openSettings(page)
    const alert = dialog.getByRole('alert')
    await expect(alert).toContainText('Settings could not be loaded.')
    await expect(alert).toContainText('The query layer (TanStack Query) did not load')
    await expect(dialog.getByRole('list', { name: 'Network profiles' })).toHaveCount(0)
    // The rest of the app stays usable: the dialog closes, the timeline steps.
    await dialog.getByRole('button', { name: 'Close Settings' }).click()
    await expect(dialog).toHaveCount(0)
    await page.getByRole('listbox', { name: /Updates and their actions/ }).focus()
    await page.keyboard.press('End')
    // The network is back: Try again loads the chunk and shows Settings.
    failing = false
    const again = await openSettings(page)
    await again.getByRole('button', { name: 'Try again' }).click()
    await expect(again.getByRole('list', { name: 'Network profiles' })).toBeVisible()
    await expect(again.getByRole('alert')).toHaveCount(0)
    expect(requests.length).toBeGreaterThanOrEqual(2)
    rejections.push(...(await page.evaluate(() => window.__rejections as string[])))
    expect(rejections, 'unhandled promise rejections in the page').toEqual([])
  })
})
