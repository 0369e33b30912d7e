/**
 * The node process with `--chain eip155:1=<url>`: erc_6492 admission end to end through
 * src/chain (ChainVerifier for IDENT-060, ChainFreshness for IDENT-062) against a scripted
 * JSON-RPC endpoint on 127.0.0.1 (eth_chainId, eth_call, eth_getBlockByNumber). The real
 * EVM behaviour of the verifier is src/chain's own suite (anvil); this checks the node's
 * wiring and its answers: stored, 409 IDENT-060, 409 IDENT-062, 503 IDENT-061.
 */
import { createServer, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createClient } from '@connectrpc/connect'
import { IdentityApi } from '../../src/gen/identity/api/v1/identity_pb'
import { NODE_PATHS, frameField1 } from '../../src/network/client'
import { nodeTransportFor } from '../../src/network/transports-node'
import { createInbox } from '../../src/signing'
import { startNode, stopAll, tempDir, type RunningNode } from './harness'
import { smartWallet, update } from './updates'

const tmp = tempDir()
let node: RunningNode
let rpc: Server
const HEAD = { number: 1000n, timestamp: 1_750_000_000n }
const chain = {
  /** eth_call answers valid (0x01) or invalid (0x00). */
  valid: true,
  /** Answer every request with HTTP 500. */
  down: false,
  /** block number → timestamp; default: 12 s per block below the head. */
  timestampOf: (n: bigint): bigint => HEAD.timestamp - (HEAD.number - n) * 12n,
  methods: [] as string[],
}

/** Runs `body` with the fake chain set as `change` says, then sets it back. */
async function withChain(change: { valid?: boolean; down?: boolean }, body: () => Promise<void>): Promise<void> {
  const before = { valid: chain.valid, down: chain.down }
  Object.assign(chain, change)
  try {
    await body()
  } finally {
    Object.assign(chain, before)
  }
}

const hex = (n: bigint) => `0x${n.toString(16)}`

beforeAll(async () => {
  rpc = createServer((req, res) => {
    let body = ''
    req.on('data', (d: Buffer) => (body += d.toString('utf8')))
    req.on('end', () => {
      if (chain.down) {
        res.writeHead(500).end('down')
        return
      }
      const { id, method, params } = JSON.parse(body) as { id: number; method: string; params: unknown[] }
      chain.methods.push(method)
      let result: unknown
      if (method === 'eth_chainId') result = '0x1'
      else if (method === 'eth_call') result = chain.valid ? '0x01' : '0x00'
      else if (method === 'eth_blockNumber') result = hex(HEAD.number)
      else if (method === 'eth_getBlockByNumber') {
        const tag = params[0] as string
        const n = tag === 'latest' ? HEAD.number : BigInt(tag)
        result =
          n > HEAD.number
            ? null
            : { number: hex(n), timestamp: hex(chain.timestampOf(n)), hash: `0x${n.toString(16).padStart(64, '0')}` }
      } else {
        res
          .writeHead(200, { 'content-type': 'application/json' })
          .end(JSON.stringify({ jsonrpc: '2.0', id, error: { code: -32601, message: 'method not found' } }))
        return
      }
      res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ jsonrpc: '2.0', id, result }))
    })
  })
  await new Promise<void>((r) => rpc.listen(0, '127.0.0.1', () => r()))
  const { port } = rpc.address() as AddressInfo
  node = await startNode({ db: tmp.path('chain.db'), args: ['--chain', `eip155:1=http://127.0.0.1:${port}`] })
})

afterAll(async () => {
  await stopAll()
  await new Promise<void>((r) => rpc.close(() => r()))
  tmp.remove()
})

let n = 0
const address = () => `0x${(++n).toString(16).padStart(40, 'c')}`
const publishSmartWalletInbox = async (blockNumber: bigint, chainId = 1n) =>
  node.post(
    NODE_PATHS.publish,
    frameField1((await update(undefined, createInbox(smartWallet(address(), blockNumber, chainId)))).bytes),
  )

