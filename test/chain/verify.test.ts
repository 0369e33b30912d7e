/**
 * Smart contract wallets against a real EVM node (spec section 7): identity updates
 * signed through OwnedWallet (ERC-1271) and its CREATE2 factory (ERC-6492), replayed
 * by the core with ChainVerifier. One anvil for the whole file.
 */
import { hexToBytes, serializeErc6492Signature, toHex } from 'viem'
import { describe, expect, it } from 'vitest'
import { ChainVerifier } from '../../src/chain/verifier'
import { replay } from '../../src/core/replay'
import { memberKey } from '../../src/core/types'
import {
  addMember,
  createInbox,
  ethKeySigner,
  inboxIdOf,
  installationKeySigner,
  revokeMember,
  signUpdate,
} from '../../src/signing'
import type { AnvilNode } from './anvil'
import {
  chainForFile,
  counterfactualWallet,
  deployWallet,
  eoa,
  logOf,
  ownerOf,
  rotateOwner,
  salt,
  walletSigner,
  headNumber,
  type ChainFixture,
} from './fixture'

let node: AnvilNode
let fx: ChainFixture
let verifier: ChainVerifier

chainForFile((run) => {
  ;({ node, fx } = run)
  verifier = new ChainVerifier(new Map([[fx.chainId, node.url]]))
})

const statuses = (t: Awaited<ReturnType<typeof replay>>) => t.steps.map((s) => [s.status, s.rule])

/**
 * The statuses of the replay of a CreateInbox by a wallet of `owner` deployed at salt(n)
 * (timestamp n µs), its erc_6492 signature carrying `signature` as the wallet's bytes.
 */
async function withRawSignature(owner: string, n: number, signature: Uint8Array) {
  const w = await deployWallet(fx, eoa(owner), salt(n))
  const raw = {
    kind: 'erc_6492' as const,
    accountId: `eip155:31337:${w.address}`,
    blockNumber: w.blockNumber,
    signature,
  }
  const s = walletSigner(fx, w, { blockNumber: w.blockNumber, owner: eoa(owner) })
  const u = await signUpdate({
    clientTimestampNs: BigInt(n) * 1_000n,
    actions: [createInbox(s, { signature: { raw } })],
  })
  return statuses(await replay(logOf(u), { smartWallets: verifier }))
}

