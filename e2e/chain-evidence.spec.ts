/**
 * Smart contract wallets in the inspector (issue 5), against a real anvil the spec
 * starts on a free 127.0.0.1 port (stopped after): a log whose updates carry erc_6492
 * signatures, deployed (ERC-1271) and counterfactual (ERC-6492 wrapped), signed by the
 * smart-wallet signer (src/chain/smart-wallet-signer.ts).
 *
 * With no chain route the first update is pending (IDENT-061) with the reason and a
 * Retry; the evidence panel says unreachable. A route added in the settings is checked
 * against the node's chain id (a wrong chain id is shown as a mismatch); Retry then
 * applies the log, and the evidence panel shows the chain's facts: chain, block, time
 * and age, route, code at the block, the wrapper's parts, the exact eth_call and curl.
 */
import type { Hex } from 'viem'
import { ownedWalletPlan } from '../src/chain/owned-wallet'
import { chainSmartWalletSigner } from '../src/chain/smart-wallet-signer'
import { addMember, createInbox, ethKeySigner, installationKeySigner, signUpdate } from '../src/signing'
import { startAnvil, type AnvilNode } from '../test/chain/anvil'
import { bundleOf, deployWallet, eoa, setupChain, type ChainFixture } from '../test/chain/fixture'
import { expect, expectNoA11yViolations, test } from './fixtures'
import { openSettings, pasteLog, shot, waitForLog } from './helpers'

let anvil: AnvilNode
let fx: ChainFixture
let bundle: string
let deployedAddress: string
let counterfactual: { address: Hex; factory: Hex; factoryData: Hex }

/** The private key the fixture's eoa(label) uses, so the erc_191 owner signer and the viem account are one key. */
async function ownerKey(label: string): Promise<Uint8Array> {
  const { hexToBytes, keccak256, toHex } = await import('viem')
  return hexToBytes(keccak256(toHex(`inbox-inspector chain test: ${label}`)))
}

test.beforeAll(async () => {
  anvil = await startAnvil()
  try {
    fx = await setupChain(anvil)
    const w = await deployWallet(fx, eoa('e2e deployed owner'), `0x${'00'.repeat(31)}01`)
    deployedAddress = w.address.toLowerCase()
    const cfOwner = ethKeySigner(await ownerKey('e2e counterfactual owner'))
    counterfactual = await ownedWalletPlan(fx.client, fx.factory, cfOwner.identifier.text as Hex, 2)
    const route = { chainId: 31337n, url: anvil.url }
    const deployed = chainSmartWalletSigner({
      route,
      address: w.address,
      owner: ethKeySigner(await ownerKey('e2e deployed owner')),
    })
    const cf = chainSmartWalletSigner({
      route,
      address: counterfactual.address,
      owner: cfOwner,
      deployment: counterfactual,
    })
    const u1 = await signUpdate({
      clientTimestampNs: 1_717_200_000_000_000_000n,
      actions: [createInbox(deployed), addMember(deployed, installationKeySigner(new Uint8Array(32).fill(9)))],
    })
    const u2 = await signUpdate({
      inboxId: u1.update.inboxId,
      clientTimestampNs: 1_717_200_060_000_000_000n,
      actions: [addMember(deployed, cf)],
    })
    bundle = bundleOf(u1, u2)
  } catch (e) {
    await anvil.stop()
    throw e
  }
})
test.afterAll(async () => {
  await anvil?.stop()
})

