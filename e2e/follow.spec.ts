/**
 * Follow (features/follow) against a real local node that this spec starts, stops and
 * restarts itself (./support/live-node.ts): the app opens an inbox from the node's URL
 * and follows it while updates are published into the node one by one. The timeline
 * grows, the view moves with the head when it is at the head, a notice counts what
 * landed below when it is not, and the state goes "reconnecting" then "live" across a
 * node restart; the permalink records follow=1.
 */
import type { Page } from '@playwright/test'
import { sha256 } from '../src/crypto/hash'
import { utf8 } from '../src/crypto/bytes'
import { addMember, createInbox, ethKeySigner, inboxIdOf, installationKeySigner, signUpdate } from '../src/signing'
import { expect, expectNoA11yViolations, failedToLoad, test } from './fixtures'
import { shot, waitForLog } from './helpers'
import { LiveNode } from './support/live-node'

const key = (label: string) => sha256(utf8(`inbox-inspector follow e2e: ${label}`))
const wallet = ethKeySigner(key('wallet'))
const INBOX = inboxIdOf(wallet)
const T0 = 1_780_000_000_000_000_000n

/** The log, update by update: the inbox, then one installation added per update. */
async function updates(n: number): Promise<Uint8Array[]> {
  const out: Uint8Array[] = []
  out.push((await signUpdate({ clientTimestampNs: T0, actions: [createInbox(wallet)] })).bytes)
  for (let i = 1; i < n; i++) {
    const inst = installationKeySigner(key(`installation ${i}`))
    out.push(
      (await signUpdate({ inboxId: INBOX, clientTimestampNs: T0 + BigInt(i), actions: [addMember(wallet, inst)] }))
        .bytes,
    )
  }
  return out
}

const timeline = (page: Page) => page.getByRole('listbox', { name: /Updates and their actions/ }).getByRole('option')
const followState = (page: Page) => page.getByRole('status', { name: 'Follow state' })

// "reconnecting", which the test waits for, shows after the first refused request.
test.use({
  expectedConsoleErrors: {
    "the follow's requests while the node is down (the restart)": failedToLoad(
      'net::ERR_CONNECTION_REFUSED',
      /http:\/\/127\.0\.0\.1:\d+\/xmtp\.identity\.api\.v1\.IdentityApi\/GetIdentityUpdates/,
    ),
  },
})

let node: LiveNode
test.beforeAll(async () => {
  node = await LiveNode.start('follow')
})
test.afterAll(async () => {
  await node?.down()
})

test('follow: the timeline grows as updates land, keeps the user where they are, and survives a node restart', async ({
  page,
}, info) => {
  const log = await updates(6)
  expect(await node.publish(log[0]!)).toBe(1n)
  await page.goto(`/?node=${encodeURIComponent(node.url)}&api=identity&transport=connect&inbox=${INBOX}`)
  await waitForLog(page)
  await expect(timeline(page)).toHaveCount(1)
  await expect(page.getByRole('switch', { name: 'Follow' })).toBeChecked()
  await expect(followState(page)).toContainText('live')
  // The permalink records that the view follows.
  await expect.poll(() => new URL(page.url()).searchParams.get('follow')).toBe('1')

  // At the head: the view moves to each new head.
  await node.publish(log[1]!)
  await expect(timeline(page)).toHaveCount(2)
  await expect(timeline(page).nth(1)).toHaveAttribute('aria-selected', 'true')
  await node.publish(log[2]!)
  await expect(timeline(page)).toHaveCount(3)
  await expect(timeline(page).nth(2)).toHaveAttribute('aria-selected', 'true')
  await expect(page.getByLabel('Open log')).toContainText('every update applies')

  // Away from the head: the view stays, a notice counts what landed.
  await timeline(page).first().click()
  await expect(timeline(page).first()).toHaveAttribute('aria-selected', 'true')
  await node.publish(log[3]!)
  await expect(timeline(page)).toHaveCount(4)
  await expect(page.getByText('1 new update', { exact: false })).toBeVisible()
  await expect(timeline(page).first()).toHaveAttribute('aria-selected', 'true')
  await node.publish(log[4]!)
  await expect(timeline(page)).toHaveCount(5)
  await expect(page.getByText('2 new updates')).toBeVisible()
  await expectNoA11yViolations(page)
  await shot(page, info, 'follow-notice')
  await page.getByRole('button', { name: 'Jump to the newest' }).click()
  await expect(timeline(page).nth(4)).toHaveAttribute('aria-selected', 'true')
  await expect(page.getByText('new update')).toHaveCount(0)

  // The node restarts: reconnecting, then live again, and what it accepts next still lands.
  await node.down()
  await expect(followState(page)).toContainText('reconnecting')
  await node.up()
  await expect(followState(page)).toContainText('live', { timeout: 20_000 })
  await node.publish(log[5]!)
  await expect(timeline(page)).toHaveCount(6)
  await expect(timeline(page).nth(5)).toHaveAttribute('aria-selected', 'true')

  // Off: recorded as follow=0, and nothing more is asked of the node.
  await page.getByRole('switch', { name: 'Follow' }).click()
  await expect(followState(page)).toContainText('off')
  await expect.poll(() => new URL(page.url()).searchParams.get('follow')).toBe('0')
})
