/**
 * The chain verdict cache and the evidence of an erc_6492 signature, against anvil
 * behind a counting JSON-RPC proxy on 127.0.0.1 (so every request the verifier makes
 * is seen). One anvil for the file.
 */
import { execFile } from 'node:child_process'
import { promisify } from 'node:util'
import { hashMessage, hexToBytes, toHex, type Hex } from 'viem'
import { describe, expect, it } from 'vitest'
import { smartWalletEvidence } from '../../src/chain/evidence'
import { ChainVerifier, erc6492EthCall, isValidResult } from '../../src/chain/verifier'
import { ChainUnreachableError } from '../../src/core/errors'
import { replay } from '../../src/core/replay'
import type { WireSignature } from '../../src/core/types'
import type { SmartWalletRequest } from '../../src/core/verify/port'
import { addMember, createInbox, ethKeySigner, signUpdate, type SignedUpdate } from '../../src/signing'
import type { AnvilNode } from './anvil'
import {
  chainForFile,
  counterfactualWallet,
  deployWallet,
  eoa,
  headNumber,
  logOf,
  ownerSignature,
  salt,
  walletSigner,
  type ChainFixture,
  type RpcProxy,
} from './fixture'

const run = promisify(execFile)

let node: AnvilNode
let fx: ChainFixture
let proxy: RpcProxy

chainForFile(
  (run) => {
    ;({ node, fx } = run)
    proxy = run.proxy!
  },
  { proxy: true },
)

/**
 * A wallet of `owner` deployed at salt(n) and the update (timestamp n) that creates its
 * inbox, signed at the deployment block by `signer` (default: the owner itself).
 */
async function walletInbox(owner: string, n: number, signer = owner) {
  const w = await deployWallet(fx, eoa(owner), salt(n))
  const u = await signUpdate({
    clientTimestampNs: BigInt(n),
    actions: [createInbox(walletSigner(fx, w, { blockNumber: w.blockNumber, owner: eoa(signer) }))],
  })
  return { w, u }
}

type Erc6492 = Extract<WireSignature, { kind: 'erc_6492' }>
const firstSignature = (u: SignedUpdate): Erc6492 => {
  const s = u.signatures[0]!.signature
  if (s.kind !== 'erc_6492') throw new Error('not an erc_6492 signature')
  return s
}
const requestOf = (u: SignedUpdate, s: Erc6492 = firstSignature(u)): SmartWalletRequest => ({
  chainId: 31337n,
  account: s.accountId.split(':')[2]!.toLowerCase() as SmartWalletRequest['account'],
  blockNumber: s.blockNumber,
  hash: hexToBytes(hashMessage(u.text)),
  signature: s.signature,
})

describe('the chain verdict cache (IDENT-060, IDENT-061)', () => {
  it('IDENT-060: a second verification of the same signature makes no RPC call', async () => {
    const { w, u } = await walletInbox('cache owner', 1)
    const v = new ChainVerifier(new Map([[31337n, proxy.url]]))
    const before = proxy.count()
    expect(await v.verify(requestOf(u))).toBe('valid')
    expect(proxy.count() - before).toBe(2) // eth_chainId once for the route, then the eth_call
    const afterFirst = proxy.count()
    expect(await v.verify(requestOf(u))).toBe('valid')
    expect(proxy.count()).toBe(afterFirst)
    expect(v.cache?.hits).toBe(1)
    // A whole replay of the log through the same verifier: no RPC at all.
    expect((await replay(logOf(u), { smartWallets: v })).steps[0]!.status).toBe('applied')
    expect(proxy.count()).toBe(afterFirst)
    // Another block is another key: one more eth_call.
    await fx.test.mine({ blocks: 1 })
    expect(await v.verify({ ...requestOf(u), blockNumber: w.blockNumber + 1n })).toBe('valid')
    expect(proxy.count()).toBe(afterFirst + 1)
    expect(proxy.calls.at(-1)!.method).toBe('eth_call')
  })

  it('IDENT-060: invalid is cached; concurrent identical requests share one call; cache: false always asks', async () => {
    const { u } = await walletInbox('cache invalid owner', 2, 'cache stranger')
    const v = new ChainVerifier(new Map([[31337n, proxy.url]]))
    const c0 = proxy.count('eth_call')
    expect(await Promise.all([1, 2, 3, 4, 5].map(() => v.verify(requestOf(u))))).toEqual(Array(5).fill('invalid'))
    expect(proxy.count('eth_call') - c0).toBe(1)
    expect(await v.verify(requestOf(u))).toBe('invalid')
    expect(proxy.count('eth_call') - c0).toBe(1)
    const uncached = new ChainVerifier(new Map([[31337n, proxy.url]]), { cache: false })
    await uncached.verify(requestOf(u))
    await uncached.verify(requestOf(u))
    expect(proxy.count('eth_call') - c0).toBe(3)
    expect(uncached.cache).toBeNull()
  })

  it('IDENT-061: an unreachable verdict is never cached: the retry asks the chain again', async () => {
    const { w, u } = await walletInbox('cache retry owner', 3)
    const v = new ChainVerifier(new Map([[31337n, proxy.url]]))
    expect(await v.verify({ ...requestOf(u), blockNumber: w.blockNumber - 1n })).toBe('invalid') // warms the chain id check
    proxy.mode = 'http503'
    try {
      await expect(v.verify(requestOf(u))).rejects.toBeInstanceOf(ChainUnreachableError)
    } finally {
      proxy.mode = 'forward'
    }
    expect(v.cache?.size).toBe(1)
    const c0 = proxy.count('eth_call')
    expect(await v.verify(requestOf(u))).toBe('valid')
    expect(proxy.count('eth_call') - c0).toBe(1)
  })
})

