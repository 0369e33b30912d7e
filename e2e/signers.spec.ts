/**
 * The signers panel in Chromium, through the UI: an injected EIP-6963 wallet (connect,
 * listed, reconnect after reload, disconnect), a passkey on a CDP virtual authenticator
 * (created, listed, still listed after reload, forgotten here but kept on the
 * authenticator), local Ethereum keys (generate, export as hex and as a 32-byte file
 * after a confirmation, import back to the same address, malformed imports refused with
 * the IDENT-088 / IDENT-089 reason), installation keys, the in-memory fallback when
 * IndexedDB is unavailable, and that no private key ever reaches the console, the URL
 * or the page text outside the explicit export.
 */
import { readFileSync } from 'node:fs'
import type { ConsoleMessage, Page } from '@playwright/test'
import { privateKeyToAddress } from 'viem/accounts'
import { expect, expectNoA11yViolations, test } from './fixtures'
import { addVirtualAuthenticator } from './support/authenticator'
import { installWallet } from './support/wallet'

// Code inside addInitScript runs in the page; tsconfig.node.json has no DOM lib.
declare const window: any, DOMException: any

const short = (hex: string) => `${hex.slice(0, hex.startsWith('0x') ? 8 : 6)}…${hex.slice(-4)}`

async function openSigners(page: Page) {
  await page.goto('/')
  await page.getByRole('button', { name: 'Signers…' }).click()
  await expect(page.getByRole('heading', { name: 'Signers', exact: true })).toBeVisible()
  await expect(page.getByText('Reading the keys kept in this browser…')).toHaveCount(0)
}

/** Reloads the page and opens the panel again: what the signers panel keeps across a reload. */
async function reopenSigners(page: Page) {
  await page.reload()
  await page.getByRole('button', { name: 'Signers…' }).click()
}

/** openSigners for a long test (reloads and an axe scan: 25-35 s on a loaded 2-core machine), watching the console. */
async function openSignersWatched(page: Page): Promise<string[]> {
  test.slow()
  const consoleLines = watchConsole(page)
  await openSigners(page)
  return consoleLines
}

/** Deletes the local Ethereum key of `address`, confirming it: the list is then empty. */
async function deleteOnlyKey(page: Page, address: string) {
  await page.getByRole('button', { name: `Delete key ${short(address)}` }).click()
  await page
    .getByRole('group', { name: `Delete key ${short(address)}` })
    .getByRole('button', { name: 'Delete key' })
    .click()
  await expect(page.getByText('No local Ethereum key yet.')).toBeVisible()
}

/** Collects console messages so a test can check that no secret was logged. */
function watchConsole(page: Page): string[] {
  const lines: string[] = []
  page.on('console', (m: ConsoleMessage) => lines.push(`${m.type()}: ${m.text()}`))
  return lines
}

/** Fails if a private key (hex, either case, with or without 0x) is in the console, the URL or the page text. */
async function expectNoSecret(page: Page, consoleLines: string[], secrets: string[]) {
  // biome-ignore lint/performance/useDomNodeTextContent: the rendered text is what a user (or a screenshot) sees
  const text = (await page.evaluate(() => window.document.body.innerText as string)).toLowerCase()
  const url = page.url().toLowerCase()
  const logged = consoleLines.join('\n').toLowerCase()
  for (const s of secrets) {
    const digits = s.replace(/^0x/, '').toLowerCase()
    expect(digits).toMatch(/^[0-9a-f]{64}$/)
    expect(text.includes(digits), 'private key in the page text').toBe(false)
    expect(url.includes(digits), 'private key in the URL').toBe(false)
    expect(logged.includes(digits), 'private key in the console').toBe(false)
  }
}

const ethList = (page: Page) => page.getByRole('list', { name: 'Local Ethereum keys kept here' })
const ethError = (page: Page) => page.getByRole('alert', { name: 'Local Ethereum keys: error' })

test('no wallet installed: the panel says so', async ({ page }) => {
  await openSigners(page)
  await expect(page.getByText('No browser wallet found.')).toBeVisible()
  await expect(page.getByRole('button', { name: /^Connect / })).toHaveCount(0)
})

