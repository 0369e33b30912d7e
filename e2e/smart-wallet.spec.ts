/**
 * Signing with a smart contract wallet in the playground (issue 5), against a real anvil
 * the spec starts on a free 127.0.0.1 port (stopped after), with the demo WalletFactory
 * and an OwnedWallet deployed by test/chain/fixture.ts.
 *
 * Through the UI: a chain route set in the settings; the owner imported as a local
 * Ethereum key; in Signers…, a deployed smart wallet (by address) and a counterfactual
 * one (factory + salt, its address read from the factory), a wallet whose chosen owner is
 * not its owner (the chain rejects the owner's signature, IDENT-060); then in the
 * composer a new inbox created by the deployed smart wallet and the counterfactual wallet
 * added as a member (ERC-6492 wrapped), each appended and applied by the replay through
 * the route, and the panel showing what each signature was made of.
 */
import type { Page } from '@playwright/test'
import { hexToBytes, keccak256, toHex, type Hex } from 'viem'
import { bytesToHex } from '../src/crypto'
import { inboxIdOf } from '../src/signing/draft'
import { startAnvil, type AnvilNode } from '../test/chain/anvil'
import { counterfactualWallet, deployWallet, eoa, salt, setupChain, type ChainFixture } from '../test/chain/fixture'
import { expect, expectNoA11yViolations, test } from './fixtures'
import { openSettings, shot, waitForLog } from './helpers'
import { playground, signAndAppend } from './support/playground'

let anvil: AnvilNode
let fx: ChainFixture
let deployed: Hex
let counterfactual: Hex
/** A deployed wallet of another owner: signing for it with our owner is refused by the chain. */
let othersWallet: Hex
/** The owner's private key (the fixture's eoa(label) key: a test key, never printed). */
const OWNER_LABEL = 'e2e smart wallet owner'
const ownerKeyHex = `0x${bytesToHex(hexToBytes(keccak256(toHex(`inbox-inspector chain test: ${OWNER_LABEL}`))))}`

test.beforeAll(async () => {
  anvil = await startAnvil()
  try {
    fx = await setupChain(anvil)
    const owner = eoa(OWNER_LABEL)
    deployed = (await deployWallet(fx, owner, salt(1))).address.toLowerCase() as Hex
    counterfactual = counterfactualWallet(fx, owner, salt(2)).address.toLowerCase() as Hex
    othersWallet = (await deployWallet(fx, eoa('e2e someone else'), salt(3))).address.toLowerCase() as Hex
  } catch (e) {
    await anvil.stop()
    throw e
  }
})
test.afterAll(async () => {
  await anvil?.stop()
})

const panel = (page: Page) => page.getByRole('region', { name: 'Signers' })
const smart = (page: Page) => panel(page).getByRole('region', { name: 'Smart contract wallets' })

/** Selects the option of a <select> whose text contains `text`. */
async function choose(select: ReturnType<Page['getByRole']>, text: string): Promise<void> {
  const value = await select.locator('option', { hasText: text }).first().getAttribute('value')
  expect(value, `an option containing ${text}`).not.toBeNull()
  await select.selectOption(value!)
}