describe('ChainVerifier with the core replay (IDENT-060)', () => {
  it('IDENT-060: a deployed wallet’s owner signature applies (CreateInbox and an add of an installation)', async () => {
    const owner = eoa('deployed owner')
    const w = await deployWallet(fx, owner, salt(1))
    const wallet = walletSigner(fx, w, { blockNumber: w.blockNumber, owner })
    const inst = installationKeySigner(new Uint8Array(32).fill(7))
    const u = await signUpdate({ clientTimestampNs: 1_000n, actions: [createInbox(wallet), addMember(wallet, inst)] })
    const t = await replay(logOf(u), { smartWallets: verifier })
    expect(statuses(t)).toEqual([['applied', null]])
    const member = t.head!.members.get(memberKey({ kind: 'ethereum', text: w.address.toLowerCase() }))
    expect(member?.chainId).toBe(31337n)
    expect(t.head!.recovery.chainId).toBe(31337n)
    expect(t.steps[0]!.signatures.every((c) => c.verdict === 'valid')).toBe(true)
  })

  it('IDENT-060: a counterfactual (undeployed) wallet’s ERC-6492-wrapped signature applies, and nothing is deployed', async () => {
    const owner = eoa('counterfactual owner')
    const w = counterfactualWallet(fx, owner, salt(2))
    const block = await headNumber(fx)
    const wallet = walletSigner(fx, w, { blockNumber: block, owner, wrap: true })
    const u = await signUpdate({ clientTimestampNs: 2_000n, actions: [createInbox(wallet)] })
    const t = await replay(logOf(u), { smartWallets: verifier })
    expect(statuses(t)).toEqual([['applied', null]])
    expect(await fx.client.getCode({ address: w.address })).toBeUndefined()
    // The same signature unwrapped does not validate: the wallet has no code at that block.
    const bare = walletSigner(fx, w, { blockNumber: block, owner })
    const u2 = await signUpdate({ clientTimestampNs: 2_000n, actions: [createInbox(bare)] })
    const t2 = await replay(logOf(u2), { smartWallets: verifier })
    expect(statuses(t2)).toEqual([['rejected', 'IDENT-060']])
  })

  it('IDENT-060: a wrapped signature still applies after the wallet is deployed (the factory is idempotent)', async () => {
    const owner = eoa('wrapped then deployed')
    const w = await deployWallet(fx, owner, salt(3))
    const wallet = walletSigner(fx, w, { blockNumber: w.blockNumber, owner, wrap: true })
    const u = await signUpdate({ clientTimestampNs: 3_000n, actions: [createInbox(wallet)] })
    expect(statuses(await replay(logOf(u), { smartWallets: verifier }))).toEqual([['applied', null]])
  })

  it('IDENT-060: a stranger’s signature for the wallet is rejected, wrapped or not', async () => {
    const owner = eoa('stranger test owner')
    const stranger = eoa('stranger')
    const w = await deployWallet(fx, owner, salt(4))
    for (const wrap of [false, true]) {
      const s = walletSigner(fx, w, { blockNumber: w.blockNumber, owner: stranger, wrap })
      const u = await signUpdate({ clientTimestampNs: 4_000n, actions: [createInbox(s)] })
      const t = await replay(logOf(u), { smartWallets: verifier })
      expect(statuses(t)).toEqual([['rejected', 'IDENT-060']])
      expect(t.steps[0]!.message).toMatch(/does not validate the signature at block/)
    }
  })

  it('IDENT-060: after an owner rotation the old signature still applies at its block; a new one by the old owner at the new block is rejected; the new owner’s applies', async () => {
    const a = eoa('rotation owner A')
    const b = eoa('rotation owner B')
    const w = await deployWallet(fx, a, salt(5))
    const created = await signUpdate({
      clientTimestampNs: 5_000n,
      actions: [createInbox(walletSigner(fx, w, { blockNumber: w.blockNumber, owner: a }))],
    })
    const rotatedAt = await rotateOwner(fx, w.address, a, b.address)
    expect(rotatedAt).toBeGreaterThan(w.blockNumber)
    expect((await ownerOf(fx, w.address, w.blockNumber)).toLowerCase()).toBe(a.address.toLowerCase())
    expect((await ownerOf(fx, w.address, rotatedAt)).toLowerCase()).toBe(b.address.toLowerCase())

    // The log written before the rotation replays as it did: judged at its own block.
    expect(statuses(await replay(logOf(created), { smartWallets: verifier }))).toEqual([['applied', null]])

    const newMember = ethKeySigner(new Uint8Array(32).fill(9))
    const inboxId = inboxIdOf(w.address.toLowerCase())
    const byOldOwner = await signUpdate({
      inboxId,
      clientTimestampNs: 5_001n,
      actions: [addMember(walletSigner(fx, w, { blockNumber: rotatedAt, owner: a }), newMember)],
    })
    const t = await replay(logOf(created, byOldOwner), { smartWallets: verifier })
    expect(statuses(t)).toEqual([
      ['applied', null],
      ['rejected', 'IDENT-060'],
    ])
    expect(t.steps[1]!.actionIndex).toBe(0)

    const byNewOwner = await signUpdate({
      inboxId,
      clientTimestampNs: 5_002n,
      actions: [addMember(walletSigner(fx, w, { blockNumber: rotatedAt, owner: b }), newMember)],
    })
    expect(statuses(await replay(logOf(created, byNewOwner), { smartWallets: verifier }))).toEqual([
      ['applied', null],
      ['applied', null],
    ])
    // …and the new owner at the OLD block is not the wallet's signer there.
    const newOwnerOldBlock = await signUpdate({
      inboxId,
      clientTimestampNs: 5_003n,
      actions: [addMember(walletSigner(fx, w, { blockNumber: w.blockNumber, owner: b }), newMember)],
    })
    expect(statuses(await replay(logOf(created, newOwnerOldBlock), { smartWallets: verifier }))[1]).toEqual([
      'rejected',
      'IDENT-060',
    ])
  })

  it('IDENT-060: a signature blob the validator cannot decode is invalid, not pending', async () => {
    expect(await withRawSignature('garbage owner', 6, Uint8Array.of(0x12, 0x34))).toEqual([['rejected', 'IDENT-060']])
  })
})

