/**
 * Defects of issue #12 that live in the app shell (App.tsx, useInspector): each test
 * here failed before its fix. The local node is the one playwright.config.ts starts
 * (E2E_NODE_PORT, demo inboxes).
 */
import type { Page } from '@playwright/test'
import { bytesToHex } from '../src/crypto/bytes'
import { demoInboxes } from '../src/devnode/demo'
import { createInbox, ethKeySigner, inboxIdOf, signUpdate } from '../src/signing'
import { T0, testKey } from '../src/signing/testkit'
import { expect, expectNoA11yViolations, test } from './fixtures'
import { fetchFromNode, fixture, pressAndSee, summary, waitForLog } from './helpers'

// Code inside page.evaluate / addInitScript runs in the page; tsconfig.node.json has no DOM lib.
declare const window: any

const NODE = `http://127.0.0.1:${process.env.E2E_NODE_PORT}`
const inbox = (name: string) => demoInboxes().find((d) => d.name === name)!.inboxId

/** Counts the replay worker's `open` requests (each one is a (re)load of a log). */
async function countOpens(page: Page): Promise<void> {
  await page.addInitScript(() => {
    const w = window as { __opens: number; Worker: { prototype: { postMessage: (m: unknown) => void } } }
    w.__opens = 0
    const post = w.Worker.prototype.postMessage
    w.Worker.prototype.postMessage = function (this: unknown, m: unknown, ...rest: unknown[]) {
      if (m && typeof m === 'object' && (m as { type?: string }).type === 'open') w.__opens++
      return (post as (...a: unknown[]) => void).call(this, m, ...rest)
    }
  })
}
const opens = (page: Page) => page.evaluate(() => (window as { __opens: number }).__opens)
/** Two animation frames and an idle period: long enough for an effect that re-opens the log to post its request. */
const settle = (page: Page) =>
  page.evaluate(
    () =>
      new Promise<void>((done) =>
        window.requestAnimationFrame(() =>
          window.requestAnimationFrame(() =>
            (window.requestIdleCallback ?? setTimeout)(() => done(), { timeout: 1000 }),
          ),
        ),
      ),
  )

/** Open log… › From a node, with the local node's profile (the default). */
const fetchBy = (page: Page, by: string, identifier: string) => fetchFromNode(page, by, identifier)

for (const by of ['Handle', 'Inbox id'] as const) {
  test(`a log fetched by ${by.toLowerCase()} is opened once, at its head, and keeps the selection`, async ({
    page,
  }) => {
    await countOpens(page)
    await page.goto(`/?node=${encodeURIComponent(NODE)}`)
    await waitForLog(page)
    const before = await opens(page)
    await fetchBy(page, by, by === 'Handle' ? 'alice' : inbox('alice'))
    await expect(page.getByLabel('Open log')).toContainText(`${NODE} (identity over connect)`, { timeout: 30_000 })
    await waitForLog(page)
    await settle(page)
    expect(await opens(page)).toBe(before + 1)
    // At the head: the last row is selected (End changes nothing).
    const listbox = page.getByRole('listbox', { name: /Updates and their actions/ })
    const last = listbox.getByRole('option').last()
    await listbox.focus()
    await page.keyboard.press('End')
    await expect(last).toHaveAttribute('aria-selected', 'true')
    // The selection stays where the user puts it.
    await page.keyboard.press('Home')
    await expect(listbox.getByRole('option').first()).toHaveAttribute('aria-selected', 'true')
    await settle(page)
    await settle(page)
    expect(await opens(page)).toBe(before + 1)
    await expect(listbox.getByRole('option').first()).toHaveAttribute('aria-selected', 'true')
  })
}

test('a fetched log opens at its head (not at its first update)', async ({ page }) => {
  await page.goto(`/?node=${encodeURIComponent(NODE)}`)
  await waitForLog(page)
  await fetchBy(page, 'Handle', 'alice')
  await expect(page.getByLabel('Open log')).toContainText(`${NODE} (identity over connect)`, { timeout: 30_000 })
  await waitForLog(page)
  await expect(summary(page)).not.toContainText('sequence id 1 ')
  const options = page.getByRole('listbox', { name: /Updates and their actions/ }).getByRole('option')
  await expect(options.last()).toHaveAttribute('aria-selected', 'true')
})

test('what the user opens while the demo log loads wins: the demo neither replaces it nor closes the panel', async ({
  page,
}) => {
  // Hold the demo's data chunk until the user has pasted a log.
  let release!: () => void
  const held = new Promise<void>((r) => (release = r))
  await page.route(/valid-full-life-[^/]*\.js$/, async (route) => {
    await held
    await route.continue()
  })
  await countOpens(page)
  await page.goto('/')
  const openButton = page.getByRole('button', { name: 'Open log…' })
  await expect(page.getByLabel(/^Paste:/)).toBeVisible()
  await page.getByLabel(/^Paste:/).fill(fixture('IDENT-013-add-checksummed-address.json').toString('utf8'))
  await page.getByRole('button', { name: 'Open pasted log' }).click()
  await waitForLog(page)
  await expect(page.getByLabel('Open log')).toContainText('The pasted text')
  // Now the user opens the panel again, then the demo's chunk arrives.
  await openButton.click()
  await expect(openButton).toHaveAttribute('aria-expanded', 'true')
  const opened = await opens(page)
  const chunk = page.waitForResponse(/valid-full-life-[^/]*\.js$/)
  release()
  const url = (await chunk).url()
  // Importing the same module resolves after the app's own import of it did: by then the
  // demo's load has either posted its `open` to the worker or given way.
  await page.evaluate((u) => import(u).then(() => undefined), url)
  await settle(page)
  expect(await opens(page)).toBe(opened)
  await expect(page.getByLabel('Open log')).toContainText('The pasted text')
  await expect(openButton).toHaveAttribute('aria-expanded', 'true')
})