describe('smartWalletEvidence', () => {
  it('IDENT-060: a deployed wallet: chain, block and time, route, code at the block, no wrapper, and the exact eth_call (pasteable with curl)', async () => {
    const { w, u } = await walletInbox('evidence deployed owner', 4)
    const sig = firstSignature(u)
    const routes = new Map([[31337n, proxy.url]])
    const ev = await smartWalletEvidence({ signature: sig, hash: hashMessage(u.text) }, routes)
    const block = await fx.client.getBlock({ blockNumber: w.blockNumber })
    expect(ev).toMatchObject({
      status: 'ok',
      reason: '',
      accountId: `eip155:31337:${w.address}`,
      chainId: 31337n,
      account: w.address.toLowerCase(),
      blockNumber: w.blockNumber,
      blockTimestamp: block.timestamp,
      blockTime: new Date(Number(block.timestamp) * 1000).toISOString().replace('.000Z', 'Z'),
      routeUrl: proxy.url,
      hasCode: true,
      wrapper: null,
      wrapperError: null,
      verdict: 'valid',
    })
    expect(ev.codeSize).toBeGreaterThan(0)
    // Before the deployment block the account had no code.
    expect(
      (
        await smartWalletEvidence(
          { signature: { ...sig, blockNumber: w.blockNumber - 1n }, hash: hashMessage(u.text) },
          routes,
        )
      ).hasCode,
    ).toBe(false)

    // The request is exactly what ChainVerifier sends.
    const v = new ChainVerifier(routes, { cache: false })
    const from = proxy.calls.length
    expect(await v.verify(requestOf(u))).toBe('valid')
    const sent = proxy.calls.slice(from).filter((c) => c.method === 'eth_call')
    expect(sent).toHaveLength(1)
    expect(sent[0]!.params).toEqual(ev.ethCall!.params)
    expect(ev.ethCall).toEqual(erc6492EthCall(requestOf(u)))
    expect(ev.ethCall!.params[1]).toBe(toHex(w.blockNumber))
    expect(ev.ethCall!.params[0].gas).toBe('0x4c4b40')

    // Pasted into a shell, the curl line reproduces the verdict.
    const { stdout } = await run('sh', ['-c', ev.curl!], { timeout: 10_000 })
    const answer = JSON.parse(stdout) as { result?: Hex }
    expect(isValidResult(answer.result)).toBe(true)
  })

  it('IDENT-060: a counterfactual wallet: no code at the block, the ERC-6492 wrapper taken apart (factory, factoryData, inner signature)', async () => {
    const owner = eoa('evidence counterfactual owner')
    const w = counterfactualWallet(fx, owner, salt(5))
    const block = await headNumber(fx)
    const u = await signUpdate({
      clientTimestampNs: 5n,
      actions: [createInbox(walletSigner(fx, w, { blockNumber: block, owner, wrap: true }))],
    })
    const ev = await smartWalletEvidence(
      { signature: firstSignature(u), hash: hexToBytes(hashMessage(u.text)) },
      new Map([[31337n, node.url]]),
    )
    expect(ev).toMatchObject({ status: 'ok', hasCode: false, codeSize: 0, verdict: 'valid', routeUrl: node.url })
    expect(ev.wrapper).toEqual({
      factory: fx.factory.toLowerCase(),
      factoryData: w.factoryData,
      innerSignature: toHex(await ownerSignature(owner, hexToBytes(hashMessage(u.text)))),
    })
    expect(ev.signatureHex.endsWith('6492649264926492649264926492649264926492649264926492649264926492')).toBe(true)
  })

  it('IDENT-060: a stranger’s signature: the evidence shows the invalid verdict; a malformed account id makes no chain access', async () => {
    const { w, u } = await walletInbox('evidence stranger owner', 6, 'evidence stranger')
    const routes = new Map([[31337n, proxy.url]])
    const ev = await smartWalletEvidence({ signature: firstSignature(u), hash: hashMessage(u.text) }, routes)
    expect(ev).toMatchObject({ status: 'ok', hasCode: true, verdict: 'invalid' })
    const before = proxy.count()
    const bad = await smartWalletEvidence(
      { signature: { ...firstSignature(u), accountId: `eip155:031337:${w.address}` }, hash: hashMessage(u.text) },
      routes,
    )
    expect(bad).toMatchObject({ status: 'malformed', chainId: null, ethCall: null, curl: null })
    expect(bad.reason).toMatch(/^IDENT-060: .*leading zero/)
    expect(proxy.count()).toBe(before)
  })

  it('IDENT-061: no route: the evidence says unreachable, still shows the eth_call, and never throws', async () => {
    const owner = eoa('evidence no route owner')
    const w = counterfactualWallet(fx, owner, salt(7))
    const u = await signUpdate({
      clientTimestampNs: 7n,
      actions: [
        createInbox(walletSigner(fx, w, { chainId: 8453n, blockNumber: 1n, owner, wrap: true })),
        addMember(
          walletSigner(fx, w, { chainId: 8453n, blockNumber: 1n, owner, wrap: true }),
          ethKeySigner(new Uint8Array(32).fill(5)),
        ),
      ],
    })
    const ev = await smartWalletEvidence({ signature: firstSignature(u), hash: hashMessage(u.text) }, new Map())
    expect(ev).toMatchObject({
      status: 'unreachable',
      chainId: 8453n,
      routeUrl: null,
      curl: null,
      hasCode: null,
      verdict: null,
      blockTimestamp: null,
    })
    expect(ev.reason).toMatch(/no RPC route for chain eip155:8453/)
    expect(ev.ethCall?.params[1]).toBe('0x1')
    expect(ev.wrapper?.factory).toBe(fx.factory.toLowerCase())
  })
})