describe('attacker-chosen code under the gas cap (IDENT-060)', () => {
  it('IDENT-060: an ERC-6492 factory that loops forever makes the signature invalid (not pending), within the 5 M gas cap', async () => {
    const looping = '0x00000000000000000000000000000000000c0ffe' as const
    await fx.test.setCode({ address: looping, bytecode: '0x5b600056' }) // JUMPDEST PUSH1 0 JUMP
    const owner = eoa('looping factory owner')
    const w = { ...counterfactualWallet(fx, owner, salt(9)) }
    const block = await headNumber(fx)
    const inner = walletSigner(fx, w, { blockNumber: block, owner })
    const u = await signUpdate({
      clientTimestampNs: 9_000n,
      actions: [
        createInbox(inner, {
          signature: {
            transform: async (sig) => {
              if (sig.kind !== 'erc_6492') throw new Error('fixture')
              const wrapped = serializeErc6492Signature({
                address: looping,
                data: '0xdeadbeef',
                signature: toHex(sig.signature),
              })
              return { ...sig, signature: hexToBytes(wrapped) }
            },
          },
        }),
      ],
    })
    const t = await replay(logOf(u), {
      smartWallets: new ChainVerifier(new Map([[fx.chainId, node.url]]), { cache: false }),
    })
    expect(statuses(t)).toEqual([['rejected', 'IDENT-060']])
  })

  it('IDENT-060: a validation that needs more gas than the cap is invalid: the cap is part of the rule, and asking again gives the same answer', async () => {
    const owner = eoa('gas cap owner')
    const w = counterfactualWallet(fx, owner, salt(10))
    const u = await signUpdate({
      clientTimestampNs: 10_000n,
      actions: [createInbox(walletSigner(fx, w, { blockNumber: await headNumber(fx), owner, wrap: true }))],
    })
    // 200 k: the validator's factory call runs out of gas; 60 k: the call's intrinsic gas alone exceeds the cap.
    for (const gas of [200_000n, 60_000n]) {
      const tight = new ChainVerifier(new Map([[fx.chainId, node.url]]), { gas })
      expect(statuses(await replay(logOf(u), { smartWallets: tight }))).toEqual([['rejected', 'IDENT-060']])
    }
    expect(statuses(await replay(logOf(u), { smartWallets: verifier }))).toEqual([['applied', null]])
  })

  it('IDENT-060: a signature too large for the node to run the validator (initcode limit) is invalid, not pending for ever', async () => {
    const huge = new Uint8Array(50_000).fill(1)
    expect(await withRawSignature('huge signature owner', 11, huge)).toEqual([['rejected', 'IDENT-060']])
  })
})

describe('chain binding with real chain ids (IDENT-046)', () => {
  it('IDENT-046: the same wallet address signing as eip155:1 is rejected, though chain 1 has no route (rules beat pending)', async () => {
    const owner = eoa('chain binding owner')
    const w = await deployWallet(fx, owner, salt(7))
    const onAnvil = walletSigner(fx, w, { blockNumber: w.blockNumber, owner })
    const created = await signUpdate({ clientTimestampNs: 7_000n, actions: [createInbox(onAnvil)] })
    const onMainnet = walletSigner(fx, w, { chainId: 1n, blockNumber: w.blockNumber, owner })
    expect(onMainnet.identifier).toEqual(onAnvil.identifier)
    const add = await signUpdate({
      inboxId: created.update.inboxId,
      clientTimestampNs: 7_001n,
      actions: [addMember(onMainnet, ethKeySigner(new Uint8Array(32).fill(10)))],
    })
    const t = await replay(logOf(created, add), { smartWallets: verifier })
    expect(statuses(t)).toEqual([
      ['applied', null],
      ['rejected', 'IDENT-046'],
    ])
    expect(t.steps[1]!.message).toMatch(/eip155:1\b.*eip155:31337/)
    // The chain 1 signature itself could not be judged (no route): unreachable, not invalid.
    const check = t.steps[1]!.signatures.find((c) => c.role === 'existing_member_signature')!
    expect(check.verdict).toBe('unreachable')
    expect(check.reason).toMatch(/no RPC route for chain eip155:1\b/)
  })

  it('IDENT-046: the recovery identifier’s chain binds a revocation too (eip155:1 revoke of a 31337 recovery wallet is rejected)', async () => {
    const owner = eoa('recovery chain owner')
    const w = await deployWallet(fx, owner, salt(8))
    const onAnvil = walletSigner(fx, w, { blockNumber: w.blockNumber, owner })
    const inst = installationKeySigner(new Uint8Array(32).fill(11))
    const created = await signUpdate({
      clientTimestampNs: 8_000n,
      actions: [createInbox(onAnvil), addMember(onAnvil, inst)],
    })
    const revoke = await signUpdate({
      inboxId: created.update.inboxId,
      clientTimestampNs: 8_001n,
      actions: [revokeMember(inst, walletSigner(fx, w, { chainId: 1n, blockNumber: w.blockNumber, owner }))],
    })
    expect(statuses(await replay(logOf(created, revoke), { smartWallets: verifier }))).toEqual([
      ['applied', null],
      ['rejected', 'IDENT-046'],
    ])
  })
})