describe('erc_6492 admission through --chain (IDENT-060, IDENT-061, IDENT-062)', () => {
  it('IDENT-062: a valid signature at a block 60 s below the head is stored; the node asked the route for the head and the block', async () => {
    const r = await publishSmartWalletInbox(HEAD.number - 5n)
    expect(r.status, r.text()).toBe(200)
    expect(chain.methods).toContain('eth_call')
    expect(chain.methods.filter((m) => m === 'eth_getBlockByNumber').length).toBeGreaterThanOrEqual(2)
  })

  it('IDENT-062: a block above the head, or more than 1800 s older than the head, is 409 stale_block', async () => {
    const above = await publishSmartWalletInbox(HEAD.number + 1n)
    expect(above.status).toBe(409)
    expect(above.json()).toMatchObject({ code: 'stale_block', rule: 'IDENT-062' })
    const old = await publishSmartWalletInbox(HEAD.number - 151n) // 1812 s
    expect(old.json()).toMatchObject({ code: 'stale_block', rule: 'IDENT-062' })
    const edge = await publishSmartWalletInbox(HEAD.number - 150n) // exactly 1800 s: fresh
    expect(edge.status, edge.text()).toBe(200)
  })

  it('IDENT-060: a signature the wallet does not validate is 409, not a freshness question', async () => {
    await withChain({ valid: false }, async () => {
      const r = await publishSmartWalletInbox(HEAD.number)
      expect(r.status).toBe(409)
      expect(r.json()).toMatchObject({ code: 'rule_violation', rule: 'IDENT-060' })
    })
  })

  it('IDENT-061: a chain that fails, or a chain with no route, is 503 chain_unreachable, and the node keeps serving', async () => {
    await withChain({ down: true }, async () => {
      const r = await publishSmartWalletInbox(HEAD.number)
      expect(r.status).toBe(503)
      expect(r.json()).toMatchObject({ code: 'chain_unreachable', rule: 'IDENT-061' })
    })
    const unrouted = await publishSmartWalletInbox(HEAD.number, 10n)
    expect(unrouted.status).toBe(503)
    expect(unrouted.json()).toMatchObject({ code: 'chain_unreachable', rule: 'IDENT-061' })
    expect((await publishSmartWalletInbox(HEAD.number - 1n)).status).toBe(200)
  })
})

describe('VerifySmartContractWalletSignatures through --chain (IDENT-060, IDENT-061, IDENT-062)', () => {
  const verify = (signatures: { accountId: string; blockNumber?: bigint }[], kind: 'grpc' | 'connect' = 'grpc') =>
    createClient(IdentityApi, nodeTransportFor(kind, node.url)).verifySmartContractWalletSignatures({
      signatures: signatures.map((s) => ({ ...s, hash: new Uint8Array(32).fill(1), signature: new Uint8Array(65) })),
    })
  const account = (chainId = 1) => `eip155:${chainId}:${address()}`

  it('IDENT-060: valid and not valid at the stated block, in request order; the head block when none is stated', async () => {
    const valid = await verify([{ accountId: account(), blockNumber: HEAD.number - 5n }, { accountId: account() }])
    expect(valid.responses.map((r) => [r.isValid, r.blockNumber, r.error])).toEqual([
      [true, HEAD.number - 5n, undefined],
      [true, HEAD.number, undefined],
    ])
    await withChain({ valid: false }, async () => {
      const r = await verify([{ accountId: account(), blockNumber: HEAD.number }], 'connect')
      expect(r.responses[0]?.isValid).toBe(false)
      expect(r.responses[0]?.error).toMatch(/^IDENT-060/)
    })
  })

  it('IDENT-062: a block above the head or older than 1800 s is not valid', async () => {
    const r = await verify([
      { accountId: account(), blockNumber: HEAD.number + 1n },
      { accountId: account(), blockNumber: HEAD.number - 151n },
    ])
    expect(r.responses.map((x) => [x.isValid, x.error?.slice(0, 9)])).toEqual([
      [false, 'IDENT-062'],
      [false, 'IDENT-062'],
    ])
  })

  it('IDENT-061: a chain that fails, or one with no route, is UNAVAILABLE, never "not valid"', async () => {
    await withChain({ down: true }, async () => {
      await expect(verify([{ accountId: account(), blockNumber: HEAD.number }])).rejects.toThrow(/IDENT-061/)
    })
    await expect(verify([{ accountId: account(10), blockNumber: HEAD.number }])).rejects.toThrow(/IDENT-061/)
  })
})
