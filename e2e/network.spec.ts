/**
 * The network feature against a real local node (playwright.config.ts starts it on a
 * free port, E2E_NODE_PORT, with a fresh SQLite file and the demo inboxes), driven from
 * the Open drawer's "From a node" section and the Settings dialog: fetch by handle with
 * the handle current (IDENT-085, IDENT-086), a refused handle answer, a claim published
 * from the app then fetched and replayed, an unreachable node.
 */
import { create, toBinary } from '@bufbuild/protobuf'
import { bytesToHex } from '../src/crypto/bytes'
import { IdentifierKindValue } from '../src/core/types'
import { demoInboxes, demoSigners } from '../src/devnode/demo'
import { GetInboxIdsResponseSchema } from '../src/gen/identity/api/v1/identity_pb'
import { claimHandle, signUpdate } from '../src/signing'
import { expect, failedToLoad, test } from './fixtures'
import { fetchFromNode, fromNode, openSettings, waitForLog } from './helpers'

const NODE = `http://127.0.0.1:${process.env.E2E_NODE_PORT}`
const inbox = (name: string) => demoInboxes().find((d) => d.name === name)!.inboxId

const fetchBy = (page: import('@playwright/test').Page, by: string, identifier: string) =>
  fetchFromNode(page, by, identifier)

test.beforeEach(async ({ page }) => {
  await page.goto(`/?node=${encodeURIComponent(NODE)}`)
  await waitForLog(page)
  const settings = await openSettings(page)
  await expect(settings.getByRole('status', { name: 'Node status' })).toContainText('node reachable')
  await page.keyboard.press('Escape')
})

test('IDENT-085 IDENT-086: fetch an inbox by handle alice; its log replays with alice current', async ({ page }) => {
  await fetchBy(page, 'Handle', 'Alice')
  const found = page.getByRole('status', { name: 'Network fetch result' })
  await expect(found.locator('.handle')).toHaveText('alice')
  await expect(found).toContainText('also ally')
  await expect(found).toContainText(`Inbox ${inbox('alice')}`)
  await expect(found).toContainText('Handle answer accepted (IDENT-085)')
  await expect(page.getByLabel('Open log')).toContainText(`${NODE} (identity over connect)`)
  await waitForLog(page)
  await expect(page.getByLabel('Open log')).toContainText('every update applies')
})

test('Fetch by "Any (detected)" sends a pasted inbox id, address or passkey key as its kind, and names a typo unsent', async ({
  page,
}) => {
  const section = await fromNode(page)
  await expect(section.getByRole('combobox', { name: 'Fetch by' })).toHaveValue('detect')
  const field = section.getByRole('textbox', { name: 'Identifier to fetch' })
  const found = page.getByRole('status', { name: 'Network fetch result' })
  const s = demoSigners()
  const cases: [string, string, string][] = [
    [`0x${inbox('alice').toUpperCase()}`, 'an inbox id', inbox('alice')],
    [s.bobWallet.identifier.text.slice(2), 'an Ethereum address', inbox('bob')],
    [s.carolPasskey.identifier.text, 'a passkey key', inbox('carol')],
  ]
  for (const [text, kind, id] of cases) {
    await field.fill(text)
    await expect(field).toHaveAccessibleDescription(`Reads as ${kind}.`)
    await section.getByRole('button', { name: 'Fetch log' }).click()
    await expect(found).toContainText(`Inbox ${id}`)
    await waitForLog(page)
    await fromNode(page)
  }
  const calls: string[] = []
  page.on('request', (r) => {
    if (r.url().startsWith(NODE)) calls.push(r.url())
  })
  await field.fill('0x12ab')
  await expect(field).toHaveAccessibleDescription('')
  await section.getByRole('button', { name: 'Fetch log' }).click()
  await expect(section.getByRole('alert')).toContainText(
    '"0x12ab" reads as no identifier: give an inbox id (64 hex digits)',
  )
  await expect(field).toHaveAttribute('aria-invalid', 'true')
  // A kind chosen by hand is sent as chosen, and the section says what the text reads as.
  await section.getByRole('combobox', { name: 'Fetch by' }).selectOption({ label: 'Handle' })
  await field.fill(inbox('bob'))
  await expect(field).toHaveAccessibleDescription(/^This reads as an inbox id, not a handle/)
  expect(calls).toEqual([])
})

