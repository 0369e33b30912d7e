/**
 * The signing playground (issue 4) through the UI, in Chromium, with Chromium's virtual
 * WebAuthn authenticator and an injected EIP-1193 test wallet announced by EIP-6963
 * (e2e/support): create an inbox with the wallet, register this browser as an
 * installation (the app's pre-authentication prompt answered before the wallet is asked,
 * IDENT-073), link a passkey, claim two handles and go back to the first (IDENT-082),
 * rotate the recovery identifier to the passkey, revoke the wallet and see the cascade
 * (IDENT-044); then export the log from the UI and replay it with the command line, every
 * update applied. And a wallet that signs with another account: reported, nothing appended.
 */
import { readFileSync } from 'node:fs'
import type { Page } from '@playwright/test'
import { inboxIdOf } from '../src/signing/draft'
import { shortId } from '../src/app/ui/format'
import { expect, expectNoA11yViolations, test } from './fixtures'
import { waitForLog } from './helpers'
import { addVirtualAuthenticator } from './support/authenticator'
import { runCli } from '../test/support/cli'
import { connectWallet, installWallet } from './support/wallet'
import { E2E_NODE, newInboxOnNode, playground, signAndAppend } from './support/playground'

// anvil's key #1 (test only): the account the wallet switches to in the negative case.
const OTHER_KEY = '0x59c6995e998f97a5a0044966f0945389dc9e86dae88c7a8412f4603b6b78690d'

async function chooseAction(page: Page, name: string): Promise<void> {
  await playground(page).getByRole('radiogroup', { name: 'Action' }).getByRole('radio', { name }).check()
}

