import { describe, expect, it } from 'vitest'
import { bytesToHex, ethAddressFromPrivateKey, hexToBytes, signEip191 } from '../../../crypto'
import { checksumAddress } from '../../../signing/address'
import { generateEthereumKey, generateInstallationKey } from '../../../signing/local-keys'
import { testKey } from '../../../signing/testkit'
import { localKeyAppSigner, walletAppSigners } from './app-signers'
import { checkSigner, checkText } from './check'

const NOW = new Date('2026-12-01T12:00:00Z')

function walletSigningWith(asked: Uint8Array, signs: Uint8Array) {
  return walletAppSigners([
    {
      accounts: [checksumAddress(ethAddressFromPrivateKey(asked))],
      connector: {
        id: 'w',
        name: 'W',
        getProvider: async () => ({
          request: async ({ params }: { params: [string] }) =>
            `0x${bytesToHex(signEip191(signs, hexToBytes(params[0])))}`,
        }),
      },
    },
  ])[0]!
}

describe('checkText', () => {
  it('is not an identity update signature text (it cannot approve anything)', () => {
    expect(checkText(NOW).startsWith('XMTP : Authenticate to inbox')).toBe(false)
    expect(checkText(NOW)).toContain('Time: 2026-12-01T12:00:00.000Z')
  })
})

describe('checkSigner', () => {
  it('passes for local Ethereum and installation keys, naming the kind and the signer', async () => {
    const eth = localKeyAppSigner(generateEthereumKey())
    expect(await checkSigner(eth, NOW)).toMatchObject({ ok: true, kind: 'erc_191', signer: eth.identifier.text })
    const inst = localKeyAppSigner(generateInstallationKey())
    expect(await checkSigner(inst, NOW)).toMatchObject({
      ok: true,
      kind: 'installation_key',
      signer: inst.identifier.text,
    })
  })

  it('names a wallet that signed with another account (wrong_signer)', async () => {
    const w = walletSigningWith(testKey('asked'), testKey('other'))
    expect(await checkSigner(w, NOW)).toEqual({
      ok: false,
      text: checkText(NOW),
      code: 'wrong_signer',
      message: `the signature verifies, but to ethereum ${ethAddressFromPrivateKey(testKey('other'))}, not to ${ethAddressFromPrivateKey(testKey('asked'))}`,
    })
    expect(await checkSigner(walletSigningWith(testKey('asked'), testKey('asked')), NOW)).toMatchObject({ ok: true })
  })

  it('reports a rejected prompt and a signature that does not verify', async () => {
    const eth = localKeyAppSigner(generateEthereumKey())
    const rejecting = {
      ...eth,
      signer: { ...eth.signer, sign: async () => Promise.reject(Object.assign(new Error('no'), { code: 4001 })) },
    }
    expect(await checkSigner(rejecting, NOW)).toMatchObject({ ok: false, code: 'user_rejected' })
    const garbage = {
      ...eth,
      signer: {
        ...eth.signer,
        sign: async () => ({ kind: 'erc_191' as const, bytes: new Uint8Array([...new Uint8Array(64).fill(1), 5]) }),
      },
    }
    expect(await checkSigner(garbage, NOW)).toMatchObject({ ok: false, code: 'invalid_signature' })
    // Well-formed bytes by another key recover to someone else: wrong_signer, not invalid.
    const other = localKeyAppSigner(generateEthereumKey())
    expect(await checkSigner({ ...eth, signer: other.signer }, NOW)).toMatchObject({ ok: false, code: 'wrong_signer' })
  })
})
