import { inspect } from 'node:util'
import { describe, expect, it, vi } from 'vitest'
import { bytesToBase64, bytesToHex, CryptoError, ethAddressFromPrivateKey, utf8 } from '../crypto'
import { SignedText, verifySignature } from '../core/verify/signature'
import {
  createKeyStore,
  exportLocalSigningKey,
  fromRecord,
  generateEthereumKey,
  generateInstallationKey,
  importEthereumKey,
  memoryKeyBackend,
  memoryKeyStore,
  toRecord,
  type KeyRecord,
} from './local-keys'
import { testKey } from './testkit'

const SECRET = testKey('local key')
const ADDRESS = ethAddressFromPrivateKey(SECRET)
const HEX = `0x${bytesToHex(SECRET)}`
const TEXT = 'text to sign'

/** Every spelling of the secret that must never appear in output. */
const spellings = (secret: Uint8Array) => {
  const hex = bytesToHex(secret)
  return [hex, hex.toUpperCase(), bytesToBase64(secret), [...secret].join(','), [...secret].slice(0, 8).join(', ')]
}
const expectNoSecret = (out: string, secret: Uint8Array) => {
  const compact = out.replace(/\s+/g, '')
  for (const s of spellings(secret)) expect(compact).not.toContain(s.replace(/\s+/g, ''))
}

describe('importEthereumKey / exportLocalSigningKey', () => {
  it('IDENT-088: exports the private scalar as exactly 32 big-endian bytes or 0x + 64 lowercase hex, saying what it is', () => {
    const key = importEthereumKey(SECRET)
    const hex = exportLocalSigningKey(key, 'hex')
    expect(hex.value).toBe(HEX)
    expect(hex.value).toMatch(/^0x[0-9a-f]{64}$/)
    const bytes = exportLocalSigningKey(key, 'bytes')
    expect(bytes.value).toBeInstanceOf(Uint8Array)
    expect(bytes.value.length).toBe(32)
    expect(bytesToHex(bytes.value)).toBe(bytesToHex(SECRET))
    bytes.value.fill(0) // a copy: mutating it does not touch the key
    expect(exportLocalSigningKey(key, 'hex').value).toBe(HEX)
    expect(hex).toMatchObject({ what: 'ethereum-private-key', format: 'hex', identifier: ADDRESS })
    expect(hex.warning).toContain(ADDRESS)
    expect(hex.warning).toMatch(/private key/)
  })

  it('IDENT-089: imports 32 bytes, or 0x + 64 hex digits of either case, to the same Ethereum identifier', async () => {
    const forms = [
      SECRET,
      HEX,
      `0x${bytesToHex(SECRET).toUpperCase()}`,
      `0x${bytesToHex(SECRET).replace(/[a-f]/g, (c, i: number) => (i % 2 ? c.toUpperCase() : c))}`,
    ]
    const keys = forms.map((f) => importEthereumKey(f))
    for (const k of keys) expect(k.identifier).toEqual({ kind: 'ethereum', text: ADDRESS })
    const sigs = await Promise.all(keys.map((k) => k.signer().sign(TEXT)))
    for (const s of sigs) expect(s).toEqual(sigs[0])
    const v = await verifySignature(sigs[0]!, new SignedText(TEXT, utf8(TEXT)), {})
    expect(v.signer?.text).toBe(ADDRESS)
  })

  it('IDENT-089: refuses other forms, naming what is wrong', () => {
    expect(() => importEthereumKey(bytesToHex(SECRET))).toThrow(CryptoError)
    expect(() => importEthereumKey(bytesToHex(SECRET))).toThrow(/0x prefix/)
    expect(() => importEthereumKey(new Uint8Array(31))).toThrow(/32 bytes/)
    expect(() => importEthereumKey(`0x${'0'.repeat(64)}`)).toThrow(/zero/)
  })

  it('IDENT-089: the same account after a restart: stored, read back in a new store over the same records, and exported again', async () => {
    const backend = memoryKeyBackend()
    await createKeyStore(backend).put(importEthereumKey(HEX, { label: 'demo wallet', createdAt: 1 }))
    const restored = await createKeyStore(backend).get(`ethereum:${ADDRESS}`)
    expect(restored?.identifier.text).toBe(ADDRESS)
    expect(restored?.label).toBe('demo wallet')
    expect(exportLocalSigningKey(restored!, 'hex').value).toBe(HEX)
  })

  it('does not export installation keys', () => {
    expect(() => exportLocalSigningKey(generateInstallationKey(), 'hex')).toThrow(/stay in this browser/)
  })
})

