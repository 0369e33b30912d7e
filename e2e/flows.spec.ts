/**
 * Guided inbox tasks (issue 15) against the local node (playwright.config.ts starts it
 * with the demo inboxes), with the injected EIP-6963 wallet: an inbox whose recovery
 * identifier is the wallet and which holds three installations is cleaned up in ONE
 * update with ONE wallet prompt, published to the node; a handle another inbox holds is
 * refused before any signer is asked; health warns at the ceiling.
 */
import type { Page } from '@playwright/test'
import { hexToBytes } from '../src/crypto/bytes'
import { createNodeClient } from '../src/network/client'
import { addMember, createInbox, ethKeySigner, inboxIdOf, installationKeySigner, signUpdate } from '../src/signing'
import { expect, expectNoA11yViolations, test } from './fixtures'
import { fetchFromNode, shot, waitForLog } from './helpers'
import { E2E_NODE as NODE } from './support/playground'
import { connectWallet, installWallet, type TestWallet } from './support/wallet'
// anvil's key #0 (test only): the injected wallet's account.
const WALLET_KEY = '0xac0974bec39a17e36ba4a6b4d238ff944bacb478cbed5efcae784d7bf4f2ff80'

/** A client of the e2e node, as another client of the network would use it. */
const nodeClient = () => createNodeClient({ baseUrl: NODE, fetch: (u, i) => fetch(u, i) })

/** Publishes a new inbox of the wallet (a fresh nonce per run) with three installations; returns its inbox id. */
async function seedInbox(nonce: bigint): Promise<string> {
  const wallet = ethKeySigner(hexToBytes(WALLET_KEY.slice(2)))
  const node = nodeClient()
  const inboxId = inboxIdOf(wallet, nonce)
  const t0 = 1_790_000_000_000_000_000n
  await node.publishIdentityUpdate(
    (await signUpdate({ clientTimestampNs: t0, actions: [createInbox(wallet, { nonce })] })).bytes,
  )
  for (let i = 1; i <= 3; i++) {
    const inst = installationKeySigner(crypto.getRandomValues(new Uint8Array(32)))
    const u = await signUpdate({ inboxId, clientTimestampNs: t0 + BigInt(i), actions: [addMember(wallet, inst)] })
    await node.publishIdentityUpdate(u.bytes)
  }
  return inboxId
}

/** Opens the app on the e2e node and reads the inbox's log from it. */
async function openFromNode(page: Page, inboxId: string): Promise<void> {
  await page.goto(`/?node=${encodeURIComponent(NODE)}`)
  await waitForLog(page)
  await fetchFromNode(page, 'Inbox id', inboxId)
  await expect(page.getByRole('status', { name: 'Network fetch result' })).toContainText(`Inbox ${inboxId}`, {
    timeout: 30_000,
  })
  await waitForLog(page)
  await expect(page.getByLabel('Open log', { exact: true })).toContainText('every update applies')
}

/** The log limit is a setting: the health view links to it in the Settings dialog, which Escape closes again. */
async function setLogLimit(page: Page, tasksPanel: ReturnType<typeof tasks>, value: string): Promise<void> {
  const link = tasksPanel.getByRole('button', { name: 'change it in Settings…' })
  await link.click()
  const settings = page.getByRole('dialog', { name: 'Settings' })
  await settings.getByRole('textbox', { name: 'Log limit' }).fill(value)
  await page.keyboard.press('Escape')
  await expect(settings).toHaveCount(0)
  await expect(link).toBeFocused()
  await expect(tasksPanel).toContainText(`Log limit of this deployment: ${Number(value).toLocaleString('en')}`)
}

const tasks = (page: Page) => page.getByRole('region', { name: 'Inbox tasks' })

/** Seeds an inbox of the wallet (see seedInbox), opens it from the node with the wallet connected, and opens Inbox tasks. */
async function seededTasks(
  page: Page,
  nonce: bigint,
): Promise<{ inboxId: string; wallet: TestWallet; t: ReturnType<typeof tasks> }> {
  const inboxId = await seedInbox(nonce)
  const wallet = await installWallet(page)
  await openFromNode(page, inboxId)
  await connectWallet(page)
  await page.getByRole('button', { name: 'Inbox tasks…' }).click()
  return { inboxId, wallet, t: tasks(page) }
}