test('the full playground flow: create, register, link a passkey, claim, rotate recovery, revoke; the CLI replays the exported log', async ({
  page,
}, info) => {
  test.setTimeout(180_000)
  const wallet = await installWallet(page)
  // The test's own node: the claim step asks the app's node who holds the handle (GetInboxIds),
  // and the app's default node (127.0.0.1:8787) is not this test's to run, nor to reach.
  await page.goto(`/?node=${encodeURIComponent(E2E_NODE)}`)
  await waitForLog(page)
  await addVirtualAuthenticator(page)
  await connectWallet(page)

  await page.getByRole('button', { name: 'Sign…' }).click()
  const pg = playground(page)
  await pg.getByRole('radio', { name: 'a new inbox' }).check()

  // CreateInbox: the inbox id is derived as the nonce is typed (IDENT-010).
  await pg.getByRole('textbox', { name: 'Nonce' }).fill('x')
  await expect(pg.getByRole('list', { name: 'What the draft still needs' })).toContainText('not a decimal whole number')
  await pg.getByRole('textbox', { name: 'Nonce' }).fill('3')
  await expect(pg.getByLabel('Derived inbox id')).toHaveText(inboxIdOf(wallet.address, 3n))
  await pg.getByRole('textbox', { name: 'Nonce' }).fill('0')
  const inboxId = inboxIdOf(wallet.address, 0n)
  await expect(pg.getByLabel('Derived inbox id')).toHaveText(inboxId)
  await expect(pg.getByLabel('Exact signature text')).toContainText(`Inbox ID: ${inboxId}`)
  await expect(pg.getByLabel('Exact signature text')).toContainText(`(Owner: ${wallet.address})`)
  await expect(pg.getByRole('status', { name: 'Dry run result' })).toContainText('inbox created')
  expect(wallet.personalSignCount()).toBe(0) // nothing is asked before Sign
  await expectNoA11yViolations(page)
  await signAndAppend(page, 1)
  expect(wallet.personalSignCount()).toBe(1)

  // Register this browser as an installation: the app's prompt comes first (IDENT-073).
  await pg.getByRole('tab', { name: 'Register this browser' }).click()
  await expect(pg.getByRole('textbox', { name: 'Installation ceiling' })).toHaveValue('10')
  await pg.getByRole('button', { name: 'New installation key' }).click()
  await expect(pg.getByRole('combobox', { name: 'Installation key' })).toContainText('installation key')
  await pg.getByRole('button', { name: 'Register this browser' }).click()
  const dialog = page.getByRole('dialog', { name: 'Before signing' })
  await expect(dialog).toBeVisible()
  await expect(dialog).toContainText('Nothing has been signed yet')
  expect(wallet.personalSignCount()).toBe(1) // the wallet has not been asked while the prompt is open
  await dialog.getByRole('button', { name: 'Continue to signing' }).click()
  await expect(pg.getByRole('status', { name: 'Registration result' })).toContainText('Registered installation', {
    timeout: 30_000,
  })
  await expect(pg.getByRole('status', { name: 'Registration result' })).toContainText('at sequence id 2')
  const steps = await pg.getByRole('list', { name: 'Registration steps' }).getByRole('listitem').allTextContents()
  expect(steps[0]).toMatch(/^Pre-authentication prompt shown; no signer has been asked yet \(IDENT-073\)/)
  expect(steps.findIndex((s) => s.startsWith('Asked the approving member'))).toBeGreaterThan(0)
  expect(steps.some((s) => /Visible: the newest sequence id is 2/.test(s))).toBe(true)
  expect(wallet.personalSignCount()).toBe(2)
  await expect(page.locator('.step-summary')).toContainText('sequence id 2')

  // The client-side ceiling (CONF-044), set to 1: a second installation is stopped, with the reason, before any prompt.
  await pg.getByRole('textbox', { name: 'Installation ceiling' }).fill('0')
  await expect(pg.getByRole('alert').filter({ hasText: 'must be at least 1' })).toBeVisible()
  await expect(pg.getByRole('button', { name: 'Register this browser' })).toBeDisabled()
  await pg.getByRole('textbox', { name: 'Installation ceiling' }).fill('1')
  await pg.getByRole('button', { name: 'New installation key' }).click()
  await expect(pg.getByRole('combobox', { name: 'Installation key' }).locator('option:checked')).not.toContainText(
    'already a member',
  )
  await pg.getByRole('button', { name: 'Register this browser' }).click()
  await expect(pg.getByRole('alert', { name: 'Registration result' })).toContainText(
    'Stopped by the installation ceiling: inbox ' +
      inboxId +
      ' already has 1 installation, and this client registers no more than 1 (CONF-044)',
  )
  await expect(page.getByRole('dialog', { name: 'Before signing' })).toHaveCount(0)
  expect(wallet.personalSignCount()).toBe(2)
  await pg.getByRole('textbox', { name: 'Installation ceiling' }).fill('10')

  // AddAssociation: link a passkey created with the virtual authenticator; both signatures.
  await pg.getByRole('tab', { name: 'Compose an update' }).click()
  await chooseAction(page, 'Add a member')
  await pg.getByRole('button', { name: 'New passkey' }).click()
  await expect(pg.getByRole('combobox', { name: 'New member' })).toContainText('passkey')
  await expect(pg.getByLabel('Exact signature text')).toContainText('- Link passkey to inbox')
  await expect(pg.getByRole('status', { name: 'Signature status' })).toContainText(
    'Still missing: existing member’s approval',
  )
  await expect(pg.getByRole('status', { name: 'Signature status' })).toContainText('new member’s signature')
  await signAndAppend(page, 3)

  // ClaimHandle: the grammar as typed (IDENT-078), two handles, then back to the first.
  await chooseAction(page, 'Claim a handle')
  const handle = pg.getByRole('textbox', { name: 'Handle to claim' })
  await handle.fill('Nick')
  await expect(pg.getByLabel('Handle check')).toContainText(
    'contains an uppercase letter; the only spelling is lowercase',
  )
  await expect(pg.getByRole('alert', { name: 'Dry run result' })).toContainText('IDENT-078')
  await expect(pg.getByRole('button', { name: 'Sign', exact: true })).toBeDisabled()
  await handle.fill('nick')
  await expect(pg.getByLabel('Handle check')).toContainText('claims nick as the display handle')
  await signAndAppend(page, 4)
  await handle.fill('nick#2341')
  await signAndAppend(page, 5)
  await handle.fill('nick')
  await expect(pg.getByLabel('Handle check')).toContainText(
    'the inbox already holds nick: the claim moves it to the end',
  )
  await expect(pg.getByRole('status', { name: 'Dry run result' })).toContainText('display handle nick#2341 → nick')
  await signAndAppend(page, 6)

  // ChangeRecoveryAddress to the passkey: the chain id consequence, a deliberate confirmation.
  await chooseAction(page, 'Change recovery')
  await expect(pg.getByRole('combobox', { name: 'New recovery identifier' })).toContainText('passkey')
  await expect(pg.getByLabel('Recovery chain id')).toContainText(
    'is a member with no chain id, so the recovery role has none',
  )
  const sign = pg.getByRole('button', { name: 'Sign', exact: true })
  await expect(sign).toBeDisabled()
  const confirmRotation = pg.getByRole('checkbox', { name: /becomes the recovery identifier/ })
  await confirmRotation.check()
  await signAndAppend(page, 7)

  // RevokeAssociation of the wallet, signed by the passkey: the cascade is shown first.
  await chooseAction(page, 'Revoke a member')
  await pg
    .getByRole('combobox', { name: 'Member to revoke' })
    .selectOption({ label: `wallet ${shortId(wallet.address)}` })
  await expect(pg.getByLabel('Revocation cascade')).toContainText(
    `removes ethereum ${wallet.address} and 1 installation it added`,
  )
  await expect(pg.getByLabel('Revocation cascade').getByRole('listitem')).toHaveCount(2)
  await expect(sign).toBeDisabled()
  await pg.getByRole('checkbox', { name: /I understand this revocation removes/ }).check()
  const signsBefore = wallet.personalSignCount()
  await signAndAppend(page, 8)
  expect(wallet.personalSignCount()).toBe(signsBefore) // the passkey signed, not the wallet
  await expectNoA11yViolations(page)

  // The playground drawer covers the step details and their export bar: close it first, as
  // a user would, then read the appended step's Diff tab and export the log.
  await page.getByRole('button', { name: 'Close the signing playground' }).click()
  await expect(pg).toBeHidden()
  await page.getByRole('tab', { name: 'Diff' }).click()
  const changes = page.getByRole('list', { name: 'Changes', exact: true })
  await expect(changes).toContainText('removed')
  await expect(changes.getByRole('listitem').filter({ hasText: 'removed' })).toHaveCount(2)
  const [download] = await Promise.all([
    page.waitForEvent('download'),
    page.getByRole('group', { name: 'Exports' }).getByRole('button', { name: 'Bundle JSON' }).click(),
  ])
  const file = info.outputPath('playground.bundle.json')
  await download.saveAs(file)
  expect(readFileSync(file, 'utf8')).not.toMatch(/private|secret/i)
  const run = await runCli(['replay', '--json', file])
  expect(run.code, run.stderr).toBe(0)
  const out = run.stdout.toString('utf8')
  const report = JSON.parse(out.trim().split('\n')[0]!) as {
    ok: boolean
    inbox_id: string
    updates: { sequence_id: string; status: string }[]
    state: { handles: string[]; recovery: { kind: string }; members: { kind: string }[] }
  }
  expect(report.inbox_id).toBe(inboxId)
  expect(report.updates.map((u) => [u.sequence_id, u.status])).toEqual(
    ['1', '2', '3', '4', '5', '6', '7', '8'].map((s) => [s, 'applied']),
  )
  expect(report.ok).toBe(true)
  expect(report.state.handles).toEqual(['nick#2341', 'nick'])
  expect(report.state.recovery.kind).toBe('passkey')
  expect(report.state.members.map((m) => m.kind)).toEqual(['passkey'])
})

