/** Helpers of the specs that sign in the playground (playground.spec.ts, smart-wallet.spec.ts). */
import type { Page } from '@playwright/test'
import { expect } from '../fixtures'

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