describe('LocalKey redaction', () => {
  it('never prints private key material: toString, template literals, toJSON, JSON.stringify, Node inspect, console', () => {
    const key = importEthereumKey(SECRET, { label: 'demo' })
    const outputs = [
      String(key),
      `${key}`,
      key.toString(),
      JSON.stringify(key),
      JSON.stringify({ nested: [key] }),
      JSON.stringify(key.redact()),
      inspect(key),
      inspect({ nested: { key } }, { depth: 10, showHidden: true }),
      inspect(key, { showHidden: true, customInspect: true }),
      JSON.stringify(Object.entries(key)),
      JSON.stringify({ ...key }),
      Object.getOwnPropertyNames(key).join(','),
      inspect(key.signer(), { showHidden: true, depth: 10 }),
      JSON.stringify(key.signer()),
    ]
    for (const out of outputs) expectNoSecret(out, SECRET)
    // Control: the check does catch the secret where it is (the storage record).
    expect(() => expectNoSecret(inspect(toRecord(key)), SECRET)).toThrow()
    expect(String(key)).toContain(ADDRESS)
    expect(String(key)).toContain('redacted')
    expect(JSON.parse(JSON.stringify(key))).toEqual({
      id: `ethereum:${ADDRESS}`,
      kind: 'ethereum',
      identifier: ADDRESS,
      label: 'demo',
      createdAt: key.createdAt,
      privateKey: '[redacted]',
    })
    const log = vi.spyOn(console, 'log').mockImplementation(() => {})
    try {
      console.log(key, { key })
      const printed = log.mock.calls.map((args) => args.map((a) => inspect(a, { depth: 10 })).join(' ')).join('\n')
      expectNoSecret(printed, SECRET)
    } finally {
      log.mockRestore()
    }
  })

  it('redacts installation keys too', () => {
    const key = generateInstallationKey({ label: 'this browser' })
    const secret = toRecord(key).secret
    for (const out of [String(key), JSON.stringify(key), inspect(key, { showHidden: true })])
      expectNoSecret(out, secret)
    expect(key.redact()).toMatchObject({
      kind: 'installation',
      privateKey: '[redacted]',
      identifier: key.identifier.text,
    })
  })

  it('is frozen: its identifier cannot be changed', () => {
    const key = generateEthereumKey()
    expect(Object.isFrozen(key)).toBe(true)
  })
})

describe('KeyStore', () => {
  it('lists (redacted, oldest first), gets, replaces and deletes keys', async () => {
    const store = memoryKeyStore()
    const a = generateEthereumKey({ label: 'a', createdAt: 2 })
    const b = generateInstallationKey({ label: 'b', createdAt: 1 })
    await store.put(a)
    await store.put(b)
    const list = await store.list()
    expect(list.map((k) => k.label)).toEqual(['b', 'a'])
    expect(list.every((k) => k.privateKey === '[redacted]')).toBe(true)
    expectNoSecret(JSON.stringify(list), toRecord(a).secret)
    expectNoSecret(JSON.stringify(list), toRecord(b).secret)
    const got = await store.get(b.id)
    expect(got?.identifier).toEqual(b.identifier)
    expect(got?.installationSigner().publicKey.length).toBe(32)
    await store.put(importEthereumKey(exportLocalSigningKey(a, 'bytes').value, { label: 'renamed', createdAt: 2 }))
    expect((await store.list()).map((k) => k.label)).toEqual(['b', 'renamed'])
    await store.delete(a.id)
    expect(await store.get(a.id)).toBeUndefined()
    expect((await store.list()).map((k) => k.id)).toEqual([b.id])
  })

  it('refuses a stored record whose identifier does not match its secret', () => {
    const r = toRecord(generateEthereumKey())
    const tampered: KeyRecord = { ...r, identifier: ADDRESS, id: `ethereum:${ADDRESS}` }
    expect(() => fromRecord(tampered)).toThrow(/does not match/)
  })

  it('keeps records as plain structured-cloneable objects (for IndexedDB)', () => {
    const r = toRecord(generateInstallationKey({ createdAt: 5 }))
    expect(structuredClone(r)).toEqual(r)
    expect(fromRecord(structuredClone(r)).id).toBe(r.id)
  })
})