test('wallet: connect the injected EIP-6963 wallet, its address is listed, it reconnects after reload, and disconnects', async ({
  page,
}) => {
  test.slow() // reloads and an axe scan: 25-35 s on a loaded 2-core machine
  const wallet = await installWallet(page)
  await openSigners(page)
  const wallets = page.getByRole('list', { name: 'Wallets found' })
  await expect(wallets).toContainText('E2E Wallet')
  await expect(wallets).toContainText('dev.e2e.wallet')
  expect(wallet.authorized()).toBe(false)
  await page.getByRole('button', { name: 'Connect E2E Wallet' }).click()
  const accounts = page.getByRole('list', { name: 'Accounts of E2E Wallet' })
  await expect(accounts.locator(`code[title="${wallet.address}"]`)).toHaveText(short(wallet.address))
  await expect(accounts).toContainText('browser wallet')
  expect(wallet.address).toBe('0xf39fd6e51aad88f6f4ce6ab8827279cfffb92266')
  expect(wallet.authorized()).toBe(true)
  expect(wallet.calls).toContain('eth_chainId')
  expect(wallet.calls.some((m) => m === 'wallet_requestPermissions' || m === 'eth_requestAccounts')).toBe(true)
  expect(wallet.personalSignCount()).toBe(0) // connecting signs nothing
  await expectNoA11yViolations(page, { include: '.signers-panel' })

  await reopenSigners(page)
  await expect(
    page.getByRole('list', { name: 'Accounts of E2E Wallet' }).locator(`code[title="${wallet.address}"]`),
  ).toBeVisible()

  await page.getByRole('button', { name: 'Disconnect E2E Wallet' }).click()
  await expect(page.getByRole('button', { name: 'Connect E2E Wallet' })).toBeVisible()
  await expect(page.getByRole('list', { name: 'Accounts of E2E Wallet' })).toHaveCount(0)
  await expect.poll(() => wallet.authorized()).toBe(false) // wagmi asked the wallet to revoke (wallet_revokePermissions)
})

test('wallet: the registry signs with personal_sign through the connector; a rejection and another account are named', async ({
  page,
}) => {
  const wallet = await installWallet(page)
  await openSigners(page)
  await page.getByRole('button', { name: 'Connect E2E Wallet' }).click()
  // The registry's wallet signer: personal_sign through the connector's provider, verified by the core.
  const label = `E2E Wallet ${short(wallet.address)}`
  const all = page.getByRole('list', { name: 'Signers available for signing' })
  await expect(all).toContainText(label)
  await page.getByRole('button', { name: `Test signature with ${label}` }).click()
  const result = page.getByRole('status', { name: `Test signature result of ${label}` })
  await expect(result).toHaveText(`erc_191 signature verifies to ${wallet.address}`)
  expect(wallet.personalSignCount()).toBe(1)
  expect(wallet.calls.at(-1)).toBe('personal_sign')
  wallet.rejectNext()
  await page.getByRole('button', { name: `Test signature with ${label}` }).click()
  await expect(result).toHaveText('user_rejected: user rejected the request')
  wallet.switchAccount('0x59c6995e998f97a5a0044966f0945389dc9e86dae88c7a8412f4603b6b78690d') // anvil #1
  await page.getByRole('button', { name: `Test signature with ${label}` }).click()
  await expect(result).toContainText(
    'wrong_signer: the signature verifies, but to ethereum 0x70997970c51812dc3a010c7d01b50e0d17dc79c8, not to 0xf39f',
  )
  wallet.switchAccount('0xac0974bec39a17e36ba4a6b4d238ff944bacb478cbed5efcae784d7bf4f2ff80')
  expect(wallet.personalSignCount()).toBe(3)
})

test('passkey: created on the virtual authenticator, listed, still listed after reload, forgotten here only', async ({
  page,
}) => {
  const consoleLines = await openSignersWatched(page)
  const auth = await addVirtualAuthenticator(page)
  await page.getByLabel('Passkey name').fill('laptop')
  await page.getByRole('button', { name: 'Create passkey' }).click()
  await expect(page.getByRole('status', { name: 'Passkeys: done' })).toContainText('Created passkey ‘laptop’')
  const list = page.getByRole('list', { name: 'Passkeys kept here' })
  await expect(list).toContainText('laptop')
  await expect(list).toContainText('rp localhost')
  const publicKey = await list.locator('code').first().getAttribute('title')
  expect(publicKey).toMatch(/^04[0-9a-f]{128}$/)
  const creds = await auth.credentials()
  expect(creds).toHaveLength(1)
  expect(creds[0]).toMatchObject({ rpId: 'localhost', isResidentCredential: true })

  await reopenSigners(page)
  await expect(
    page.getByRole('list', { name: 'Passkeys kept here' }).locator(`code[title="${publicKey}"]`),
  ).toBeVisible()
  await expectNoA11yViolations(page, { include: '.signers-panel' })

  // The registry's passkey signer: a WebAuthn assertion whose challenge is the text, verified by the core.
  const label = `passkey ‘laptop’ ${short(publicKey!)}`
  await page.getByRole('button', { name: `Test signature with ${label}` }).click()
  await expect(page.getByRole('status', { name: `Test signature result of ${label}` })).toHaveText(
    `passkey signature verifies to ${publicKey}`,
  )
  expect((await auth.credentials())[0]!.signCount).toBeGreaterThan(0)

  await page.getByRole('button', { name: 'Forget passkey laptop' }).click()
  const confirm = page.getByRole('group', { name: 'Forget passkey laptop' })
  await expect(confirm).toContainText('the credential itself stays on your authenticator')
  await confirm.getByRole('button', { name: 'Forget passkey' }).click()
  await expect(page.getByRole('list', { name: 'Passkeys kept here' })).toHaveCount(0)
  expect(await auth.credentials()).toHaveLength(1) // still on the authenticator
  // The only console errors allowed: a node status check of a node that is not running.
  expect(consoleLines.filter((l) => l.startsWith('error:') && !l.includes('net::ERR_CONNECTION_REFUSED'))).toEqual([])
  await auth.remove()
})

