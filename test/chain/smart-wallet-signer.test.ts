/**
 * The smart-wallet signer (src/chain/smart-wallet-signer.ts) against anvil: the owner
 * signs, the signature is ERC-6492 wrapped exactly when the wallet has no code, the
 * block is the head, the chain id the route's. The updates it signs apply in the core
 * with the ChainVerifier and are admitted by the local node process run with
 * `--chain eip155:31337=<anvil>` (IDENT-060, IDENT-062).
 */
import { hexToBytes, isErc6492Signature, keccak256, toHex, type Hex } from 'viem'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { ownedWalletPlan } from '../../src/chain/owned-wallet'
import { chainSmartWalletSigner } from '../../src/chain/smart-wallet-signer'
import { ChainVerifier } from '../../src/chain/verifier'
import { replay } from '../../src/core/replay'
import { addMember, createInbox, ethKeySigner, installationKeySigner, signUpdate, SignerError } from '../../src/signing'
import { startNode, stopAll, tempDir, type RunningNode } from '../devnode/harness'
import { startAnvil, type AnvilNode } from './anvil'
import {
  counterfactualWallet,
  deployWallet,
  eoa,
  headNumber,
  logOf,
  salt,
  setupChain,
  type ChainFixture,
} from './fixture'

let anvil: AnvilNode
let fx: ChainFixture
let devnode: RunningNode
const tmp = tempDir('smart-wallet-signer-')

beforeAll(async () => {
  anvil = await startAnvil()
  fx = await setupChain(anvil)
  devnode = await startNode({ db: tmp.path('node.db'), args: ['--chain', `eip155:31337=${anvil.url}`] })
}, 60_000)
afterAll(async () => {
  await stopAll()
  await anvil?.stop()
  tmp.remove()
})

/** A private key as the fixture's eoa(label) derives it, so the viem account and the erc_191 signer are one key. */
const keyOf = (label: string): Uint8Array => hexToBytes(keccak256(toHex(`inbox-inspector chain test: ${label}`)))

describe('ownedWalletPlan', () => {
  it('reads the CREATE2 address from the factory’s addressOf, equal to the local computation, with the deploy calldata', async () => {
    const owner = eoa('plan owner')
    const plan = await ownedWalletPlan(fx.client, fx.factory, owner.address, 7)
    const local = counterfactualWallet(fx, owner, salt(7))
    expect(plan.address).toBe(local.address.toLowerCase())
    expect(plan.factoryData).toBe(local.factoryData)
    expect(plan.factory).toBe(fx.factory.toLowerCase())
  })
})