test('clean up three installations in one update with one wallet prompt, published to the node', async ({
  page,
}, info) => {
  test.setTimeout(120_000)
  const { inboxId, wallet, t } = await seededTasks(page, BigInt(Date.now()))
  await expect(t.getByRole('meter', { name: 'Installations' })).toHaveAttribute('value', '3')
  await expect(t).toContainText('4 of 256')
  await expect(t.getByRole('list', { name: 'Installations, oldest client time first' }).locator('li')).toHaveCount(3)
  await expectNoA11yViolations(page)
  await shot(page, info, 'flows-health')
  await expect.poll(() => page.url()).toContain('flow=health')

  await t.getByRole('button', { name: 'Clean up installations…' }).click()
  await expect.poll(() => page.url()).toContain('flow=cleanup')
  await t.getByRole('button', { name: 'All but this browser’s' }).click()
  await expect(t.getByRole('list', { name: 'Members the update removes' }).locator('li')).toHaveCount(3)
  await expect(t.getByRole('status', { name: 'Dry run result' })).toBeVisible()
  const sign = t.getByRole('button', { name: 'Revoke 3 and publish' })
  await expect(sign).toBeDisabled() // the consequence is not confirmed yet
  await t.getByRole('checkbox', { name: /I understand this update removes these 3 installations/ }).check()
  await expect(sign).toBeEnabled()
  expect(wallet.personalSignCount()).toBe(0)
  await shot(page, info, 'flows-cleanup')
  await page.setViewportSize({ width: 390, height: 844 })
  await sign.scrollIntoViewIfNeeded()
  await shot(page, info, 'flows-cleanup-390')
  await page.setViewportSize({ width: 1440, height: 900 })
  await sign.click()
  await expect(t.getByRole('status', { name: 'Append result' })).toContainText('Appended to the log as sequence id', {
    timeout: 30_000,
  })
  expect(wallet.personalSignCount()).toBe(1) // three revocations, one prompt
  await expect(t.getByLabel('Node answer')).toContainText('Stored', { timeout: 30_000 })
  // The node holds one more entry for the inbox: one update, not three.
  const newest = await nodeClient().queryNewest([inboxId])
  const log = await nodeClient().getInboxLog(inboxId)
  expect(log.entries).toHaveLength(5)
  expect(newest[0]?.sequenceId).toBe(log.entries[4]!.sequenceId)
  await t.getByRole('tab', { name: 'Inbox health' }).click()
  await expect(t.getByRole('meter', { name: 'Installations' })).toHaveAttribute('value', '0')
})

test('a handle held by another inbox is refused before any signer is asked (IDENT-085 checked); a free one is claimed', async ({
  page,
}) => {
  const { wallet, t } = await seededTasks(page, BigInt(Date.now()) + 7n)
  await t.getByRole('tab', { name: 'Claim a handle' }).click()
  await t.getByRole('textbox', { name: 'Handle to claim' }).fill('Alice')
  await expect(t.getByRole('status', { name: 'Handle check' })).toContainText('uppercase')
  // The node's published policy (default: names of 3 or more, `support` reserved) is checked first.
  await expect(t.getByLabel('Claim policy')).toContainText('at least 3 characters')
  await t.getByRole('textbox', { name: 'Handle to claim' }).fill('support')
  await expect(t.getByRole('status', { name: 'Handle check' })).toContainText(
    'The node\'s claim policy would refuse it: the name "support" is reserved on this node (handle_reserved)',
  )
  await expect(t.getByRole('button', { name: 'Claim and publish' })).toBeDisabled()
  await t.getByRole('textbox', { name: 'Handle to claim' }).fill('ab')
  await expect(t.getByRole('status', { name: 'Handle check' })).toContainText('handle_too_short')
  await t.getByRole('textbox', { name: 'Handle to claim' }).fill('alice')
  await expect(t.getByRole('status', { name: 'Handle check' })).toContainText('Taken', { timeout: 20_000 })
  await expect(t.getByRole('status', { name: 'Handle check' })).toContainText('IDENT-085')
  await expect(t.getByRole('button', { name: 'Claim and publish' })).toBeDisabled()
  await expect(t).toContainText('handle_taken')
  await t.getByRole('textbox', { name: 'Handle to claim' }).fill(`free${Date.now() % 100000}`)
  await expect(t.getByRole('status', { name: 'Handle check' })).toContainText('it is free', { timeout: 20_000 })
  const claim = t.getByRole('button', { name: 'Claim and publish' })
  await expect(claim).toBeEnabled()
  expect(wallet.personalSignCount()).toBe(0)
  const handle = await t.getByRole('textbox', { name: 'Handle to claim' }).inputValue()
  await expect(t.getByRole('region', { name: 'What will change' })).toContainText(
    `The display handle becomes ${handle}`,
  )
  await claim.click()
  await expect(t.getByLabel('Node answer')).toContainText('Stored', { timeout: 30_000 })
  expect(wallet.personalSignCount()).toBe(1)
  await t.getByRole('tab', { name: 'Inbox health' }).click()
  await expect(t.getByRole('meter', { name: 'Handle claims' })).toHaveAttribute('value', '1')
  await expect(t).toContainText(`Display handle${handle}`)
})