test('a wallet that signs with another account is named, and nothing is appended', async ({ page }) => {
  const wallet = await installWallet(page)
  await page.goto('/')
  await waitForLog(page)
  const openLog = await page.getByLabel('Open log', { exact: true }).textContent()
  await connectWallet(page)
  // Keyboard: the header button opens the playground; arrow keys move between its tabs.
  await page.getByRole('button', { name: 'Sign…' }).press('Enter')
  const pg = playground(page)
  await pg.getByRole('tab', { name: 'Compose an update' }).focus()
  await page.keyboard.press('ArrowRight')
  await expect(pg.getByRole('tab', { name: 'Register this browser' })).toBeFocused()
  await expect(pg.getByRole('tab', { name: 'Register this browser' })).toHaveAttribute('aria-selected', 'true')
  await page.keyboard.press('ArrowLeft')
  await expect(pg.getByRole('tab', { name: 'Compose an update' })).toHaveAttribute('aria-selected', 'true')
  await pg.getByRole('radio', { name: 'a new inbox' }).check()
  const asked = wallet.address
  await expect(pg.getByLabel('Exact signature text')).toContainText(`(Owner: ${asked})`)
  wallet.switchAccount(OTHER_KEY) // the wallet now answers personal_sign as another account
  await pg.getByRole('button', { name: 'Sign', exact: true }).click()
  const row = pg.locator('tr[data-slot="initial_identifier_signature"]')
  await expect(row).toContainText('failed')
  await expect(row).toContainText(`must come from ethereum ${asked} (the wallet signed with another account)`)
  await expect(row).toContainText('wrong_signer')
  await expect(pg.getByRole('status', { name: 'Append result' })).toHaveCount(0)
  await expect(page.getByLabel('Open log', { exact: true })).toHaveText(openLog ?? '')
  expect(wallet.personalSignCount()).toBe(1)
  await expect(pg.getByRole('button', { name: 'Ask the missing signers again' })).toBeEnabled()
})

