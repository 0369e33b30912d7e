import { recoverMessageAddress, stringToHex } from 'viem'
import { describe, expect, it } from 'vitest'
import { bytesToHex, ethAddressFromPrivateKey, hexToBytes, signEip191, utf8 } from '../../../crypto'
import { SignedText, verifySignature } from '../../../core/verify/signature'
import { checksumAddress } from '../../../signing/address'
import { generateEthereumKey, generateInstallationKey } from '../../../signing/local-keys'
import { testKey } from '../../../signing/testkit'
import type { AppSigner } from '../../model/app-signer'
import { localKeyAppSigner, orderSigners, walletAppSigners, type WalletConnectionLike } from './app-signers'

const TEXT =
  'XMTP : Authenticate to inbox\n\nInbox ID: abc\n\n- Claim handle\n  (Handle: é ✓ 🚀)\n\nFor more info: https://xmtp.org/signatures'

function fakeWallet(name: string, keys: Uint8Array[]) {
  const calls: { method: string; params?: unknown }[] = []
  const provider = {
    async request({ method, params }: { method: string; params?: unknown }) {
      calls.push({ method, params })
      if (method !== 'personal_sign') throw Object.assign(new Error('unsupported'), { code: 4200 })
      const [hex, address] = params as [string, string]
      const key = keys.find((k) => ethAddressFromPrivateKey(k) === address.toLowerCase())!
      return `0x${bytesToHex(signEip191(key, hexToBytes(hex)))}`
    },
  }
  const connection: WalletConnectionLike = {
    accounts: keys.map((k) => checksumAddress(ethAddressFromPrivateKey(k))),
    connector: { id: `dev.${name}`, name, getProvider: async () => provider },
  }
  return { calls, connection }
}

describe('walletAppSigners', () => {
  it('gives each connected account an erc_191 signer that personal_signs through the connector provider', async () => {
    const k1 = testKey('w1')
    const w = fakeWallet('E2E Wallet', [k1])
    const [s] = walletAppSigners([w.connection])
    const address = ethAddressFromPrivateKey(k1)
    expect(s).toMatchObject({
      id: `wallet:${address}`,
      source: 'wallet',
      interactive: true,
      identifier: { kind: 'ethereum', text: address },
    })
    expect(s!.label).toBe(`E2E Wallet ${address.slice(0, 8)}…${address.slice(-4)}`)
    const sig = await s!.signer.sign(TEXT)
    expect(w.calls).toEqual([{ method: 'personal_sign', params: [stringToHex(TEXT), checksumAddress(address)] }])
    if (sig.kind !== 'erc_191') throw new Error(sig.kind)
    expect(
      (await recoverMessageAddress({ message: TEXT, signature: `0x${bytesToHex(sig.bytes)}` })).toLowerCase(),
    ).toBe(address)
    expect(await verifySignature(sig, new SignedText(TEXT, utf8(TEXT)), {})).toMatchObject({ verdict: 'valid' })
  })

  it('lists an account once across wallets, skips non-addresses, and keeps the same object per connector and account', () => {
    const k1 = testKey('w2')
    const k2 = testKey('w3')
    const a = fakeWallet('A', [k1, k2])
    const b = fakeWallet('B', [k2])
    const odd: WalletConnectionLike = { ...b.connection, accounts: ['not-an-address'] }
    const cache = new Map<string, AppSigner>()
    const first = walletAppSigners([a.connection, b.connection, odd], cache)
    expect(first.map((s) => s.label.split(' ')[0])).toEqual(['A', 'A'])
    expect(walletAppSigners([a.connection], cache)[0]).toBe(first[0])
  })

  it('fails with signer_error when the connector has no provider', async () => {
    const k = testKey('w4')
    const c: WalletConnectionLike = {
      accounts: [checksumAddress(ethAddressFromPrivateKey(k))],
      connector: { id: 'x', name: 'Gone Wallet', getProvider: async () => undefined },
    }
    await expect(walletAppSigners([c])[0]!.signer.sign(TEXT)).rejects.toMatchObject({
      name: 'SignerError',
      code: 'signer_error',
      message: 'Gone Wallet offers no EIP-1193 provider (was the wallet removed?)',
    })
  })

  it('maps a rejected personal_sign (4001) to user_rejected', async () => {
    const k = testKey('w5')
    const c: WalletConnectionLike = {
      accounts: [ethAddressFromPrivateKey(k)],
      connector: {
        id: 'x',
        name: 'W',
        getProvider: async () => ({
          request: async () => Promise.reject(Object.assign(new Error('User rejected the request.'), { code: 4001 })),
        }),
      },
    }
    await expect(walletAppSigners([c])[0]!.signer.sign(TEXT)).rejects.toMatchObject({ code: 'user_rejected' })
  })
})

describe('orderSigners', () => {
  it('puts wallets first, then passkeys, local Ethereum keys, installation keys, keeping order within a source and dropping repeats', () => {
    const e1 = localKeyAppSigner(generateEthereumKey())
    const i1 = localKeyAppSigner(generateInstallationKey())
    const e2 = localKeyAppSigner(generateEthereumKey())
    const wallet = walletAppSigners([fakeWallet('W', [testKey('w6')]).connection])[0]!
    const passkey = { ...e1, id: 'passkey:04aa', source: 'passkey' as const }
    expect(orderSigners([[i1, e1, e2], [passkey], [wallet, e1]]).map((s) => s.id)).toEqual([
      wallet.id,
      passkey.id,
      e1.id,
      e2.id,
      i1.id,
    ])
  })
})
