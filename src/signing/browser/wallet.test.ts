import { recoverMessageAddress, stringToHex } from 'viem'
import { describe, expect, it } from 'vitest'
import { bytesToHex, ethAddressFromPrivateKey, hexToBytes, signEip191, utf8 } from '../../crypto'
import { SignedText, verifySignature } from '../../core/verify/signature'
import { checksumAddress } from '../address'
import { testKey } from '../testkit'
import { requestWalletSigners, utf8Hex, walletSigner, type Eip1193Request } from './wallet'

const KEY = testKey('wallet')
const ADDRESS = ethAddressFromPrivateKey(KEY)
const CHECKSUMMED = checksumAddress(ADDRESS)
const TEXT =
  'XMTP : Authenticate to inbox\n\nInbox ID: abc\nCurrent time: 2024-04-10T12:00:00Z\n\n- Claim handle\n  (Handle: é ✓ 🚀)  \n\nFor more info: https://xmtp.org/signatures'

/** A fake EIP-1193 provider that answers personal_sign with src/crypto signEip191. */
function fakeProvider(key = KEY) {
  const calls: { method: string; params?: unknown }[] = []
  const request: Eip1193Request = async ({ method, params }) => {
    calls.push({ method, params })
    if (method === 'eth_requestAccounts') return [checksumAddress(ethAddressFromPrivateKey(key))]
    if (method === 'personal_sign') {
      const [hex] = params as [string, string]
      return `0x${bytesToHex(signEip191(key, hexToBytes(hex)))}`
    }
    throw Object.assign(new Error('unsupported'), { code: 4200 })
  }
  return { calls, request }
}

describe('walletSigner', () => {
  it('calls personal_sign with [hex of the UTF-8 text, address] and returns an erc_191 signature the core verifies', async () => {
    const p = fakeProvider()
    const w = walletSigner(p, CHECKSUMMED)
    expect(w.identifier).toEqual({ kind: 'ethereum', text: ADDRESS }) // lowercased (IDENT-013)
    const sig = await w.sign(TEXT)
    expect(p.calls).toEqual([{ method: 'personal_sign', params: [stringToHex(TEXT), CHECKSUMMED] }])
    if (sig.kind !== 'erc_191') throw new Error('kind')
    expect(sig.bytes.length).toBe(65)
    const v = await verifySignature(sig, new SignedText(TEXT, utf8(TEXT)), {})
    expect(v).toMatchObject({ verdict: 'valid', signer: { kind: 'ethereum', text: ADDRESS } })
    expect(
      (await recoverMessageAddress({ message: TEXT, signature: `0x${bytesToHex(sig.bytes)}` })).toLowerCase(),
    ).toBe(ADDRESS)
  })

  it('utf8Hex equals viem stringToHex for multi-line UTF-8 text', () => {
    expect(utf8Hex(TEXT)).toBe(stringToHex(TEXT))
    expect(utf8Hex('')).toBe('0x')
  })

  it('maps EIP-1193 4001 to user rejected, 4100 to unauthorized', async () => {
    const rejecting: Eip1193Request = async () =>
      Promise.reject(Object.assign(new Error('User rejected the request.'), { code: 4001 }))
    await expect(walletSigner(rejecting, ADDRESS).sign(TEXT)).rejects.toMatchObject({
      name: 'SignerError',
      code: 'user_rejected',
      message: 'user rejected the request',
    })
    const nested: Eip1193Request = async () => Promise.reject({ message: 'wrapped', cause: { code: 4001 } })
    await expect(walletSigner(nested, ADDRESS).sign(TEXT)).rejects.toMatchObject({ code: 'user_rejected' })
    const unauthorized: Eip1193Request = async () =>
      Promise.reject(Object.assign(new Error('Unauthorized'), { code: 4100 }))
    await expect(walletSigner(unauthorized, ADDRESS).sign(TEXT)).rejects.toMatchObject({ code: 'unauthorized' })
  })

  it('refuses an answer that is not 65 bytes of hex', async () => {
    const short: Eip1193Request = async () => '0x1234'
    await expect(walletSigner(short, ADDRESS).sign(TEXT)).rejects.toMatchObject({ code: 'bad_response' })
  })

  it('refuses an address that is not 0x + 40 hex', () => {
    expect(() => walletSigner(fakeProvider().request, '0x1234')).toThrow(/40 hex/)
  })
})

describe('requestWalletSigners', () => {
  it('returns a signer per account from eth_requestAccounts', async () => {
    const p = fakeProvider()
    const [w] = await requestWalletSigners(p.request)
    expect(w?.identifier.text).toBe(ADDRESS)
    expect(w?.address).toBe(CHECKSUMMED)
  })
})