describe('chainSmartWalletSigner', () => {
  it('IDENT-060: a deployed wallet: the owner’s ECDSA unwrapped, at the head block; applies with the ChainVerifier and the node admits it (IDENT-062)', async () => {
    const owner = ethKeySigner(keyOf('deployed signer owner'))
    const w = await deployWallet(fx, eoa('deployed signer owner'), salt(11))
    expect(w.initialOwner.address.toLowerCase()).toBe(owner.identifier.text)
    const signer = chainSmartWalletSigner({ route: { chainId: 31337n, url: anvil.url }, address: w.address, owner })
    const head = await headNumber(fx)
    const u = await signUpdate({
      clientTimestampNs: 1n,
      actions: [createInbox(signer), addMember(signer, installationKeySigner(new Uint8Array(32).fill(1)))],
    })
    const s = u.signatures[0]!.signature
    if (s.kind !== 'erc_6492') throw new Error('not erc_6492')
    expect(s.accountId).toBe(`eip155:31337:${w.address.toLowerCase()}`)
    expect(s.blockNumber).toBe(head)
    expect(isErc6492Signature(toHex(s.signature))).toBe(false)
    expect(s.signature).toHaveLength(65)
    expect(signer.lastSigning()).toMatchObject({ blockNumber: head, deployed: true, wrapped: false })
    const trace = await replay(logOf(u), { smartWallets: new ChainVerifier(new Map([[31337n, anvil.url]])) })
    expect(trace.steps.map((x) => x.status)).toEqual(['applied'])
    expect((await devnode.client().publishIdentityUpdate(u.bytes)).sequenceId).toBeGreaterThan(0n)
  })

  it('IDENT-060: a counterfactual wallet: ERC-6492 wrapped with the factory and deploy calldata, no code deployed; applies and is admitted', async () => {
    const owner = ethKeySigner(keyOf('counterfactual signer owner'))
    const plan = await ownedWalletPlan(fx.client, fx.factory, owner.identifier.text as Hex, 12)
    const signer = chainSmartWalletSigner({
      route: { chainId: 31337n, url: anvil.url },
      address: plan.address,
      owner,
      deployment: plan,
    })
    const u = await signUpdate({ clientTimestampNs: 2n, actions: [createInbox(signer)] })
    const s = u.signatures[0]!.signature
    if (s.kind !== 'erc_6492') throw new Error('not erc_6492')
    expect(isErc6492Signature(toHex(s.signature))).toBe(true)
    expect(signer.lastSigning()).toMatchObject({ deployed: false, wrapped: true })
    expect(toHex(s.signature)).toContain(plan.factoryData.slice(2))
    expect(await fx.client.getCode({ address: plan.address })).toBeUndefined()
    const trace = await replay(logOf(u), { smartWallets: new ChainVerifier(new Map([[31337n, anvil.url]])) })
    expect(trace.steps.map((x) => x.status)).toEqual(['applied'])
    expect((await devnode.client().publishIdentityUpdate(u.bytes)).sequenceId).toBeGreaterThan(0n)
    // Still counterfactual: the validation ran inside eth_call.
    expect(await fx.client.getCode({ address: plan.address })).toBeUndefined()
  })

  it('takes a hash callback as the owner (a browser wallet’s personal_sign of the text signs the same hash)', async () => {
    const owner = eoa('callback owner')
    const w = await deployWallet(fx, owner, salt(13))
    const seen: string[] = []
    const signer = chainSmartWalletSigner({
      route: { chainId: 31337n, url: anvil.url },
      address: w.address,
      owner: async (hash, text) => {
        seen.push(text)
        return Buffer.from((await owner.sign({ hash: toHex(hash) })).slice(2), 'hex')
      },
    })
    const u = await signUpdate({ clientTimestampNs: 3n, actions: [createInbox(signer)] })
    expect(seen).toEqual([u.text])
    expect((await replay(logOf(u), { smartWallets: new ChainVerifier(new Map([[31337n, anvil.url]])) })).ok).toBe(true)
  })

  it('IDENT-060: a key that does not own the wallet: invalid_signature before anything is published', async () => {
    const w = await deployWallet(fx, eoa('real owner'), salt(14))
    const signer = chainSmartWalletSigner({
      route: { chainId: 31337n, url: anvil.url },
      address: w.address,
      owner: ethKeySigner(keyOf('not the owner')),
    })
    const err = await signUpdate({ clientTimestampNs: 4n, actions: [createInbox(signer)] }).catch((e: unknown) => e)
    expect(err).toBeInstanceOf(SignerError)
    expect(err).toMatchObject({ code: 'invalid_signature' })
    expect((err as Error).message).toMatch(
      /IDENT-060: smart wallet 0x[0-9a-f]{40} does not validate the owner's signature at block \d+/,
    )
  })

  it('a counterfactual wallet without a deployment cannot sign (the validator would have no code to ask)', async () => {
    const plan = await ownedWalletPlan(fx.client, fx.factory, eoa('undeployed').address, 15)
    const signer = chainSmartWalletSigner({
      route: { chainId: 31337n, url: anvil.url },
      address: plan.address,
      owner: ethKeySigner(keyOf('undeployed')),
    })
    await expect(signUpdate({ clientTimestampNs: 5n, actions: [createInbox(signer)] })).rejects.toMatchObject({
      code: 'signer_error',
      message: expect.stringMatching(/has no code .* no ERC-6492 deployment/),
    })
  })

  it('IDENT-061: an unreachable route or a route that answers another chain id is unverifiable, with the reason', async () => {
    const owner = ethKeySigner(keyOf('unreachable owner'))
    const w = await deployWallet(fx, eoa('unreachable wallet'), salt(16))
    const down = chainSmartWalletSigner({
      route: { chainId: 31337n, url: 'http://127.0.0.1:9' },
      address: w.address,
      owner,
      clientOptions: { timeoutMs: 1000 },
    })
    await expect(signUpdate({ clientTimestampNs: 6n, actions: [createInbox(down)] })).rejects.toMatchObject({
      code: 'unverifiable',
      message: expect.stringMatching(/^IDENT-061: eth_chainId at http:\/\/127\.0\.0\.1:9 failed \(transport error\)/),
    })
    const other = chainSmartWalletSigner({ route: { chainId: 8453n, url: anvil.url }, address: w.address, owner })
    await expect(signUpdate({ clientTimestampNs: 7n, actions: [createInbox(other)] })).rejects.toMatchObject({
      code: 'unverifiable',
      message: expect.stringMatching(/answers chain id 31337, not 8453/),
    })
  })

  it('refuses an owner that is not an erc_191 signer, and a malformed address', async () => {
    expect(() =>
      chainSmartWalletSigner({
        route: { chainId: 31337n, url: anvil.url },
        address: '0x1234',
        owner: ethKeySigner(keyOf('x')),
      }),
    ).toThrow(/is not 0x \+ 40 hex/)
    const w = await deployWallet(fx, eoa('installation owner'), salt(17))
    const signer = chainSmartWalletSigner({
      route: { chainId: 31337n, url: anvil.url },
      address: w.address,
      owner: installationKeySigner(new Uint8Array(32).fill(3)),
    })
    await expect(signUpdate({ clientTimestampNs: 8n, actions: [createInbox(signer)] })).rejects.toMatchObject({
      code: 'signer_error',
      message: expect.stringMatching(/signs with erc_191/),
    })
  })
})