test('smart contract wallets: added deployed and counterfactual, a wrong owner refused by the chain, a new inbox and a member signed erc_6492 and applied', async ({
  page,
}, info) => {
  test.setTimeout(180_000)
  await page.goto('/')
  await waitForLog(page)

  // Signers… before any route: the section says a route is needed.
  await page.getByRole('button', { name: 'Signers…' }).click()
  await expect(smart(page)).toContainText('Chain: no chain route yet: add one under Settings › Chain routes first')
  await expect(smart(page)).toContainText('Owner: no owner available')
  await smart(page).getByRole('button', { name: 'Add smart wallet' }).click()
  await expect(smart(page).getByRole('alert', { name: 'Smart contract wallets: error' })).toContainText(
    'no chain chosen: add a chain route',
  )

  // The chain route, in the Settings dialog (close the Signers drawer, add the route, open it again).
  await page.getByRole('button', { name: 'Close the signers panel' }).click()
  const routes = await openSettings(page)
  const addRoute = routes.getByRole('form', { name: 'Add a chain route' })
  await addRoute.getByLabel('Add a chain route: chain id').fill('31337')
  await addRoute.getByLabel('Add a chain route: RPC URL').fill(anvil.url)
  await addRoute.getByRole('button', { name: 'Add route' }).click()
  await expect(routes.getByRole('status', { name: 'Status of the route for eip155:31337' })).toContainText(
    /node answers eip155:31337/,
  )
  await page.keyboard.press('Escape')
  await expect(routes).toHaveCount(0)
  await page.getByRole('button', { name: 'Signers…' }).click()

  // The owner: imported as a local Ethereum key; a second, unrelated key too.
  await panel(page).getByLabel('Private key', { exact: true }).fill(ownerKeyHex)
  await panel(page).getByRole('button', { name: 'Import key' }).click()
  await expect(panel(page).getByRole('status', { name: 'Local Ethereum keys: done' })).toContainText('Imported')
  const ownerAddress = eoa(OWNER_LABEL).address.toLowerCase()
  await panel(page).getByLabel('Key name', { exact: true }).fill('stranger')
  await panel(page).getByRole('button', { name: 'Generate Ethereum key' }).click()
  await expect(panel(page).getByRole('status', { name: 'Local Ethereum keys: done' })).toContainText('Generated')

  const sw = smart(page)
  await expect(sw.getByLabel('Chain', { exact: true })).toHaveValue('31337')
  const ownerSelect = sw.getByLabel('Owner', { exact: true })
  await choose(ownerSelect, ownerAddress.slice(0, 8))

  // A bad address is named.
  await sw.getByLabel('Wallet address').fill('0x1234')
  await sw.getByRole('button', { name: 'Add smart wallet' }).click()
  await expect(sw.getByRole('alert', { name: 'Smart contract wallets: error' })).toContainText(
    'the wallet address "0x1234" is not 0x + 40 hex digits',
  )

  // Deployed, by address.
  await sw.getByLabel('Wallet address').fill(deployed)
  await sw.getByLabel('Smart wallet name').fill('deployed')
  await sw.getByRole('button', { name: 'Add smart wallet' }).click()
  await expect(sw.getByRole('status', { name: 'Smart contract wallets: done' })).toContainText(
    `Added smart wallet ${deployed} on eip155:31337.`,
  )

  // Counterfactual: the address comes from the factory's addressOf(owner, salt).
  await sw.getByRole('radio', { name: 'counterfactual: deploy through a factory' }).check()
  await sw.getByLabel('Factory address').fill(`0x${'99'.repeat(20)}`)
  await sw.getByLabel('Salt').fill('2')
  await sw.getByRole('button', { name: 'Add smart wallet' }).click()
  await expect(sw.getByRole('alert', { name: 'Smart contract wallets: error' })).toContainText(
    `did not answer addressOf(owner, salt)`,
  )
  await sw.getByLabel('Factory address').fill(fx.factory)
  await sw.getByLabel('Smart wallet name').fill('cf')
  await sw.getByRole('button', { name: 'Add smart wallet' }).click()
  await expect(sw.getByRole('status', { name: 'Smart contract wallets: done' })).toContainText(
    `Added smart wallet ${counterfactual} on eip155:31337 (counterfactual`,
  )

  // The same deployed wallet with the stranger as owner: the chain rejects the owner's signature.
  await sw.getByRole('radio', { name: 'deployed at an address' }).check()
  await choose(ownerSelect, '‘stranger’')
  await sw.getByLabel('Wallet address').fill(deployed)
  await sw.getByRole('button', { name: 'Add smart wallet' }).click()
  await expect(sw.getByRole('alert', { name: 'Smart contract wallets: error' })).toContainText(
    `smart wallet ${deployed} on eip155:31337 is already kept here`,
  )
  await page.getByRole('button', { name: 'Close the signers panel' }).click()

  // The kept wallets survive a reload (IndexedDB), with their route and owner.
  await page.reload()
  await waitForLog(page)
  await page.getByRole('button', { name: 'Signers…' }).click()
  const kept = smart(page).getByRole('list', { name: 'Smart contract wallets kept here' }).getByRole('listitem')
  await expect(kept).toHaveCount(2)
  // An item by its wallet's name, which its buttons carry ("Test smart wallet smart wallet ‘deployed’ eip155:…").
  const item = (name: string) =>
    kept.filter({ has: page.getByRole('button', { name: new RegExp(`^Test smart wallet smart wallet ‘${name}’`) }) })
  const dItem = item('deployed')
  const cItem = item('cf')
  await expect(dItem).toContainText('deployed wallet (ERC-1271; no ERC-6492 deployment given)')
  await expect(cItem).toContainText('ERC-6492 deployment through factory')
  await expect(dItem).toContainText(`route ${anvil.url}`)

  // A test signature: judged on the chain, and what it was made of.
  await dItem.getByRole('button', { name: /^Test smart wallet / }).click()
  await expect(dItem.getByRole('status', { name: /^Test result of / })).toContainText(
    `erc_6492 signature verifies on the chain to ${deployed}`,
    { timeout: 30_000 },
  )
  await expect(dItem.getByRole('status', { name: /^Last signature of / })).toContainText(
    /block \d+ at \d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ; deployed: ERC-1271 signature, not wrapped/,
  )
  await expectNoA11yViolations(page)
  await page.getByRole('button', { name: 'Close the signers panel' }).click()

  // The composer: a new inbox created by the deployed smart wallet.
  await page.getByRole('button', { name: 'Sign…' }).click()
  const pg = playground(page)
  await pg.getByRole('radio', { name: 'a new inbox' }).check()
  await choose(pg.getByRole('combobox', { name: 'Creator (initial identifier)' }), '‘deployed’')
  await pg.getByRole('textbox', { name: 'Nonce' }).fill('0')
  const inboxId = inboxIdOf(deployed, 0n)
  await expect(pg.getByLabel('Derived inbox id')).toHaveText(inboxId)
  await expect(pg.getByRole('status', { name: 'Dry run result' })).toContainText('inbox created')
  await signAndAppend(page, 1)

  // The counterfactual wallet joins, approved by the deployed one: its signature is ERC-6492 wrapped.
  await pg.getByRole('radiogroup', { name: 'Action' }).getByRole('radio', { name: 'Add a member' }).check()
  await choose(pg.getByRole('combobox', { name: 'Approved by (existing member or recovery identifier)' }), '‘deployed’')
  await choose(pg.getByRole('combobox', { name: 'New member' }), '‘cf’')
  await signAndAppend(page, 2)
  await pg.getByRole('button', { name: 'Close the signing playground' }).click()
  // The appended step's signatures (its Signatures tab), and a Chain tab beside them.
  await page.getByRole('tab', { name: 'Signatures' }).click()
  const sigs = page.locator('section.sigs article.sig')
  await expect(sigs).toHaveCount(2)
  for (const a of await sigs.all()) await expect(a.locator('.badge').first()).toHaveText('valid')
  await expect(page.getByRole('tab', { name: 'Chain' })).toBeVisible()

  // The panel shows what the composer's signatures were made of.
  await page.getByRole('button', { name: 'Signers…' }).click()
  await expect(cItem.getByRole('status', { name: /^Last signature of / })).toContainText(
    /block \d+ at .*; not deployed yet: ERC-6492 wrapped with its factory deployment/,
  )
  await expect(dItem.getByRole('status', { name: /^Last signature of / })).toContainText(
    'deployed: ERC-1271 signature, not wrapped',
  )

  // A wallet someone else owns, added with our owner: the chain rejects the owner's signature (IDENT-060).
  await smart(page).getByRole('radio', { name: 'deployed at an address' }).check()
  await choose(smart(page).getByLabel('Owner', { exact: true }), ownerAddress.slice(0, 8))
  await smart(page).getByLabel('Wallet address').fill(othersWallet)
  await smart(page).getByLabel('Smart wallet name').fill('not mine')
  await smart(page).getByRole('button', { name: 'Add smart wallet' }).click()
  await expect(kept).toHaveCount(3)
  const bad = item('not mine')
  await bad.getByRole('button', { name: /^Test smart wallet / }).click()
  await expect(bad.getByRole('status', { name: /^Test result of / })).toContainText(
    `invalid_signature: IDENT-060: smart wallet ${othersWallet} does not validate the owner's signature`,
    { timeout: 30_000 },
  )
  await expect(bad.getByRole('status', { name: /^Last signature of / })).toHaveCount(0)

  // The route removed (in Settings, over the Signers drawer): the wallets stay listed and say they cannot sign (IDENT-061).
  await openSettings(page)
  await routes.getByRole('button', { name: 'Remove the route for eip155:31337' }).click()
  await routes.getByRole('button', { name: 'Close Settings' }).click()
  await expect(routes).toHaveCount(0)
  await expect(dItem).toContainText('no chain route for eip155:31337: it cannot sign (IDENT-061)')
  await dItem.getByRole('button', { name: /^Test smart wallet / }).click()
  await expect(dItem.getByRole('status', { name: /^Test result of / })).toContainText(
    'unverifiable: IDENT-061: no chain route for eip155:31337',
  )
  await shot(page, info, 'smart-wallet-signers')
  await expectNoA11yViolations(page)
})
