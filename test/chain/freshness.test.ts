/**
 * IDENT-062, fresh block at admission, against anvil with its clock moved by the test
 * client: above the head is not fresh, the head is; a block exactly 1800 s older than
 * the head is fresh, 1801 s is not. Block timestamps are set exactly with
 * evm_setNextBlockTimestamp (evm_increaseTime adds wall-clock drift between blocks);
 * evm_increaseTime + evm_mine, in small steps, for the coarse case.
 */
import { describe, expect, it } from 'vitest'
import { ChainClients } from '../../src/chain/client'
import { ChainFreshness, checkFreshBlock, checkUpdateFreshness, MAX_BLOCK_AGE_SECONDS } from '../../src/chain/freshness'
import { ChainVerifier } from '../../src/chain/verifier'
import { ChainUnreachableError } from '../../src/core/errors'
import { replay } from '../../src/core/replay'
import type { FreshnessCheck } from '../../src/devnode/admission'
import { createInbox, ethKeySigner, signUpdate } from '../../src/signing'
import { freePort, type AnvilNode } from './anvil'
import { chainForFile, deployWallet, eoa, logOf, rotateOwner, salt, walletSigner, type ChainFixture } from './fixture'

let node: AnvilNode
let fx: ChainFixture
let freshness: ChainFreshness

chainForFile((run) => {
  ;({ node, fx } = run)
  freshness = new ChainFreshness(new Map([[fx.chainId, node.url]]))
})

const head = () => fx.client.getBlock({ blockTag: 'latest' })

/** Mines one block stamped exactly `timestamp`; returns its number. */
async function mineAt(timestamp: bigint): Promise<bigint> {
  await fx.test.setNextBlockTimestamp({ timestamp })
  await fx.test.mine({ blocks: 1 })
  const h = await head()
  expect(h.timestamp).toBe(timestamp)
  return h.number
}

describe('checkFreshBlock (IDENT-062)', () => {
  it('IDENT-062: the head block is fresh, head + 1 is not (above the head)', async () => {
    const h = await head()
    const atHead = await checkFreshBlock(fx.client, h.number)
    expect(atHead).toMatchObject({ fresh: true, headNumber: h.number, ageSeconds: 0n })
    const above = await checkFreshBlock(fx.client, h.number + 1n)
    expect(above).toMatchObject({ fresh: false, code: 'above_head', headNumber: h.number })
    if (!above.fresh) expect(above.reason).toMatch(/above the head/)
  })

  it('IDENT-062: a block exactly 1800 s older than the head is fresh; 1801 s is not', async () => {
    expect(MAX_BLOCK_AGE_SECONDS).toBe(1800)
    const t = (await head()).timestamp + 10n
    const b = await mineAt(t)
    await mineAt(t + 1000n)
    await mineAt(t + 1800n)
    expect(await checkFreshBlock(fx.client, b)).toMatchObject({ fresh: true, ageSeconds: 1800n, blockTimestamp: t })
    expect(await freshness.check(fx.chainId, b)).toMatchObject({ fresh: true, ageSeconds: 1800n })
    await mineAt(t + 1801n)
    const stale = await checkFreshBlock(fx.client, b)
    expect(stale).toMatchObject({ fresh: false, code: 'too_old', ageSeconds: 1801n })
    if (!stale.fresh) expect(stale.reason).toMatch(/1801 s older than the head/)
    expect(await freshness.check({ chainId: fx.chainId, blockNumber: b })).toMatchObject({
      fresh: false,
      code: 'too_old',
    })
    // maxAgeSeconds moves the edge.
    expect(await checkFreshBlock(fx.client, b, { maxAgeSeconds: 1801 })).toMatchObject({ fresh: true })
  })

  it('IDENT-062: evm_increaseTime past 1800 s (mined in small steps) makes a block stale; a route works like a client', async () => {
    const b = (await head()).number
    await fx.test.increaseTime({ seconds: 1801 })
    for (let i = 0; i < 3; i++) await fx.test.mine({ blocks: 1 })
    expect(await checkFreshBlock({ chainId: fx.chainId, url: node.url }, b)).toMatchObject({
      fresh: false,
      code: 'too_old',
    })
    expect(await checkFreshBlock({ chainId: fx.chainId, url: node.url }, (await head()).number)).toMatchObject({
      fresh: true,
    })
  })

  it('IDENT-062: a removed owner can still sign for an old block, and replay applies it; admission’s freshness check is what refuses it', async () => {
    const a = eoa('freshness owner A')
    const w = await deployWallet(fx, a, salt(1))
    await rotateOwner(fx, w.address, a, eoa('freshness owner B').address)
    await fx.test.increaseTime({ seconds: 3600 })
    await fx.test.mine({ blocks: 1 })
    // A NEW update by the removed owner, naming the block from before the removal.
    const late = await signUpdate({
      clientTimestampNs: 99n,
      actions: [createInbox(walletSigner(fx, w, { blockNumber: w.blockNumber, owner: a }))],
    })
    const verifier = new ChainVerifier(freshness.clients)
    expect((await replay(logOf(late), { smartWallets: verifier })).steps[0]!.status).toBe('applied') // replay never checks freshness
    const r = await checkUpdateFreshness(late.update, freshness)
    expect(r).toMatchObject({ fresh: false, actionIndex: 0, role: 'initial_identifier_signature', code: 'too_old' })
  })

  it('IDENT-062: checkUpdateFreshness passes an update whose smart wallet signatures name the head, and skips other kinds', async () => {
    const a = eoa('fresh update owner')
    const w = await deployWallet(fx, a, salt(2))
    const u = await signUpdate({
      clientTimestampNs: 100n,
      actions: [createInbox(walletSigner(fx, w, { blockNumber: w.blockNumber, owner: a }))],
    })
    expect(await checkUpdateFreshness(u.update, freshness)).toEqual({ fresh: true, checked: 1 })
    const eoaOnly = await signUpdate({
      clientTimestampNs: 101n,
      actions: [createInbox(ethKeySigner(new Uint8Array(32).fill(4)))],
    })
    expect(await checkUpdateFreshness(eoaOnly.update, freshness)).toEqual({ fresh: true, checked: 0 })
  })

  it('IDENT-062: cannot tell is not stale: no route, a wrong port, or another chain id throw ChainUnreachableError', async () => {
    await expect(freshness.check(1n, 1n)).rejects.toThrow(/no RPC route for chain eip155:1\b/)
    const wrongPort = new ChainFreshness(new Map([[31337n, `http://127.0.0.1:${await freePort()}`]]))
    await expect(wrongPort.check(31337n, 1n)).rejects.toBeInstanceOf(ChainUnreachableError)
    await expect(checkFreshBlock({ chainId: 10n, url: node.url }, 1n)).rejects.toThrow(/answers chain id 31337, not 10/)
    // The local node's admission port takes ChainFreshness as it is.
    const port: FreshnessCheck = new ChainFreshness(new ChainClients(new Map([[31337n, node.url]])))
    expect(await port.check({ chainId: 31337n, blockNumber: (await head()).number + 1n })).toMatchObject({
      fresh: false,
      code: 'above_head',
    })
  })
})