test('locked out at the ceiling with a nearly full log: warned, then cleaned up from the recovery wallet alone', async ({
  page,
}, info) => {
  test.setTimeout(120_000)
  // A ceiling of 3 (the registration setting): the inbox's three installations fill it.
  await page.addInitScript("localStorage.setItem('inspector.maxInstallations', '3')")
  // The wallet only: no installation key in this browser.
  const { inboxId, wallet, t } = await seededTasks(page, BigInt(Date.now()) + 13n)
  await expect(t.getByRole('list', { name: 'Warnings' })).toContainText('At the installation ceiling (3 of 3)')
  // The deployment keeps 5 updates per inbox: 4 are used.
  await setLogLimit(page, t, '5')
  await expect(t.getByRole('list', { name: 'Warnings' })).toContainText('Only 1 log entry left of 5')
  await setLogLimit(page, t, '4')
  await expect(t.getByRole('list', { name: 'Warnings' })).toContainText('The log is full: 4 entries of 4')
  await t.getByRole('tab', { name: 'Clean up installations' }).click()
  await t.getByRole('button', { name: 'All but this browser’s' }).click()
  await t.getByRole('checkbox', { name: /I understand this update removes these 3 installations/ }).check()
  await expect(t.getByRole('alert').filter({ hasText: 'The log is full' })).toContainText(
    'the network would not store this update',
  )
  const sign = t.getByRole('button', { name: 'Revoke 3 and publish' })
  await expect(sign).toBeDisabled()
  await t.getByRole('tab', { name: 'Inbox health' }).click()
  await setLogLimit(page, t, '5')
  await t.getByRole('tab', { name: 'Clean up installations' }).click()
  await t.getByRole('button', { name: 'All but this browser’s' }).click()
  await t.getByRole('checkbox', { name: /I understand this update removes these 3 installations/ }).check()
  await expect(t.getByRole('alert').filter({ hasText: 'one of the last entries' })).toContainText(
    '0 will be left of 5, and the log is then full for good',
  )
  await shot(page, info, 'flows-locked-out')
  await sign.click()
  await expect(t.getByLabel('Node answer')).toContainText('Stored', { timeout: 30_000 })
  expect(wallet.personalSignCount()).toBe(1)
  expect((await nodeClient().getInboxLog(inboxId)).entries).toHaveLength(5)
})