test('local Ethereum key: generate, export as hex and as a 32-byte file after confirming, import both back to the same address; no secret leaks', async ({
  page,
}) => {
  const consoleLines = await openSignersWatched(page)
  await page.getByLabel('Key name', { exact: true }).fill('main')
  await page.getByRole('button', { name: 'Generate Ethereum key' }).click()
  await expect(page.getByRole('status', { name: 'Local Ethereum keys: done' })).toContainText(
    'Generated local key ‘main’',
  )
  const address = await ethList(page).locator('code').first().getAttribute('title')
  expect(address).toMatch(/^0x[0-9a-f]{40}$/)
  await expect(ethList(page)).toContainText('local Ethereum key')
  const label = `local key ‘main’ ${short(address!)}`
  await page.getByRole('button', { name: `Test signature with ${label}` }).click()
  await expect(page.getByRole('status', { name: `Test signature result of ${label}` })).toHaveText(
    `erc_191 signature verifies to ${address}`,
  )

  // Export as hex: only after the confirmation that says it is a private key.
  await page.getByRole('button', { name: `Export private key of ${short(address!)}…` }).click()
  const confirm = page.getByRole('group', { name: `Confirm export of the private key of ${short(address!)}` })
  await expect(confirm).toContainText('You are exporting a private key.')
  await expect(page.getByRole('textbox', { name: `Private key of ${short(address!)} (hex)` })).toHaveCount(0)
  await confirm.getByRole('button', { name: 'Show private key as hex' }).click()
  const field = page.getByRole('textbox', { name: `Private key of ${short(address!)} (hex)` })
  const hex = await field.inputValue()
  expect(hex).toMatch(/^0x[0-9a-f]{64}$/) // IDENT-088: 0x + 64 lowercase hex
  expect(privateKeyToAddress(hex as `0x${string}`).toLowerCase()).toBe(address)
  await expect(page.getByRole('group', { name: `Exported private key of ${short(address!)}` })).toContainText(
    'Anyone who has it controls that account',
  )
  await expectNoSecret(page, consoleLines, [hex])
  await expectNoA11yViolations(page, { include: '.signers-panel' })
  await page.getByRole('button', { name: 'Hide' }).click()
  await expect(field).toHaveCount(0)

  // Export as a file: exactly the 32 big-endian bytes of the same scalar.
  await page.getByRole('button', { name: `Export private key of ${short(address!)}…` }).click()
  const downloading = page.waitForEvent('download')
  await page.getByRole('button', { name: 'Save private key as 32-byte file' }).click()
  const file = await downloading
  expect(file.suggestedFilename()).toBe(`ethereum-private-key-${address}.key`)
  const bytes = readFileSync((await file.path())!)
  expect(bytes.length).toBe(32)
  expect(`0x${bytes.toString('hex')}`).toBe(hex)

  // Delete, then import the pasted hex (upper case: IDENT-089) back to the same address.
  await deleteOnlyKey(page, address!)
  await page.getByLabel('Private key', { exact: true }).fill(`0x${hex.slice(2).toUpperCase()}`)
  await page.getByRole('button', { name: 'Import key' }).click()
  await expect(ethList(page).locator(`code[title="${address}"]`)).toBeVisible()
  await expect(page.getByLabel('Private key', { exact: true })).toHaveValue('')

  // Importing the same key again is refused; delete it and import the 32-byte file.
  await page.getByLabel('Private key', { exact: true }).fill(hex)
  await page.getByRole('button', { name: 'Import key' }).click()
  await expect(ethError(page)).toContainText(`Ethereum account ${address} is already kept in this browser`)
  await page.getByLabel('Private key', { exact: true }).fill('')
  await deleteOnlyKey(page, address!)
  await page
    .getByLabel('Or import a 32-byte key file')
    .setInputFiles({ name: 'backup.key', mimeType: 'application/octet-stream', buffer: bytes })
  await expect(page.getByRole('status', { name: 'Local Ethereum keys: done' })).toContainText('from backup.key')
  await expect(ethList(page).locator(`code[title="${address}"]`)).toBeVisible()

  // Kept across a reload (IndexedDB).
  await reopenSigners(page)
  await expect(ethList(page).locator(`code[title="${address}"]`)).toBeVisible()
  await expectNoSecret(page, consoleLines, [hex])
})