for (const width of [900, 800, 390]) {
  test(`at ${width} px the step details scroll into view (state, diff, signature text, signatures, raw)`, async ({
    page,
  }) => {
    await page.setViewportSize({ width, height: 800 })
    await page.goto('/')
    await waitForLog(page)
    for (const [tab, name] of [
      ['State', 'Association state'],
      ['Diff', 'Change from the previous step'],
      ['Signature text', 'Signature text'],
      ['Signatures', 'Signatures'],
      ['Raw', 'Raw update (protobuf)'],
    ] as const) {
      const t = page.getByRole('tab', { name: tab, exact: true })
      await t.scrollIntoViewIfNeeded()
      await t.click()
      const heading = page.getByRole('heading', { name, exact: true })
      await heading.scrollIntoViewIfNeeded()
      await expect(heading).toBeInViewport()
    }
  })
}

test('keyboard: Arrow Right/Left step whole updates, Escape closes the open panel, a skip link reaches the step', async ({
  page,
}) => {
  await page.goto('/')
  await waitForLog(page)
  await expect(page.getByRole('listbox', { name: /Updates and their actions/ })).toHaveAccessibleName(/Left\/Right/)
  await expect(summary(page)).toContainText('sequence id 1 · action 0 of 2')
  await pressAndSee(page, 'ArrowRight', 'sequence id 2')
  await pressAndSee(page, 'ArrowRight', 'sequence id 3')
  await pressAndSee(page, 'ArrowLeft', 'sequence id 2')

  const openButton = page.getByRole('button', { name: 'Open log…' })
  await openButton.click()
  await expect(openButton).toHaveAttribute('aria-expanded', 'true')
  await page.keyboard.press('Escape')
  await expect(openButton).toHaveAttribute('aria-expanded', 'false')
  const signers = page.getByRole('button', { name: 'Signers…' })
  await signers.click()
  await expect(signers).toHaveAttribute('aria-expanded', 'true')
  await page.keyboard.press('Escape')
  await expect(signers).toHaveAttribute('aria-expanded', 'false')

  // From the top of a fresh page, the first Tab reaches the skip link.
  await page.goto('/')
  await waitForLog(page)
  await page.keyboard.press('Tab')
  const skip = page.getByRole('link', { name: 'Skip to the selected step' })
  await expect(skip).toBeFocused()
  await expect(skip).toBeInViewport()
  await page.keyboard.press('Enter')
  await expect(page.locator('#step-details')).toBeFocused()
})

test('the timeline head counts "1 action · 1 update" in the singular', async ({ page }) => {
  await page.goto('/')
  await waitForLog(page)
  await page.getByRole('searchbox', { name: /Filter by member or handle/ }).fill('nick#2341')
  await expect(page.locator('.timeline-head')).toContainText(/1 of 14 actions · 13 updates/)
  await page.getByRole('searchbox', { name: /Filter by member or handle/ }).fill('')
  await pasteLogOne(page)
})

/** A log of one update with one action (a CreateInbox), signed here. */
async function pasteLogOne(page: Page) {
  const wallet = ethKeySigner(testKey('workbench one-update log'))
  const signed = await signUpdate({ clientTimestampNs: T0, actions: [createInbox(wallet)] })
  const text = JSON.stringify({
    inbox_id: inboxIdOf(wallet, 0n),
    updates: [{ sequence_id: '1', update_hex: bytesToHex(signed.bytes) }],
  })
  await page.getByRole('button', { name: 'Open log…' }).click()
  await page.getByLabel(/^Paste:/).fill(text)
  await page.getByRole('button', { name: 'Open pasted log' }).click()
  await waitForLog(page)
  await expect(page.locator('.timeline-head .muted')).toHaveText('1 action · 1 update')
}

test('? lists every key in a dialog that Escape closes, keyboard only, axe clean', async ({ page }) => {
  await page.goto('/')
  await waitForLog(page)
  await page.getByRole('listbox', { name: /Updates and their actions/ }).focus()
  await page.keyboard.press('?')
  const dialog = page.getByRole('dialog', { name: 'Keyboard' })
  await expect(dialog).toBeVisible()
  await expect(dialog).toContainText('previous / next update')
  await expect(dialog.getByRole('button', { name: 'Close' })).toBeFocused()
  await expectNoA11yViolations(page)
  await page.keyboard.press('Escape')
  await expect(dialog).toHaveCount(0)
  await expect(page.getByRole('listbox', { name: /Updates and their actions/ })).toBeFocused()
})