test('publish to the node: stored with its sequence id and visible (IDENT-072); a registration sent to the node completes only once QueryNewest shows it', async ({
  page,
}) => {
  test.setTimeout(120_000)
  const node = E2E_NODE
  const { wallet, pg } = await newInboxOnNode(page)
  await pg.getByRole('textbox', { name: 'Nonce' }).fill('5')
  const inboxId = inboxIdOf(wallet.address, 5n)
  await expect(pg.getByLabel('Derived inbox id')).toHaveText(inboxId)
  await signAndAppend(page, 1)

  // The node numbers its updates itself (one sequence across inboxes), so its receipt is read from the answer.
  await pg.getByRole('button', { name: 'Publish to node' }).click()
  const answer = pg.getByRole('status', { name: 'Node answer' })
  await expect(answer).toContainText(/Stored by the node with sequence id \d+\./, { timeout: 30_000 })
  const first = BigInt(/sequence id (\d+)\./.exec((await answer.textContent())!)![1]!)
  await expect(answer).toContainText(`QueryNewest shows sequence id ${first} or later for inbox ${inboxId} (IDENT-072)`)

  await pg.getByRole('tab', { name: 'Register this browser' }).click()
  await pg.getByRole('radio', { name: `the node ${node}` }).check()
  await pg.getByRole('button', { name: 'New installation key' }).click()
  await expect(pg.getByRole('combobox', { name: 'Installation key' })).toContainText('installation key')
  await pg.getByRole('button', { name: 'Register this browser' }).click()
  await page
    .getByRole('dialog', { name: 'Before signing' })
    .getByRole('button', { name: 'Continue to signing' })
    .click()
  const result = pg.getByRole('status', { name: 'Registration result' })
  await expect(result).toContainText('; visible at', { timeout: 45_000 })
  const receipt = BigInt(/at sequence id (\d+); visible at (\d+)/.exec((await result.textContent())!)![1]!)
  expect(receipt).toBeGreaterThan(first)
  const steps = await pg.getByRole('list', { name: 'Registration steps' }).getByRole('listitem').allTextContents()
  const stored = steps.indexOf(`Stored by the node ${node} with sequence id ${receipt}`)
  const visible = steps.findIndex((s) => s.startsWith('Visible: the newest sequence id is'))
  const complete = steps.indexOf(`Registration complete at sequence id ${receipt}`)
  expect(stored).toBeGreaterThan(0)
  expect(visible).toBeGreaterThan(stored)
  expect(complete).toBeGreaterThan(visible)
  expect(steps).toContain('Appended to the open log as sequence id 2')
  await expect(page.locator('.step-summary')).toContainText('sequence id 2')
  await expectNoA11yViolations(page)
})
