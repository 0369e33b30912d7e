/**
 * Edit mode (issue #16) in Chromium: each "break it" button turns the demo log
 * (valid-full-life) into an edited copy that the worker replays, and shows the rule the
 * core now names; the copy is always marked (badge, colour, export name) and the original
 * is one click away.
 */
import { createHash } from 'node:crypto'
import type { Page } from '@playwright/test'
import { expect, expectNoA11yViolations, test } from './fixtures'
import { shot, summary, waitForLog } from './helpers'

/** The fixture generator's keys (scripts/gen-fixtures.ts): sha256 of `fixture-key-<label>`, as 0x hex. */
const fixtureKey = (label: string): string => `0x${createHash('sha256').update(`fixture-key-${label}`).digest('hex')}`

const drawer = (page: Page) => page.locator('[data-drawer="edit"]')
const result = (page: Page) => page.getByRole('status', { name: 'Result of the last edit' })

async function openDemo(page: Page): Promise<void> {
  await page.goto('/')
  await waitForLog(page)
  await expect(page.getByRole('group', { name: 'Open log' }).or(page.locator('.source'))).toContainText(
    'valid-full-life',
  )
}

async function importKey(page: Page, hex: string): Promise<void> {
  await page.getByRole('button', { name: 'Signers…' }).click()
  await page.getByLabel('Private key', { exact: true }).fill(hex)
  await page.getByRole('button', { name: 'Import key' }).click()
  await expect(page.getByLabel('Private key', { exact: true })).toHaveValue('')
  await page.getByRole('button', { name: 'Signers…' }).click()
}

const BREAKS: readonly { title: string; rule: RegExp; seq: string }[] = [
  { title: 'Replay an old add after its revocation', rule: /rejected\s+under IDENT-050/, seq: '14' },
  { title: 'Let an installation add an installation', rule: /rejected\s+under IDENT-041/, seq: '15' },
  { title: 'Change one character of the text’s inbox id', rule: /rejected\s+under IDENT-030/, seq: '12' },
  { title: 'Claim a handle with a capital letter', rule: /rejected\s+under IDENT-078/, seq: '7' },
  { title: 'Sign a revocation with a non-recovery member', rule: /rejected\s+under IDENT-043/, seq: '10' },
  { title: 'Re-encode an ECDSA signature with high s', rule: /rejected\s+under IDENT-050/, seq: '14' },
]

test('each break-it button makes an edited copy and shows the rule that now rejects it', async ({ page }, info) => {
  // Every break-it button in turn, each an edited copy replayed: the longest test of the suite.
  test.slow()
  await openDemo(page)
  // IDENT-041 needs an installation of the inbox to sign: this browser holds the recovery wallet's key.
  await importKey(page, fixtureKey('wallet-2'))
  await page.getByRole('button', { name: 'Edit…' }).click()
  await expect(drawer(page).getByRole('heading', { name: 'Edit mode' })).toBeVisible()
  for (const b of BREAKS) {
    await test.step(b.title, async () => {
      const button = drawer(page).getByRole('button', { name: b.title, exact: true })
      await expect(button).toBeEnabled()
      await button.click()
      await expect(result(page)).toContainText(b.rule)
      await expect(result(page)).toContainText(`Sequence id ${b.seq} is now`)
      // Marked as edited; every view shows the edited log: the selected step is the broken update.
      await expect(page.locator('.source.edited .edited-badge')).toHaveText('edited')
      await expect(summary(page)).toContainText(`sequence id ${b.seq}`)
      await expect(summary(page)).toContainText('rejected')
      const changed = page.getByRole('region', { name: 'What changed' })
      await expect(changed.getByRole('list', { name: 'Verdicts that changed' })).toContainText(
        new RegExp(`sequence id ${b.seq}: (applied|not in the original) →\\s*rejected\\s+under`),
      )
      if (b.seq === '7') {
        // The exact characters of the text that changed, and the head state that differs.
        const diff = changed.getByLabel('Signature text diff of sequence id 7')
        await expect(diff.locator('del')).toHaveText('n')
        await expect(diff.locator('ins')).toHaveText('N')
        await expect(changed.getByRole('list', { name: 'How the head state differs' })).toBeVisible()
        await page.setViewportSize({ width: 1440, height: 900 })
        await shot(page, info, 'edit-capital-handle-1440')
        await page.setViewportSize({ width: 390, height: 844 })
        await shot(page, info, 'edit-capital-handle-390')
        await page.setViewportSize({ width: 1440, height: 900 })
      }
      if (b.seq === '12')
        await expect(changed.getByRole('list', { name: 'Signatures that changed' })).toContainText('no longer verifies')
      // The original is one click away, in the header.
      await page.locator('.topbar').getByRole('button', { name: 'Restore original' }).click()
      await expect(page.locator('.edited-badge')).toHaveCount(0)
      await expect(page.locator('.source')).toContainText('example valid-full-life')
      await expect(page.locator('.source')).toContainText('every update applies')
    })
  }
  await expectNoA11yViolations(page)
})

test('a break-it whose target the log lacks is disabled with the reason', async ({ page }) => {
  await openDemo(page)
  await page.getByRole('button', { name: 'Edit…' }).click()
  const b = drawer(page).getByRole('button', { name: 'Let an installation add an installation', exact: true })
  await expect(b).toBeDisabled()
  await expect(b).toHaveAccessibleDescription(/Not here: .*import one in Signers/)
})

