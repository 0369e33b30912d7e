/**
 * The Node traffic panel (features/traffic) against a real local node this spec starts
 * (./support/live-node.ts): calls made to the node (a publish it stores, a publish it
 * refuses with its rule) show up live in the
 * panel; the refusal's rule text opens; the filters narrow the list; the refused update
 * opens in the inspector, appended after the inbox's head and judged rejected there.
 */
import type { Page } from '@playwright/test'
import { utf8 } from '../src/crypto/bytes'
import { sha256 } from '../src/crypto/hash'
import { createInbox, ethKeySigner, inboxIdOf, signUpdate } from '../src/signing'
import { expect, expectNoA11yViolations, test } from './fixtures'
import { shot, summary } from './helpers'
import { LiveNode } from './support/live-node'

const key = (label: string) => sha256(utf8(`inbox-inspector traffic e2e: ${label}`))
const wallet = ethKeySigner(key('wallet'))
const INBOX = inboxIdOf(wallet)

let node: LiveNode
test.beforeAll(async () => {
  node = await LiveNode.start('traffic')
})
test.afterAll(async () => {
  await node?.down()
})

const calls = (page: Page) => page.getByRole('table', { name: 'Node calls' }).getByRole('row')

/** A gRPC-web call of a method the node does not serve (it answers UNIMPLEMENTED, gRPC status 12). */
async function unimplementedCall(url: string): Promise<void> {
  const res = await fetch(`${url}/xmtp.mls.api.v1.MlsApi/SendWelcomeMessages`, {
    method: 'POST',
    headers: { 'content-type': 'application/grpc-web+proto', 'x-grpc-web': '1' },
    body: new Uint8Array([0, 0, 0, 0, 0]),
  })
  expect(res.status).toBe(200)
  await res.arrayBuffer()
}

test('node traffic: a stored publish and a refused one with its rule, live; filters; the refusal opens judged', async ({
  page,
}, info) => {
  await page.goto(`/?node=${encodeURIComponent(node.url)}`)
  await page.getByRole('button', { name: 'Node traffic…' }).click()
  const panel = page.locator('[data-drawer="traffic"]')
  await expect(panel.getByRole('status', { name: 'Traffic connection' })).toContainText('live')

  const create = await signUpdate({ clientTimestampNs: 1_790_000_000_000_000_000n, actions: [createInbox(wallet)] })
  expect(await node.publish(create.bytes)).toBe(1n)
  // The same update again: its replay key was seen, the node refuses it with the rule.
  await expect(node.publish(create.bytes)).rejects.toThrow()

  const refused = calls(page).filter({ hasText: 'refused' })
  await expect(refused).toHaveCount(1)
  // Newest first: the refusal, then the stored publish.
  await expect(calls(page).nth(1)).toContainText('refused')
  await expect(calls(page).nth(2)).toContainText('PublishIdentityUpdate')
  await expect(calls(page).nth(2)).toContainText('ok')
  await expect(calls(page).nth(2)).toContainText(INBOX.slice(0, 16))

  // The refusal's rule, and its text.
  const ruleButton = refused.getByRole('button', { name: /^Rule IDENT-\d{3}: show its text$/ })
  const rule = (await ruleButton.textContent())!.trim()
  await ruleButton.click()
  await expect(panel.getByRole('region', { name: `Rule ${rule}` })).toBeVisible()

  // Filters.
  await panel.getByRole('combobox', { name: 'Outcome' }).selectOption('refused')
  await expect(calls(page)).toHaveCount(2)
  await panel.getByRole('combobox', { name: 'Outcome' }).selectOption('')
  await panel.getByRole('searchbox', { name: 'Method' }).fill('GetInboxIds')
  await expect(panel.getByText('No call matches the filter.')).toBeVisible()
  await panel.getByRole('searchbox', { name: 'Method' }).fill('publish')
  await expect(calls(page)).toHaveCount(3)
  await panel.getByRole('searchbox', { name: 'Method' }).fill('')
  await expectNoA11yViolations(page)
  await shot(page, info, 'traffic-panel')

  // The refused update opens in the inspector after the inbox's head, judged as the node judged it.
  await refused
    .getByRole('button', { name: /^Open call \d+ in the inspector \(the refused update after the head\)$/ })
    .click()
  await expect(panel).toHaveCount(0)
  await expect(page.getByLabel('Open log')).toContainText(`stops at sequence id 2: ${rule}`)
  // The refused update is the selected step, judged rejected.
  await expect(summary(page)).toContainText('sequence id 2')
  await expect(summary(page)).toContainText(/rejected/i)
})

// The node answers a method it does not serve with UNIMPLEMENTED on every transport and logs the call.
test('node traffic: an unimplemented gRPC-web call shows as refused, naming its method', async ({ page }) => {
  test.setTimeout(30_000)
  await page.goto(`/?node=${encodeURIComponent(node.url)}`)
  await page.getByRole('button', { name: 'Node traffic…' }).click()
  const panel = page.locator('[data-drawer="traffic"]')
  await expect(panel.getByRole('status', { name: 'Traffic connection' })).toContainText('live')
  await unimplementedCall(node.url)
  const row = calls(page).filter({ hasText: 'SendWelcomeMessages' })
  await expect(row).toContainText('grpc-web', { timeout: 5000 })
  await expect(row).toContainText('refused')
  await expect(row).toContainText('unimplemented')
})
