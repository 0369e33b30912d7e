/**
 * The MLS calls of registration and the SCW verifier RPC on the local node, over gRPC,
 * gRPC-web and Connect, against the real node process: a key package is checked
 * (KP-001..KP-007, src/devnode/keypackage.ts), stored under its installation key and
 * served back in request order; a revoked installation's package is no longer served
 * and no longer accepted; VerifySmartContractWalletSignatures refuses a malformed account
 * (IDENT-060) without a chain, and answers UNAVAILABLE (IDENT-061) when no chain route can
 * judge a signature. The traffic log names the key package rule of a refusal.
 */
import { Code, ConnectError, createClient } from '@connectrpc/connect'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { bytesToHex } from '../../src/crypto/bytes'
import { IdentityApi } from '../../src/gen/identity/api/v1/identity_pb'
import { MlsApi } from '../../src/gen/mls/api/v1/mls_pb'
import { nodeTransportFor } from '../../src/network/transports-node'
import { type RunningNode, startNode, stopAll, tempDir } from './harness'
import { installationKeyOf, keyPackage } from './keypackages'
import { add, installation, installationSeed, newInbox, revoke, wallet } from './updates'

const tmp = tempDir('mls-')
let node: RunningNode
let inboxId: string
const seed1 = installationSeed('mls 1')
const seed2 = installationSeed('mls 2')
const key1 = installationKeyOf(seed1)
const key2 = installationKeyOf(seed2)

beforeAll(async () => {
  node = await startNode({ db: tmp.path('node.db') })
  const w = wallet('mls a')
  const created = await newInbox(w, { install: installation('mls 1') })
  inboxId = created.inboxId
  await node.client().publishIdentityUpdate(created.bytes)
  await node.client().publishIdentityUpdate((await add(inboxId, w, installation('mls 2'))).bytes)
}, 60_000)

afterAll(async () => {
  await stopAll()
  tmp.remove()
})

const mls = (kind: 'grpc' | 'grpc-web' | 'connect') => createClient(MlsApi, nodeTransportFor(kind, node.url))
const refusal = (p: Promise<unknown>) =>
  p.then(
    () => null,
    (e: unknown) => (e instanceof ConnectError ? e : null),
  )