test('rotate recovery to a typed identifier, confirmed by its last four characters, published', async ({ page }) => {
  test.setTimeout(120_000)
  const { wallet, t } = await seededTasks(page, BigInt(Date.now()) + 21n)
  await t.getByRole('tab', { name: 'Rotate recovery' }).click()
  await expect.poll(() => page.url()).toContain('flow=recovery')
  const next = '0x111111111111111111111111111111111111abcd'
  await t.getByRole('combobox', { name: 'New recovery identifier' }).selectOption({ label: 'type an identifier…' })
  await t.getByRole('textbox', { name: 'Typed recovery identifier' }).fill(next)
  const changes = t.getByRole('region', { name: 'What will change' })
  await expect(changes).toContainText(`ethereum ${next}`)
  await expect(changes).toContainText('it is not a member')
  await expect(changes).toContainText('signs nothing')
  const sign = t.getByRole('button', { name: 'Rotate and publish' })
  const last4 = t.getByRole('textbox', { name: 'Last four characters of the new recovery identifier' })
  await last4.fill('abce')
  await expect(sign).toBeDisabled()
  await last4.fill('abcd')
  await expect(sign).toBeEnabled()
  expect(wallet.personalSignCount()).toBe(0)
  await sign.click()
  await expect(t.getByLabel('Node answer')).toContainText('Stored', { timeout: 30_000 })
  expect(wallet.personalSignCount()).toBe(1)
  await t.getByRole('tab', { name: 'Inbox health' }).click()
  await expect(t).toContainText(`ethereum ${next}`)
  await expect(t).toContainText('not a member')
})

test('an inbox that changed on the node is re-fetched before signing, and the task says what changed', async ({
  page,
}) => {
  test.setTimeout(120_000)
  const nonce = BigInt(Date.now()) + 29n
  const inboxId = await seedInbox(nonce)
  const wallet = await installWallet(page)
  await openFromNode(page, inboxId)
  // Follow (on by default for a log read from a node) would take the new update in by itself:
  // stop it, so the task meets a log that fell behind its node.
  const follow = page.getByRole('switch', { name: 'Follow' })
  await follow.click()
  await expect(follow).toHaveAttribute('aria-checked', 'false')
  await connectWallet(page)
  // Another client adds a fourth installation after this log was fetched.
  const owner = ethKeySigner(hexToBytes(WALLET_KEY.slice(2)))
  const fourth = installationKeySigner(crypto.getRandomValues(new Uint8Array(32)))
  const node = nodeClient()
  await node.publishIdentityUpdate(
    (await signUpdate({ inboxId, clientTimestampNs: 1_790_000_000_000_000_009n, actions: [addMember(owner, fourth)] }))
      .bytes,
  )
  await page.getByRole('button', { name: 'Inbox tasks…' }).click()
  const t = tasks(page)
  await t.getByRole('tab', { name: 'Clean up installations' }).click()
  await t.getByRole('button', { name: 'All but this browser’s' }).click()
  await t.getByRole('checkbox', { name: /I understand this update removes these 3 installations/ }).check()
  const changed = t.getByRole('alert', { name: 'Inbox changed on the node' })
  await expect(changed).toContainText('The inbox changed on the node')
  await expect(t.getByRole('button', { name: 'Revoke 3 and publish' })).toBeDisabled()
  await changed.getByRole('button', { name: 'Re-fetch from the node' }).click()
  await expect(t.getByRole('status', { name: 'Re-fetch result' })).toContainText('1 new update', { timeout: 30_000 })
  await expect(changed).toHaveCount(0)
  // The newest state has four installations; the three picked stay picked.
  await expect(t.locator('.flow-pick label')).toHaveCount(4)
  await expect(t.getByRole('button', { name: 'Revoke 3 and publish' })).toBeEnabled()
  expect(wallet.personalSignCount()).toBe(0)
})

test('a task opens by URL, and the header shows the log entries used, opening the health view', async ({ page }) => {
  await page.goto('/?flow=claim')
  await waitForLog(page)
  const t = tasks(page)
  await expect(t.getByRole('tab', { name: 'Claim a handle' })).toHaveAttribute('aria-selected', 'true')
  await t.getByRole('button', { name: 'Close the inbox tasks' }).click()
  await expect(t).toHaveCount(0)
  await expect.poll(() => page.url()).not.toContain('flow=')
  const chip = page.getByRole('button', { name: /of 256 log entries/ })
  await chip.click()
  await expect(t.getByRole('tab', { name: 'Inbox health' })).toHaveAttribute('aria-selected', 'true')
  await setLogLimit(page, t, '1')
  await expect(page.getByRole('button', { name: /log full: \d+ of 1 log entries/ })).toBeVisible()
  await setLogLimit(page, t, '256')
  await page.keyboard.press('Escape')
  await expect(t).toHaveCount(0)
})
