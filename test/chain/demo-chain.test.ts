/**
 * The offline demo chain of `npm start` (scripts/lib/demo-chain.ts): on anvil, the demo
 * factory and wallet are deployed, and the smart-wallet demo inbox is published to a
 * local node process run with `--chain eip155:31337=<anvil>`, whose admission judges its
 * erc_6492 signatures (IDENT-060) and their blocks' freshness (IDENT-062). Seeding twice
 * publishes nothing new; a fresh anvil gets the same addresses and blocks, so a node
 * store kept between runs still verifies.
 */
import { createPublicClient, http, isErc6492Signature } from 'viem'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { ChainVerifier } from '../../src/chain/verifier'
import { replay } from '../../src/core/replay'
import { memberKey } from '../../src/core/types'
import { parseDemoChain } from '../../src/app/features/settings/demo-chain'
import { deployDemoWallets, seedDemoChain, viteDemoSmartWallets } from '../../scripts/lib/demo-chain'
import { parseDemoSmartWallets } from '../../src/app/features/signers/demo-smart-wallets'
import { privateKeyToAccount } from 'viem/accounts'
import { startNode, stopAll, tempDir, type RunningNode } from '../devnode/harness'
import { startAnvil, type AnvilNode } from './anvil'

let anvil: AnvilNode
let devnode: RunningNode
const tmp = tempDir('demo-chain-')

beforeAll(async () => {
  anvil = await startAnvil()
  devnode = await startNode({
    db: tmp.path('node.db'),
    args: ['--chain', `eip155:31337=${anvil.url}`, '--seed', 'demo'],
  })
}, 60_000)
afterAll(async () => {
  await stopAll()
  await anvil?.stop()
  tmp.remove()
})

describe('seedDemoChain', () => {
  it('IDENT-060, IDENT-062: deploys the demo wallet and publishes the smart-wallet inbox, deployed and counterfactual signatures, through the node’s admission', async () => {
    const demo = await seedDemoChain(anvil.url, devnode.url)
    expect(demo).toMatchObject({
      chainId: '31337',
      published: 2,
      factory: '0x5fbdb2315678afecb367f032d93f642f64180aa3',
    })
    // What npm start hands the app as VITE_DEMO_CHAIN reads back there.
    expect(parseDemoChain(JSON.stringify(demo))).toMatchObject({
      inboxId: demo.inboxId,
      deployed: { address: demo.deployed.address },
    })
    // The playground's demo wallets: each owner key (a public demo key) is the wallet's owner.
    const wallets = parseDemoSmartWallets(viteDemoSmartWallets(demo))!
    expect(wallets.chainId).toBe('31337')
    expect(wallets.wallets.map((w) => [w.name, w.address])).toEqual([
      ['deployed wallet', demo.deployed.address],
      ['counterfactual wallet', demo.counterfactual.address],
    ])
    for (const w of wallets.wallets)
      expect(privateKeyToAccount(w.ownerKey as `0x${string}`).address.toLowerCase()).toBe(w.owner)
    const log = await devnode.client().getInboxLog(demo.inboxId)
    expect(log.entries).toHaveLength(2)
    const trace = await replay(log, { smartWallets: new ChainVerifier(new Map([[31337n, anvil.url]])) })
    expect(trace.steps.map((s) => s.status)).toEqual(['applied', 'applied'])
    const sigs = trace.steps.flatMap((s) => s.signatures).filter((c) => c.kind === 'erc_6492')
    expect(sigs.map((c) => [c.signer?.text, c.verdict])).toEqual([
      [demo.deployed.address, 'valid'], // CreateInbox
      [demo.deployed.address, 'valid'], // adds the installation
      [demo.deployed.address, 'valid'], // adds the counterfactual wallet: existing member
      [demo.counterfactual.address, 'valid'], // new member
    ])
    // The deployed wallet's signatures are plain ERC-1271; the counterfactual one is ERC-6492
    // wrapped (an erc_6492 replay key is the signature bytes as given, spec section 6).
    expect(sigs.map((c) => isErc6492Signature(`0x${c.replayKey!.replace(/^0x/, '')}`))).toEqual([
      false,
      false,
      false,
      true,
    ])
    expect(trace.head!.members.has(memberKey({ kind: 'ethereum', text: demo.counterfactual.address }))).toBe(true)
  })

  it('seeding again publishes nothing; a fresh anvil gets the same factory, wallet and blocks, and the stored log still verifies there', async () => {
    const again = await seedDemoChain(anvil.url, devnode.url)
    expect(again.published).toBe(0)
    const fresh = await startAnvil()
    try {
      const d = await deployDemoWallets(fresh.url)
      expect(d.factory).toBe(again.factory)
      expect(d.deployed.address).toBe(again.deployed.address)
      expect(d.counterfactual.address).toBe(again.counterfactual.address)
      const log = await devnode.client().getInboxLog(again.inboxId)
      const trace = await replay(log, { smartWallets: new ChainVerifier(new Map([[31337n, fresh.url]])) })
      expect(trace.ok).toBe(true)
      expect(await createPublicClient({ transport: http(fresh.url) }).getBlockNumber()).toBe(2n)
    } finally {
      await fresh.stop()
    }
  })
})