describe('UploadKeyPackage and FetchKeyPackages', () => {
  it('stores a key package per installation and serves it back, in request order, on every transport', async () => {
    const kp1 = keyPackage(seed1, inboxId)
    const kp2 = keyPackage(seed2, inboxId)
    await mls('grpc').uploadKeyPackage({ keyPackage: { keyPackageTlsSerialized: kp1 }, isInboxIdCredential: true })
    await mls('grpc-web').uploadKeyPackage({ keyPackage: { keyPackageTlsSerialized: kp2 }, isInboxIdCredential: true })
    for (const kind of ['grpc', 'grpc-web', 'connect'] as const) {
      const r = await mls(kind).fetchKeyPackages({ installationKeys: [key2, new Uint8Array(32), key1] })
      expect(r.keyPackages.map((k) => bytesToHex(k.keyPackageTlsSerialized))).toEqual([
        bytesToHex(kp2),
        '',
        bytesToHex(kp1),
      ])
    }
  })

  it('a newer upload replaces the installation key package', async () => {
    const newer = keyPackage(seed2, inboxId, { notAfter: BigInt(Math.floor(Date.now() / 1000)) + 1000n })
    await mls('connect').uploadKeyPackage({ keyPackage: { keyPackageTlsSerialized: newer } })
    const r = await mls('connect').fetchKeyPackages({ installationKeys: [key2] })
    expect(r.keyPackages[0]!.keyPackageTlsSerialized).toEqual(newer)
  })

  it('refuses a key package that fails a check with INVALID_ARGUMENT naming the rule (and logs the rule)', async () => {
    const now = BigInt(Math.floor(Date.now() / 1000))
    const cases: [Uint8Array, string][] = [
      [new Uint8Array(), 'KP-001'],
      [keyPackage(seed1, inboxId).subarray(0, 50), 'KP-002'],
      [keyPackage(seed1, inboxId, { suite: 2 }), 'KP-004'],
      [keyPackage(seed1, inboxId, { notBefore: now - 100n, notAfter: now - 10n }), 'KP-005'],
    ]
    const signed = keyPackage(seed1, inboxId)
    signed[signed.length - 1]! ^= 1
    cases.push([signed, 'KP-007'])
    for (const [bytes, rule] of cases) {
      for (const kind of ['grpc', 'grpc-web', 'connect'] as const) {
        const e = await refusal(mls(kind).uploadKeyPackage({ keyPackage: { keyPackageTlsSerialized: bytes } }))
        expect([rule, kind, e?.code]).toEqual([rule, kind, Code.InvalidArgument])
        expect(e!.rawMessage).toContain(rule)
      }
    }
    const page = (await (await fetch(`${node.url}/inspector/v1/traffic`)).json()) as {
      calls: { method: string; outcome: string; code: string; rule: string | null }[]
    }
    const refused = page.calls.filter((c) => c.method.endsWith('/UploadKeyPackage') && c.outcome === 'refused')
    expect(refused.map((c) => c.rule)).toEqual(cases.flatMap(([, rule]) => [rule, rule, rule]))
    expect(new Set(refused.map((c) => c.code))).toEqual(new Set(['invalid_argument']))
  })

  it("a revoked installation's package is no longer served, nor accepted again", async () => {
    await node.client().publishIdentityUpdate((await revoke(inboxId, installation('mls 1'), wallet('mls a'))).bytes)
    const r = await mls('grpc').fetchKeyPackages({ installationKeys: [key1, key2] })
    expect(r.keyPackages[0]!.keyPackageTlsSerialized).toHaveLength(0)
    expect(r.keyPackages[1]!.keyPackageTlsSerialized.length).toBeGreaterThan(0)
    const e = await refusal(
      mls('grpc').uploadKeyPackage({ keyPackage: { keyPackageTlsSerialized: keyPackage(seed1, inboxId) } }),
    )
    expect(e?.code).toBe(Code.FailedPrecondition)
    expect(e?.rawMessage).toContain(bytesToHex(key1))
  })
})

describe('VerifySmartContractWalletSignatures without a chain route', () => {
  const identity = (kind: 'grpc' | 'grpc-web' | 'connect') =>
    createClient(IdentityApi, nodeTransportFor(kind, node.url))

  it.each(['grpc', 'grpc-web', 'connect'] as const)(
    'IDENT-060: a malformed account is not valid, before any chain access (%s)',
    async (kind) => {
      const r = await identity(kind).verifySmartContractWalletSignatures({
        signatures: [
          { accountId: 'eip155:01:0x1111111111111111111111111111111111111111', hash: new Uint8Array(32) },
          { accountId: 'cosmos:1:0x1111111111111111111111111111111111111111', hash: new Uint8Array(32) },
        ],
      })
      expect(r.responses.map((x) => [x.isValid, x.error?.slice(0, 9)])).toEqual([
        [false, 'IDENT-060'],
        [false, 'IDENT-060'],
      ])
    },
  )

  it('IDENT-061: a well-formed signature that no route can judge answers UNAVAILABLE, never "not valid"', async () => {
    const e = await refusal(
      identity('grpc').verifySmartContractWalletSignatures({
        signatures: [
          {
            accountId: 'eip155:1:0x1111111111111111111111111111111111111111',
            blockNumber: 5n,
            hash: new Uint8Array(32),
            signature: new Uint8Array(65),
          },
        ],
      }),
    )
    expect(e?.code).toBe(Code.Unavailable)
    expect(e?.rawMessage).toContain('IDENT-061')
  })
})
