import { readFileSync } from 'node:fs'
import { describe, expect, it } from 'vitest'
import { syntheticBundle, syntheticLog } from '../../../bench/synthetic-log'
import { FakeSmartWalletVerifier } from '../../../test/fixtures/fake-smart-wallet'
import { readLogs } from '../decode/logs'
import { readPostgresCsvLog } from '../decode/pg-csv'
import { replay } from '../replay'
import type { InboxLog } from '../types'
import { base64urlNoPad, bytesToHex, concatBytes, utf8 } from '../../crypto/bytes'
import { ethAddressFromPrivateKey, personalMessageHash, signEip191 } from '../../crypto/eip191'
import { ed25519PublicKey, IDENTITY_UPDATE_CONTEXT, signEd25519ph } from '../../crypto/ed25519ph'
import { loadFastBackend } from '../../crypto/backend'
import { nobleBackend } from '../../crypto/noble-backend'
import { sha256 } from '../../crypto/hash'
import { p256PublicKey, signP256Der } from '../../crypto/p256'
import { ChainUnreachableError } from '../errors'
import type { WireSignature } from '../types'
import type { SmartWalletVerifier } from './port'
import { parseEip155AccountId, SignedText, verifySignature } from './signature'

const text = 'XMTP : Authenticate to inbox\n\nInbox ID: test'
const signed = () => new SignedText(text, utf8(text))
const ethKey = new Uint8Array(32).fill(0x11)
const edKey = new Uint8Array(32).fill(0x22)
const pKey = new Uint8Array(32).fill(0x33)

function passkeySig(opts: { challenge?: string; highS?: boolean; clientData?: string } = {}): WireSignature {
  const clientDataJson = utf8(
    opts.clientData ??
      JSON.stringify({
        type: 'webauthn.get',
        challenge: opts.challenge ?? base64urlNoPad(utf8(text)),
        origin: 'http://localhost:5173',
      }),
  )
  const authenticatorData = concatBytes(sha256(utf8('localhost')), Uint8Array.of(5, 0, 0, 0, 1))
  const signature = signP256Der(pKey, concatBytes(authenticatorData, sha256(clientDataJson)), {
    highS: opts.highS ?? false,
  })
  return { kind: 'passkey', publicKey: p256PublicKey(pKey), signature, authenticatorData, clientDataJson }
}

// Every vector runs against both crypto backends: the verdicts must not depend on the backend.
const BACKENDS = [
  ['noble', nobleBackend],
  ['fast', await loadFastBackend()],
] as const