test('an edit breaks a claim, re-signing with a local key makes it apply again; the badge survives a permalink reload', async ({
  page,
}, info) => {
  // Edit, re-sign, publish and reload a permalink: several replays in one test.
  test.slow()
  await openDemo(page)
  await importKey(page, fixtureKey('wallet-1')) // the wallet that signed the claim of sequence id 5
  await page
    .getByRole('listbox', { name: /Updates and their actions/ })
    .getByRole('option')
    .filter({ hasText: 'ClaimHandle' })
    .first()
    .click()
  await expect(summary(page)).toContainText('sequence id 5')
  await page.getByRole('button', { name: 'Edit…' }).click()
  const form = drawer(page).getByRole('form', { name: 'Set a field of sequence id 5' })
  await form.getByLabel('Field').selectOption({ label: 'action 0 handle' })
  await form.getByLabel('Value').fill('nico')
  await form.getByRole('button', { name: 'Set field' }).click()
  // The wallet's signature now recovers to another address: the claim's signer is no member (IDENT-081).
  await expect(summary(page)).toContainText('rejected')
  await expect(page.locator('.source')).toContainText('stops at sequence id 5: IDENT-081')
  const changed = page.getByRole('region', { name: 'What changed' })
  await expect(changed.getByRole('list', { name: 'Signatures that changed' })).toContainText('another signer')
  await expect(changed.getByLabel('Signature text diff of sequence id 5').locator('ins')).toHaveText('o')

  // A bad value is refused inline, naming the operation, and the edited log stays open.
  await form.getByLabel('Field').selectOption({ label: 'client_timestamp_ns' })
  await form.getByLabel('Value').fill('soon')
  await form.getByRole('button', { name: 'Set field' }).click()
  await expect(drawer(page).getByRole('alert')).toContainText('set client_timestamp_ns of sequence id 5: ')
  await expect(drawer(page).getByRole('alert')).toContainText('uint64')
  await expect(page.locator('.source')).toContainText('stops at sequence id 5: IDENT-081')

  await drawer(page).getByRole('button', { name: 'Re-sign with this browser’s keys' }).click()
  await expect(page.locator('.source')).toContainText('every update applies')
  await expect(page.locator('.source.edited .edited-badge')).toBeVisible()
  await expect(changed.getByRole('list', { name: 'Verdicts that changed' })).toHaveCount(0)
  await page.setViewportSize({ width: 1440, height: 900 })
  await shot(page, info, 'edit-resigned-1440')
  await page.setViewportSize({ width: 390, height: 844 })
  await shot(page, info, 'edit-resigned-390')
  await expectNoA11yViolations(page)
  await page.setViewportSize({ width: 1440, height: 900 })
  await expectNoA11yViolations(page)

  // The permalink carries the edited log and its mark: after a reload the badge is back.
  await expect.poll(() => page.url()).toMatch(/edited=\d+&orig=/)
  await page.reload()
  await waitForLog(page)
  await expect(page.locator('.source.edited .edited-badge')).toHaveText('edited')
  await expect(page.locator('.source')).toContainText('edited copy of example valid-full-life')
  await expect(page.locator('.source')).toContainText('every update applies')
  // The export names say so too.
  const download = page.waitForEvent('download')
  await page.getByRole('group', { name: 'Exports' }).getByRole('button', { name: 'Bundle JSON' }).click()
  expect((await download).suggestedFilename()).toBe('valid-full-life-edited.bundle.json')
  // And the original is one click away.
  await page.locator('.topbar').getByRole('button', { name: 'Restore original' }).click()
  await expect(page.locator('.edited-badge')).toHaveCount(0)
  await expect(page.locator('.source')).toContainText('example valid-full-life')
})

test('the actions of an update are reordered and copied from the form; the core names the broken rule', async ({
  page,
}) => {
  await openDemo(page)
  await expect(summary(page)).toContainText('sequence id 1 · action 0 of 2')
  await page.getByRole('button', { name: 'Edit…' }).click()
  const actions = drawer(page).getByRole('list', { name: 'Actions of the update' })
  await expect(actions.getByRole('listitem')).toHaveText([/action 0 · create_inbox/, /action 1 · add/])
  await expect(actions.getByRole('button', { name: 'Move action 0 up' })).toBeDisabled()
  await actions.getByRole('button', { name: 'Move action 1 up' }).click()
  // An add before the creation: the log no longer opens with its creation (IDENT-011).
  await expect(page.locator('.source')).toContainText('stops at sequence id 1: IDENT-011')
  await expect(actions.getByRole('listitem')).toHaveText([/action 0 · add/, /action 1 · create_inbox/])
  // Moved back: every update applies again, and a copy of the add breaks the update once more.
  await actions.getByRole('button', { name: 'Move action 1 up' }).click()
  await expect(page.locator('.source')).toContainText('every update applies')
  await actions.getByRole('button', { name: 'Copy action 1' }).click()
  await expect(actions.getByRole('listitem')).toHaveCount(3)
  await expect(page.locator('.source')).toContainText('stops at sequence id 1')
  await expectNoA11yViolations(page)
})