test('erc_6492 signatures: pending without a route, a route checked in the settings, Retry applies, and the chain evidence', async ({
  page,
}, info) => {
  test.setTimeout(150_000)
  await page.goto('/')
  await waitForLog(page)
  await pasteLog(page, bundle)
  await waitForLog(page)

  // No route: the first update is pending, with the reason and a Retry (IDENT-061).
  const rejection = page.locator('section.rejection')
  await expect(rejection.getByRole('heading')).toContainText('Pending: IDENT-061')
  await expect(rejection).toContainText('no route for chain eip155:31337')
  await expect(page.getByText(/stops at sequence id 1: pending/)).toBeVisible()
  const evidence = page.locator('details.chain-evidence').first()
  await evidence.locator('summary').click()
  await expect(evidence.getByRole('alert')).toContainText(
    'Unreachable (IDENT-061, the update stays pending): no RPC route for chain eip155:31337',
  )
  await expect(evidence.getByLabel('eth_call request', { exact: true })).toContainText('"method": "eth_call"')

  // Settings: a route with the wrong chain id is shown as a mismatch against the node's own.
  const routes = await openSettings(page)
  await expect(routes.getByRole('group', { name: 'Chain routes setting' })).toContainText(
    'None: smart-wallet signatures stay pending.',
  )
  const add = routes.getByRole('form', { name: 'Add a chain route' })
  await add.getByLabel('Add a chain route: chain id').fill('031337')
  await add.getByLabel('Add a chain route: RPC URL').fill(anvil.url)
  await add.getByRole('button', { name: 'Add route' }).click()
  await expect(add.getByRole('alert')).toHaveText(
    'chain id "031337" is not a decimal number with no sign and no leading zero',
  )
  await add.getByLabel('Add a chain route: chain id').fill('1')
  await add.getByRole('button', { name: 'Add route' }).click()
  await expect(routes.getByRole('status', { name: 'Status of the route for eip155:1' })).toContainText(
    `answers chain id 31337, not 1: the route points at another chain`,
  )
  await routes.getByRole('button', { name: 'Remove the route for eip155:1' }).click()
  await add.getByLabel('Add a chain route: chain id').fill('31337')
  await add.getByLabel('Add a chain route: RPC URL').fill(anvil.url)
  await add.getByRole('button', { name: 'Add route' }).click()
  await expect(routes.getByRole('status', { name: 'Status of the route for eip155:31337' })).toContainText(
    /node answers eip155:31337 \(head block \d+\)/,
  )
  await expect(routes.getByRole('group', { name: 'Chain routes setting' })).toContainText('In use: eip155:31337.')
  await page.keyboard.press('Escape')
  await expect(routes).toHaveCount(0)

  // Retry: the same log replays with the ChainVerifier, and every update applies.
  await rejection.getByRole('button', { name: /^Retry sequence id 1/ }).click()
  await expect(page.getByText('every update applies')).toBeVisible({ timeout: 30_000 })
  await expect(page.locator('section.rejection')).toHaveCount(0)

  // The last step: the deployed wallet adds the counterfactual one.
  await page.getByRole('listbox', { name: /Updates and their actions/ }).focus()
  await page.keyboard.press('End')
  await expect(page.locator('.step-summary')).toContainText('sequence id 2')
  await page.getByRole('tab', { name: 'Signatures' }).click()
  const sigs = page.locator('section.sigs article.sig')
  await expect(sigs).toHaveCount(2)
  for (const a of await sigs.all()) await expect(a.locator('.badge').first()).toHaveText('valid')
  // A signature card leads to its chain evidence, in the Chain tab.
  await sigs.filter({ hasText: 'existing member signature' }).getByRole('button', { name: 'chain evidence' }).click()
  await expect(page.getByRole('tab', { name: 'Chain' })).toHaveAttribute('aria-selected', 'true')
  const chain = page.getByRole('region', { name: 'Chain evidence' }).getByRole('article')
  await expect(chain).toHaveCount(2)

  // Existing member: the deployed wallet, no wrapper.
  const existing = chain.filter({ hasText: 'existing member signature' }).locator('details.chain-evidence')
  await expect(existing).not.toHaveAttribute('open')
  await existing.locator('summary').click()
  await expect(existing).toHaveAttribute('open', '')
  const ex = existing.getByRole('group', { name: 'Chain evidence' })
  await expect(ex).toContainText('eip155:31337')
  await expect(ex).toContainText(deployedAddress)
  await expect(ex).toContainText(anvil.url)
  await expect(ex).toContainText(/deployed: \d+ bytes of code/)
  await expect(ex).toContainText('not wrapped')
  await expect(ex).toContainText(/\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ/)
  await expect(ex).toContainText(/before the head \(block \d+\)/)
  await expect(ex.locator('.badge.v-valid')).toHaveText('valid')

  // New member: the counterfactual wallet, ERC-6492 wrapped; the wrapper taken apart.
  const fresh = chain.filter({ hasText: 'new member signature' }).locator('details.chain-evidence')
  await fresh.locator('summary').click()
  await expect(fresh).toHaveAttribute('open', '')
  const cf = fresh.getByRole('group', { name: 'Chain evidence' })
  await expect(cf).toContainText('none: counterfactual')
  await expect(cf).toContainText(counterfactual.address)
  await expect(cf).toContainText(counterfactual.factory)
  await expect(cf).toContainText(counterfactual.factoryData)
  await expect(cf.getByRole('button', { name: 'Copy inner signature' })).toBeVisible()
  await expect(cf.getByRole('button', { name: 'Copy factory calldata' })).toBeVisible()
  const request = JSON.parse((await cf.getByLabel('eth_call request', { exact: true }).textContent())!) as {
    method: string
    params: [{ data: string; gas: string }, string]
  }
  expect(request.method).toBe('eth_call')
  expect(request.params[0].gas).toBe('0x4c4b40')
  await expect(cf.getByLabel('curl command', { exact: true })).toContainText(
    `curl -s -X POST -H 'Content-Type: application/json' --data`,
  )
  await expect(cf.getByLabel('curl command', { exact: true })).toContainText(anvil.url)
  // The request reproduces the verdict when sent to the node.
  const answer = (await (
    await fetch(anvil.url, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(request),
    })
  ).json()) as { result: string }
  expect(answer.result).toMatch(/^0x0*1$/)
  await expect(cf.locator('.badge.v-valid')).toHaveText('valid')

  await shot(page, info, 'chain-evidence')
  await expectNoA11yViolations(page)
})