describe.each(BACKENDS)('verifySignature — %s backend', (_name, crypto) => {
  it('IDENT-030: erc_191 recovers the signer from the EIP-191 hash, with recovery bytes 0, 1, 27 and 28', async () => {
    const bytes = signEip191(ethKey, utf8(text))
    const keys = new Set<string>()
    for (const v of [bytes[64]! - 27, bytes[64]!]) {
      const b = bytes.slice()
      b[64] = v
      const r = await verifySignature({ kind: 'erc_191', bytes: b }, signed(), { crypto })
      expect(r.verdict).toBe('valid')
      expect(r.signer).toEqual({ kind: 'ethereum', text: ethAddressFromPrivateKey(ethKey) })
      expect(r.chainId).toBeNull()
      keys.add(r.replayKey!)
    }
    expect(keys.size).toBe(1) // IDENT-050: the recovery byte is canonicalised
  })

  it('IDENT-050: an erc_191 signature re-encoded with the other s half has the same replay key', async () => {
    const bytes = signEip191(ethKey, utf8(text))
    const n = 0xfffffffffffffffffffffffffffffffebaaedce6af48a03bbfd25e8cd0364141n
    const s = BigInt(`0x${bytesToHex(bytes.slice(32, 64))}`)
    const high = concatBytes(
      bytes.slice(0, 32),
      Uint8Array.from(
        (n - s)
          .toString(16)
          .padStart(64, '0')
          .match(/../g)!
          .map((h) => parseInt(h, 16)),
      ),
      Uint8Array.of(bytes[64]! === 27 ? 28 : 27),
    )
    const a = await verifySignature({ kind: 'erc_191', bytes }, signed(), { crypto })
    const b = await verifySignature({ kind: 'erc_191', bytes: high }, signed(), { crypto })
    expect(b.verdict).toBe('valid')
    expect(b.signer).toEqual(a.signer)
    expect(b.replayKey).toBe(a.replayKey)
  })

  it('IDENT-030: erc_191 with a bad length or recovery byte 29 is invalid under IDENT-030', async () => {
    const bytes = signEip191(ethKey, utf8(text))
    const b = bytes.slice()
    b[64] = 29
    for (const sig of [b, bytes.slice(0, 64)]) {
      const r = await verifySignature({ kind: 'erc_191', bytes: sig }, signed(), { crypto })
      expect(r).toMatchObject({ verdict: 'invalid', failRule: 'IDENT-030' })
    }
  })

  it('IDENT-030: erc_191 over another text recovers another signer (the rule compares it)', async () => {
    const r = await verifySignature({ kind: 'erc_191', bytes: signEip191(ethKey, utf8(`${text}!`)) }, signed(), {
      crypto,
    })
    expect(r.signer?.text).not.toBe(ethAddressFromPrivateKey(ethKey))
  })

  it('IDENT-030: installation_key is Ed25519ph with the context IDENTITY UPDATE SIGNATURE; the replay key is the 64 bytes', async () => {
    const bytes = signEd25519ph(edKey, utf8(text), IDENTITY_UPDATE_CONTEXT)
    const publicKey = ed25519PublicKey(edKey)
    const ok = await verifySignature({ kind: 'installation_key', bytes, publicKey }, signed(), { crypto })
    expect(ok).toMatchObject({
      verdict: 'valid',
      signer: { kind: 'installation', text: bytesToHex(publicKey) },
      replayKey: bytesToHex(bytes),
    })
    const noCtx = await verifySignature(
      { kind: 'installation_key', bytes: signEd25519ph(edKey, utf8(text), new Uint8Array(0)), publicKey },
      signed(),
      { crypto },
    )
    expect(noCtx).toMatchObject({ verdict: 'invalid', failRule: 'IDENT-030' })
    const short = await verifySignature({ kind: 'installation_key', bytes: bytes.slice(1), publicKey }, signed(), {
      crypto,
    })
    expect(short.verdict).toBe('invalid')
  })

  it('IDENT-030: passkey binds the challenge to the text and verifies a DER P-256 signature of either s half', async () => {
    const low = await verifySignature(passkeySig(), signed(), { crypto })
    const high = await verifySignature(passkeySig({ highS: true }), signed(), { crypto })
    expect(low).toMatchObject({ verdict: 'valid', signer: { kind: 'passkey', text: bytesToHex(p256PublicKey(pKey)) } })
    expect(high.verdict).toBe('valid')
    expect(high.replayKey).toBe(low.replayKey) // IDENT-050: s canonicalised to the lower half
    expect(low.replayKey).toHaveLength(128)
  })

  it('IDENT-030: a passkey whose challenge is another text, or whose client data is not JSON, is invalid', async () => {
    expect(
      await verifySignature(passkeySig({ challenge: base64urlNoPad(utf8('other')) }), signed(), { crypto }),
    ).toMatchObject({ verdict: 'invalid', failRule: 'IDENT-030' })
    expect(await verifySignature(passkeySig({ clientData: 'not json' }), signed(), { crypto })).toMatchObject({
      verdict: 'invalid',
    })
    expect(await verifySignature(passkeySig({ clientData: '{"challenge":1}' }), signed(), { crypto })).toMatchObject({
      verdict: 'invalid',
    })
  })

  const sw = (account = `eip155:8453:0x${'ab'.repeat(20)}`): WireSignature => ({
    kind: 'erc_6492',
    accountId: account,
    blockNumber: 77n,
    signature: Uint8Array.of(1, 2, 3),
  })

  it('IDENT-060: the account id form is checked before any chain access', async () => {
    let calls = 0
    const port: SmartWalletVerifier = { verify: async () => (calls++, 'valid') }
    for (const bad of [
      `cosmos:1:0x${'ab'.repeat(20)}`,
      `eip155:08453:0x${'ab'.repeat(20)}`,
      `eip155:-1:0x${'ab'.repeat(20)}`,
      `eip155:1:0x${'ab'.repeat(19)}`,
      `eip155:1:${'ab'.repeat(20)}`,
      'eip155:1',
      `eip155:+1:0x${'ab'.repeat(20)}`,
    ]) {
      const r = await verifySignature(sw(bad), signed(), { smartWallets: port, crypto })
      expect(r, bad).toMatchObject({ verdict: 'invalid', failRule: 'IDENT-060' })
    }
    expect(calls).toBe(0)
  })

  it('IDENT-060: a valid account id names the lowercase signer and the chain; the port judges at the block over the personal hash', async () => {
    const seen: unknown[] = []
    const port: SmartWalletVerifier = { verify: async (req) => (seen.push(req), 'valid') }
    const r = await verifySignature(sw(`eip155:8453:0x${'AB'.repeat(20)}`), signed(), { smartWallets: port, crypto })
    expect(r).toMatchObject({
      verdict: 'valid',
      signer: { kind: 'ethereum', text: `0x${'ab'.repeat(20)}` },
      chainId: 8453n,
      replayKey: '010203',
    })
    expect(seen[0]).toMatchObject({ chainId: 8453n, blockNumber: 77n, hash: personalMessageHash(utf8(text)) })
    const no = await verifySignature(sw(), signed(), { smartWallets: { verify: async () => 'invalid' }, crypto })
    expect(no).toMatchObject({ verdict: 'invalid', failRule: 'IDENT-060', chainId: 8453n })
  })

  it('IDENT-061: no route, an unreachable chain or a failing call is unreachable, never invalid', async () => {
    expect(await verifySignature(sw(), signed(), { crypto })).toMatchObject({ verdict: 'unreachable', chainId: 8453n })
    const down: SmartWalletVerifier = {
      verify: async () => {
        throw new ChainUnreachableError(8453n, 'connection refused')
      },
    }
    expect(await verifySignature(sw(), signed(), { smartWallets: down, crypto })).toMatchObject({
      verdict: 'unreachable',
      reason: 'connection refused',
    })
    const odd: SmartWalletVerifier = {
      verify: async () => {
        throw new Error('boom')
      },
    }
    expect(await verifySignature(sw(), signed(), { smartWallets: odd, crypto })).toMatchObject({
      verdict: 'unreachable',
    })
  })
})

