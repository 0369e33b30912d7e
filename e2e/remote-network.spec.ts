/**
 * Real networks in the browser, against the local node (playwright.config.ts starts it on
 * E2E_NODE_PORT with the demo inboxes): a fetch addressed by URL over gRPC-web and over
 * Connect (both APIs), opening at the head step and keeping its address; a fetch from a
 * profile (Open log… › From a node; profiles added in the Settings dialog); and the
 * comparison of two sources of one inbox where one node withholds an update (in the
 * call-out above the workspace).
 */
import { BinaryWriter, WireType } from '@bufbuild/protobuf/wire'
import { demoInboxes } from '../src/devnode/demo'
import { createNodeClient } from '../src/network/client'
import { expect, failedToLoad, test } from './fixtures'
import { fetchFromNode, fromNode, openSettings, waitForLog } from './helpers'

const NODE = `http://127.0.0.1:${process.env.E2E_NODE_PORT}`
const alice = demoInboxes().find((d) => d.name === 'alice')!

async function aliceLog(): Promise<{ sequenceId: bigint; bytes: Uint8Array }[]> {
  const log = await createNodeClient({ baseUrl: NODE, fetch }).getInboxLog(alice.inboxId)
  return log.entries.map((e) => ({ sequenceId: e.sequenceId, bytes: (e.update as { bytes: Uint8Array }).bytes }))
}

for (const [api, transport] of [
  ['identity', 'grpc-web'],
  ['d14n', 'grpc-web'],
  ['identity', 'connect'],
  ['d14n', 'connect'],
] as const) {
  test(`a fetch addressed by URL: ${api} over ${transport}, opened at the head step`, async ({ page }) => {
    const rows = await aliceLog()
    const head = rows.at(-1)!.sequenceId
    const seen: string[] = []
    page.on('request', (r) => {
      if (r.url().startsWith(NODE) && r.method() === 'POST') seen.push(new URL(r.url()).pathname)
    })
    await page.goto(`/?node=${encodeURIComponent(NODE)}&api=${api}&transport=${transport}&handle=alice`)
    const result = page.getByRole('status', { name: 'Network fetch result' })
    await expect(result).toContainText(`Inbox ${alice.inboxId}`, { timeout: 30_000 })
    await expect(result).toContainText(`${rows.length} updates from ${NODE} (${api} over ${transport}`)
    await expect(result).toContainText('Read twice, the same both times')
    // Opening replays the log in the worker: on a loaded machine that takes a while.
    await expect(page.getByLabel('Open log')).toContainText(`${NODE} (${api} over ${transport})`, { timeout: 30_000 })
    await waitForLog(page)
    await expect(page.getByLabel('Open log')).toContainText('every update applies')
    await expect.poll(() => new URL(page.url()).hash).toContain(`step=${head}.`)
    // The address bar keeps where the log came from, beside the step.
    const q = new URL(page.url()).searchParams
    expect([q.get('node'), q.get('api'), q.get('transport'), q.get('handle')]).toEqual([NODE, api, transport, 'alice'])
    // The profile list names the endpoint the log came from, never another one.
    const chosen = (await fromNode(page)).getByRole('combobox', { name: 'Network profile' }).locator('option:checked')
    await expect(chosen).toContainText(`(${api}, ${transport})`)
    const service = api === 'identity' ? '/xmtp.identity.api.v1.IdentityApi/' : '/xmtp.xmtpv4.message_api.QueryApi/'
    expect(seen.some((p) => p.startsWith(service))).toBe(true)
    // (The node panel beside polls /identity/v1/query-newest; the log itself came over the RPC path.)
    expect(seen.filter((p) => p === '/identity/v1/get-identity-updates')).toEqual([])
  })
}

