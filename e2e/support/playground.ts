/** Helpers of the specs that sign in the playground (playground.spec.ts, smart-wallet.spec.ts, workbench-publish.spec.ts). */
import type { Page } from '@playwright/test'
import { expect } from '../fixtures'
import { openSettings, waitForLog } from '../helpers'
import { connectWallet, installWallet, type TestWallet } from './wallet'

/** The signing playground's region. */
export function playground(page: Page) {
  return page.getByRole('region', { name: 'Signing playground' })
}

/** Signs the draft on screen and waits until the log shows it appended at `seq`, every update applied. */
export async function signAndAppend(page: Page, seq: number): Promise<void> {
  const pg = playground(page)
  const sign = pg.getByRole('button', { name: 'Sign', exact: true })
  await expect(sign).toBeEnabled()
  await sign.click()
  await expect(pg.getByRole('status', { name: 'Append result' })).toContainText(
    `Appended to the log as sequence id ${seq} and replayed`,
    { timeout: 30_000 },
  )
  await expect(page.locator('.step-summary')).toContainText(`sequence id ${seq}`)
  await expect(page.getByLabel('Open log', { exact: true })).toContainText('every update applies')
}

/** The e2e local node (playwright.config.ts starts it). */
export const E2E_NODE = `http://127.0.0.1:${process.env.E2E_NODE_PORT}`

/**
 * Opens the app on the e2e node with the test wallet connected, once Settings shows the node
 * reachable, and the playground drafting a new inbox.
 */
export async function newInboxOnNode(page: Page): Promise<{ wallet: TestWallet; pg: ReturnType<typeof playground> }> {
  const wallet = await installWallet(page)
  await page.goto(`/?node=${encodeURIComponent(E2E_NODE)}`)
  await waitForLog(page)
  // The node is up (its status is on the local node's profile, in Settings).
  await expect((await openSettings(page)).getByRole('status', { name: 'Node status' })).toContainText('node reachable')
  await page.keyboard.press('Escape')
  await connectWallet(page)
  await page.getByRole('button', { name: 'Sign…' }).click()
  const pg = playground(page)
  await pg.getByRole('radio', { name: 'a new inbox' }).check()
  return { wallet, pg }
}