test('IDENT-088 / IDENT-089: a malformed key is refused with the reason shown', async ({ page }) => {
  await openSigners(page)
  const paste = page.getByLabel('Private key', { exact: true })
  await paste.fill('0x1234')
  await page.getByRole('button', { name: 'Import key' }).click()
  await expect(ethError(page)).toHaveText(
    'private key: expected exactly 64 hex digits after 0x, got 4. A private key is imported as exactly 32 bytes, or as 0x followed by 64 hex digits (IDENT-088, IDENT-089).',
  )
  await paste.fill('ac0974bec39a17e36ba4a6b4d238ff944bacb478cbed5efcae784d7bf4f2ff80')
  await page.getByRole('button', { name: 'Import key' }).click()
  await expect(ethError(page)).toContainText('missing the 0x prefix before the 64 hex digits')
  await paste.fill(`0x${'g'.repeat(64)}`)
  await page.getByRole('button', { name: 'Import key' }).click()
  await expect(ethError(page)).toContainText('invalid hex character "g" at index 2')
  await paste.fill(`0x${'0'.repeat(64)}`)
  await page.getByRole('button', { name: 'Import key' }).click()
  await expect(ethError(page)).toContainText('the scalar is zero')
  await page
    .getByLabel('Or import a 32-byte key file')
    .setInputFiles({ name: 'short.key', mimeType: 'application/octet-stream', buffer: Buffer.alloc(31, 7) })
  await expect(ethError(page)).toContainText('short.key: private key: expected exactly 32 bytes, got 31')
  const hexText = Buffer.from('0xac0974bec39a17e36ba4a6b4d238ff944bacb478cbed5efcae784d7bf4f2ff80\n')
  await page
    .getByLabel('Or import a 32-byte key file')
    .setInputFiles({ name: 'hex.txt', mimeType: 'text/plain', buffer: hexText })
  await expect(ethError(page)).toContainText('expected exactly 32 bytes, got 67')
  await expect(ethError(page)).toContainText(
    'This file holds the key as hex text: paste it in the private key field instead.',
  )
  await expect(page.getByText('No local Ethereum key yet.')).toBeVisible()
  await expectNoA11yViolations(page, { include: '.signers-panel' })
})

test('installation key: generate, listed with its public key, kept across reload, deleted', async ({ page }) => {
  await openSigners(page)
  await page.getByLabel('Installation key name').fill('phone')
  await page.getByRole('button', { name: 'Generate installation key' }).click()
  const list = page.getByRole('list', { name: 'Installation keys kept here' })
  await expect(list).toContainText('phone')
  await expect(list).toContainText('installation key')
  const key = await list.locator('code').first().getAttribute('title')
  expect(key).toMatch(/^[0-9a-f]{64}$/)
  await reopenSigners(page)
  await expect(
    page.getByRole('list', { name: 'Installation keys kept here' }).locator(`code[title="${key}"]`),
  ).toBeVisible()
  await page.getByRole('button', { name: `Delete installation key ${short(key!)}` }).click()
  await page.getByRole('button', { name: 'Delete installation key', exact: true }).click()
  await expect(page.getByText('No installation key yet.')).toBeVisible()
})

test('without IndexedDB (private browsing): keys work in memory and the panel says they are lost on reload', async ({
  page,
}) => {
  await page.addInitScript(() => {
    Object.defineProperty(window, 'indexedDB', {
      configurable: true,
      get() {
        throw new DOMException('The user denied permission to access the database.', 'SecurityError')
      },
    })
  })
  await openSigners(page)
  const notice = page.getByRole('alert', { name: 'Storage notice' })
  await expect(notice).toContainText('Keys are kept in memory only, because IndexedDB is not available')
  await expect(notice).toContainText('They will be lost when this page is reloaded or closed.')
  await page.getByRole('button', { name: 'Generate installation key' }).click()
  await expect(page.getByRole('list', { name: 'Installation keys kept here' })).toBeVisible()
  await reopenSigners(page)
  await expect(page.getByText('No installation key yet.')).toBeVisible()
})