describe('parseEip155AccountId', () => {
  it('IDENT-060: accepts chain id 0 and mixed-case addresses; refuses leading zeros', () => {
    expect(parseEip155AccountId(`eip155:0:0x${'aB'.repeat(20)}`)).toMatchObject({ chainId: 0n })
    expect(typeof parseEip155AccountId(`eip155:00:0x${'ab'.repeat(20)}`)).toBe('string')
  })
})

describe('the crypto backends on whole logs', () => {
  const fixtures = JSON.parse(readFileSync(new URL('../../../test/fixtures/index.json', import.meta.url), 'utf8')) as {
    fixtures: { name: string; verifier: 'none' | 'fake'; files: { bundle: string } }[]
  }
  const logs: { name: string; log: InboxLog; fake: boolean }[] = []
  for (const f of fixtures.fixtures) {
    const text = readFileSync(new URL(`../../../test/fixtures/${f.files.bundle}`, import.meta.url), 'utf8')
    for (const log of readLogs(text, f.files.bundle)) logs.push({ name: f.name, log, fake: f.verifier === 'fake' })
  }
  const csv = readFileSync(new URL('../../../../shared/vectors/xmtpd-inbox-log.csv', import.meta.url), 'utf8')
  for (const [i, log] of readPostgresCsvLog(csv).entries())
    logs.push({ name: `real network rows, inbox ${i}`, log, fake: false })

  it('IDENT-030: every fixture, the real network rows and a mixed synthetic log replay to the same Trace under both backends', async () => {
    const [synthetic] = readLogs(syntheticBundle(await syntheticLog(48)), 'synthetic-48.json')
    logs.push({ name: 'synthetic 48 updates', log: synthetic!, fake: false })
    expect(logs.length).toBeGreaterThan(40)
    const fast = BACKENDS[1][1]
    for (const { name, log, fake } of logs) {
      const sw = fake ? { smartWallets: new FakeSmartWalletVerifier() } : {}
      const a = await replay(log, { ...sw, verifyAfterStop: true, crypto: nobleBackend })
      const b = await replay(log, { ...sw, verifyAfterStop: true, crypto: fast })
      expect(b, name).toEqual(a)
    }
  })
})