test('IDENT-085: a handle answer naming an inbox whose log does not hold it is refused', async ({ page }) => {
  const wrong = toBinary(
    GetInboxIdsResponseSchema,
    create(GetInboxIdsResponseSchema, {
      responses: [{ identifier: 'alice', inboxId: inbox('bob'), identifierKind: IdentifierKindValue.HANDLE }],
    }),
  )
  const cors = {
    'access-control-allow-origin': '*',
    'access-control-allow-headers': '*',
    'access-control-allow-methods': 'POST, OPTIONS',
  }
  // The local profile speaks Connect: a unary Connect answer is the bare protobuf message.
  await page.route(`${NODE}/xmtp.identity.api.v1.IdentityApi/GetInboxIds`, (route) =>
    route.request().method() === 'OPTIONS'
      ? route.fulfill({ status: 204, headers: cors })
      : route.fulfill({
          status: 200,
          headers: { ...cors, 'content-type': 'application/proto' },
          body: Buffer.from(wrong),
        }),
  )
  await fetchBy(page, 'Handle', 'alice')
  const refused = page.getByRole('alert').filter({ hasText: "The node's answer was refused" })
  await expect(refused).toContainText(`names inbox ${inbox('bob')}`)
  await expect(refused).toContainText('does not hold "alice"')
  await expect(refused).toContainText('The log was not opened')
  await expect(page.getByLabel('Open log')).not.toContainText(NODE)
})

test.describe(() => {
  test.use({
    expectedConsoleErrors: {
      'the same bytes are published twice; the node refuses the second': failedToLoad(
        'the server responded with a status of 409 (Conflict)',
        `${NODE}/identity/v1/publish-identity-update`,
      ),
    },
  })
  test('claim a handle: publish a signed ClaimHandle from the app, re-fetch, see the claim applied', async ({
    page,
  }) => {
    const s = demoSigners()
    const bob = inbox('bob')
    const signed = await signUpdate({
      inboxId: bob,
      clientTimestampNs: 1_800_000_000_000_000_000n,
      actions: [claimHandle('bobby', s.bobInstallation)],
    })
    await (await fromNode(page)).getByText('Publish a signed update to the local node').click()
    await page.getByRole('textbox', { name: 'Signed update (hex)' }).fill(bytesToHex(signed.bytes))
    await page.getByRole('textbox', { name: /Inbox id of the update/ }).fill(bob)
    await page.getByRole('button', { name: 'Publish', exact: true }).click()
    await expect(page.getByText(/Stored by the node with sequence id \d+/)).toContainText('QueryNewest shows')

    // Publishing the same bytes again is refused by the node with its rule.
    await page.getByRole('button', { name: 'Publish', exact: true }).click()
    await expect(page.getByRole('alert').filter({ hasText: 'Refused by the node' })).toBeVisible()

    await fetchBy(page, 'Handle', 'bobby')
    const found = page.getByRole('status', { name: 'Network fetch result' })
    await expect(found.locator('.handle')).toHaveText('bobby')
    await expect(found).toContainText('also bob')
    await waitForLog(page)
    await expect(page.getByLabel('Open log')).toContainText('every update applies')
    await page.keyboard.press('End')
    await expect(page.locator('.step-summary')).toContainText('ClaimHandle')
  })
})

test.describe(() => {
  // The node's URL is set to a port Chromium refuses.
  test.use({
    expectedConsoleErrors: {
      'the status check of the unreachable node': failedToLoad(
        'net::ERR_UNSAFE_PORT',
        'http://127.0.0.1:9/identity/v1/query-newest',
      ),
      'the fetch by handle from the unreachable node': failedToLoad(
        'net::ERR_UNSAFE_PORT',
        'http://127.0.0.1:9/xmtp.identity.api.v1.IdentityApi/GetInboxIds',
      ),
    },
  })
  test('an unreachable node shows the error, offers a retry, and the app stays usable', async ({ page }) => {
    const settings = await openSettings(page)
    await settings.getByRole('textbox', { name: 'Local node URL' }).fill('http://127.0.0.1:9')
    await settings.getByRole('button', { name: 'Save', exact: true }).click()
    await expect(settings.getByRole('status', { name: 'Node status' })).toContainText(
      'node unreachable: the node at http://127.0.0.1:9',
    )
    await expect(settings.getByRole('button', { name: 'Retry' })).toBeVisible()
    await settings.getByRole('button', { name: 'Close Settings' }).click()
    await fetchBy(page, 'Handle', 'alice')
    await expect(page.getByRole('alert').filter({ hasText: 'Could not fetch' })).toContainText(
      'http://127.0.0.1:9 (identity API over connect)',
    )
    await expect(page.getByRole('alert').filter({ hasText: 'Could not fetch' })).toContainText('could not be reached')
    // Still usable: the open log stays, the open panel works.
    await expect(
      page
        .getByRole('listbox', { name: /Updates and their actions/ })
        .getByRole('option')
        .first(),
    ).toBeVisible()
    const openButton = page.getByRole('button', { name: 'Open log…' })
    await page.getByRole('button', { name: 'Close the open panel' }).click()
    await expect(openButton).toHaveAttribute('aria-expanded', 'false')
    await openButton.click()
    await expect(openButton).toHaveAttribute('aria-expanded', 'true')
    // The setting persisted (localStorage).
    await expect.poll(() => page.url()).not.toContain('node=')
    await page.reload()
    await waitForLog(page)
    await expect((await openSettings(page)).getByRole('textbox', { name: 'Local node URL' })).toHaveValue(
      'http://127.0.0.1:9',
    )
  })
})
