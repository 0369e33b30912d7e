/**
 * IDENT-061, unreachable is not invalid, against a real node: a missing route, a route
 * whose node is another chain, a wrong port, an HTTP 503, a node that never answers, a
 * block the node does not have, and a stopped node all leave the update `pending`
 * (never `rejected`), and a later attempt through a reachable route applies it. The
 * file's anvil is stopped by its last test.
 */
import { describe, expect, it } from 'vitest'
import { ChainFreshness } from '../../src/chain/freshness'
import { smartWalletEvidence } from '../../src/chain/evidence'
import { ChainVerifier } from '../../src/chain/verifier'
import { ChainUnreachableError } from '../../src/core/errors'
import { replay } from '../../src/core/replay'
import { addMember, createInbox, ethKeySigner, signUpdate, type SignedUpdate } from '../../src/signing'
import { freePort, type AnvilNode } from './anvil'
import {
  chainForFile,
  deployWallet,
  eoa,
  logOf,
  salt,
  walletSigner,
  type ChainFixture,
  type RpcProxy,
  type Wallet,
} from './fixture'

let node: AnvilNode
let fx: ChainFixture
let proxy: RpcProxy
let owner: ReturnType<typeof eoa>
let w: Wallet & { blockNumber: bigint }
let created: SignedUpdate
let added: SignedUpdate

chainForFile(
  async (run) => {
    ;({ node, fx } = run)
    proxy = run.proxy!
    owner = eoa('unreachable owner')
    w = await deployWallet(fx, owner, salt(1))
    const wallet = walletSigner(fx, w, { blockNumber: w.blockNumber, owner })
    created = await signUpdate({ clientTimestampNs: 1n, actions: [createInbox(wallet)] })
    added = await signUpdate({
      inboxId: created.update.inboxId,
      clientTimestampNs: 2n,
      actions: [addMember(wallet, ethKeySigner(new Uint8Array(32).fill(3)))],
    })
  },
  { proxy: true },
)

const rows = async (v: ChainVerifier | undefined, ...u: SignedUpdate[]) => {
  const t = await replay(logOf(...u), v ? { smartWallets: v } : {})
  return t.steps.map((s) => ({ status: s.status, rule: s.rule, message: s.message }))
}
const only = (chainId: bigint, url: string, timeoutMs = 2000) =>
  new ChainVerifier(new Map([[chainId, url]]), { timeoutMs })

describe('unreachable is not invalid (IDENT-061)', () => {
  it('IDENT-061: the reachable baseline applies', async () => {
    expect((await rows(only(31337n, node.url), created, added)).map((r) => r.status)).toEqual(['applied', 'applied'])
  })

  it('IDENT-061: a missing route gives pending (no verifier at all, and a verifier without a route for the chain)', async () => {
    for (const v of [undefined, new ChainVerifier(new Map())]) {
      const [first, second] = await rows(v, created, added)
      expect(first).toMatchObject({ status: 'pending', rule: 'IDENT-061' })
      expect(first!.message).toMatch(/eip155:31337/)
      expect(second).toMatchObject({ status: 'not_applied', rule: null })
    }
  })

  it('IDENT-061: a route whose node answers another chain id gives pending with the reason', async () => {
    const onChain5 = walletSigner(fx, w, { chainId: 5n, blockNumber: w.blockNumber, owner })
    const u = await signUpdate({ clientTimestampNs: 3n, actions: [createInbox(onChain5)] })
    const [r] = await rows(only(5n, node.url), u)
    expect(r).toMatchObject({ status: 'pending', rule: 'IDENT-061' })
    expect(r!.message).toContain(`the route for eip155:5 (${node.url}) answers chain id 31337, not 5`)
  })

  it('IDENT-061: a wrong port (connection refused) gives pending', async () => {
    const [r] = await rows(only(31337n, `http://127.0.0.1:${await freePort()}`), created)
    expect(r).toMatchObject({ status: 'pending', rule: 'IDENT-061' })
    expect(r!.message).toMatch(/transport error/)
  })

  it('IDENT-061: an HTTP 503 gives pending, and the same verifier applies the update once the node answers again (unreachable is never cached)', async () => {
    const v = only(31337n, proxy.url)
    proxy.mode = 'http503'
    try {
      const [r] = await rows(v, created)
      expect(r).toMatchObject({ status: 'pending', rule: 'IDENT-061' })
      expect(r!.message).toMatch(/transport error/)
    } finally {
      proxy.mode = 'forward'
    }
    expect((await rows(v, created)).map((x) => x.status)).toEqual(['applied'])
  })

  it('IDENT-061: a node that accepts and never answers gives pending after the timeout', async () => {
    const v = new ChainVerifier(new Map([[31337n, proxy.url]]), { timeoutMs: 300 })
    proxy.mode = 'hang'
    try {
      const [r] = await rows(v, created)
      expect(r).toMatchObject({ status: 'pending', rule: 'IDENT-061' })
    } finally {
      proxy.mode = 'forward'
    }
  })

  it('IDENT-061: a block the node does not have yet (above its head) gives pending, not rejected', async () => {
    const head = await fx.client.getBlockNumber({ cacheTime: 0 })
    const future = walletSigner(fx, w, { blockNumber: head + 1000n, owner })
    const u = await signUpdate({ clientTimestampNs: 4n, actions: [createInbox(future)] })
    const [r] = await rows(only(31337n, node.url), u)
    expect(r).toMatchObject({ status: 'pending', rule: 'IDENT-061' })
    expect(r!.message).toMatch(/rpc error/)
  })

  it('IDENT-061: a stopped node gives pending; freshness throws ChainUnreachableError; evidence says unreachable', async () => {
    const v = only(31337n, node.url)
    const freshness = new ChainFreshness(new Map([[31337n, node.url]]), { timeoutMs: 2000 })
    await node.stop()
    expect(node.alive()).toBe(false)
    const [first, second] = await rows(v, created, added)
    expect(first).toMatchObject({ status: 'pending', rule: 'IDENT-061' })
    expect(second!.status).toBe('not_applied')
    await expect(freshness.check(31337n, w.blockNumber)).rejects.toBeInstanceOf(ChainUnreachableError)
    const sig = created.update.actions[0]!
    if (sig.kind !== 'create_inbox' || sig.initialIdentifierSignature.kind !== 'erc_6492') throw new Error('fixture')
    const ev = await smartWalletEvidence(
      { signature: sig.initialIdentifierSignature, hash: new Uint8Array(32) },
      new Map([[31337n, node.url]]),
      { timeoutMs: 2000 },
    )
    expect(ev.status).toBe('unreachable')
    expect(ev.reason).toMatch(/eth_chainId/)
    expect(ev.ethCall?.method).toBe('eth_call')
  })
})