test.describe(() => {
  test.use({
    expectedConsoleErrors: {
      'the fetch from the profile on a port Chromium refuses': failedToLoad(
        'net::ERR_UNSAFE_PORT',
        'http://127.0.0.1:9/xmtp.identity.api.v1.IdentityApi/GetIdentityUpdates',
      ),
    },
  })
  test('a fetch from the chosen profile; an unreachable profile says so and the open log stays', async ({ page }) => {
    await page.goto(`/?node=${encodeURIComponent(NODE)}`)
    await waitForLog(page)
    await fetchFromNode(page, 'Inbox id', alice.inboxId, 'Local node (identity, connect)')
    await expect(page.getByRole('status', { name: 'Network fetch result' })).toContainText(`Inbox ${alice.inboxId}`)
    await waitForLog(page)
    const label = await page.getByLabel('Open log').textContent()

    // A custom profile on a port where nothing listens, added in Settings (and chosen).
    const settings = await openSettings(page)
    const add = settings.getByRole('form', { name: 'Add a network profile' })
    await add.getByRole('textbox', { name: 'Profile name' }).fill('nowhere')
    await add.getByRole('textbox', { name: 'Profile URL' }).fill('http://127.0.0.1:9')
    await add.getByRole('combobox', { name: 'Transport' }).selectOption('connect')
    await add.getByRole('button', { name: 'Add profile' }).click()
    await page.keyboard.press('Escape')
    const from = await fromNode(page)
    await expect(from.getByRole('combobox', { name: 'Network profile' }).locator('option:checked')).toHaveText(
      'nowhere (identity, connect)',
    )
    await from.getByRole('button', { name: 'Fetch log' }).click()
    await expect(from.getByRole('alert', { name: 'Network fetch error' })).toContainText(
      'http://127.0.0.1:9 (identity API over connect)',
    )
    await expect(page.getByLabel('Open log')).toHaveText(label!)
  })
})

test('compare two sources: a node that withholds an update from one client', async ({ page }) => {
  const rows = await aliceLog()
  const withheld = rows.at(-1)!
  // The gateway path of the same node answers without alice's last update.
  const body = (() => {
    const r = new BinaryWriter()
    r.tag(1, WireType.LengthDelimited).string(alice.inboxId)
    for (const row of rows.slice(0, -1)) {
      const l = new BinaryWriter()
      l.tag(1, WireType.Varint).uint64(row.sequenceId)
      l.tag(3, WireType.LengthDelimited).bytes(row.bytes)
      r.tag(2, WireType.LengthDelimited).bytes(l.finish())
    }
    const w = new BinaryWriter()
    w.tag(1, WireType.LengthDelimited).bytes(r.finish())
    return Buffer.from(w.finish())
  })()
  const cors = {
    'access-control-allow-origin': '*',
    'access-control-allow-headers': '*',
    'access-control-allow-methods': 'POST',
  }
  await page.route(`${NODE}/identity/v1/get-identity-updates`, (route) =>
    route.request().method() === 'OPTIONS'
      ? route.fulfill({ status: 204, headers: cors })
      : route.fulfill({ status: 200, headers: { ...cors, 'content-type': 'application/x-protobuf' }, body }),
  )

  await page.goto(`/?node=${encodeURIComponent(NODE)}&api=identity&transport=connect&inbox=${alice.inboxId}`)
  const panel = page.getByRole('region', { name: 'Fetched from a node' })
  await expect(panel.getByRole('status', { name: 'Network fetch result' })).toContainText(`${rows.length} updates`, {
    timeout: 30_000,
  })
  await waitForLog(page)

  const settings = await openSettings(page)
  const add = settings.getByRole('form', { name: 'Add a network profile' })
  await add.getByRole('textbox', { name: 'Profile name' }).fill('withholding')
  await add.getByRole('textbox', { name: 'Profile URL' }).fill(NODE)
  await add.getByRole('combobox', { name: 'Transport' }).selectOption('gateway')
  await add.getByRole('button', { name: 'Add profile' }).click()
  await settings.getByRole('button', { name: 'Close Settings' }).click()

  await panel.getByText('Compare with another source').click()
  await panel
    .getByRole('combobox', { name: 'Second source' })
    .selectOption({ label: 'withholding (identity, gateway)' })
  await panel.getByRole('button', { name: 'Compare', exact: true }).click()
  const cmp = panel.getByRole('status', { name: 'Comparison' })
  await expect(cmp).toContainText('they differ')
  await expect(cmp).toContainText(`Only in A: sequence id ${withheld.sequenceId}`)
  await expect(cmp.getByRole('list', { name: 'Head-state difference' })).toContainText(
    `Head sequence id: A ${withheld.sequenceId}, B ${rows.at(-2)!.sequenceId}`,
  )
})
