import { describe, expect, it } from 'vitest'
import type {
  ChainSmartWalletSigner,
  ChainSmartWalletSignerOptions,
  SmartWalletSigning,
} from '../../../chain/smart-wallet-signer'
import type { SignerError } from '../../../signing/errors'
import { signerChainId } from '../../../signing/roles'
import type { AppSigner } from '../../model/app-signer'
import { describeSigning, smartWalletAppSigner, smartWalletLabel } from './smart-wallets'
import { FACTORY, owner, record, SALT1, SIGNING, WALLET } from './smart-wallets.testkit'

/** A chain signer stand-in that records what it was built with. */
function fakeMake() {
  const built: ChainSmartWalletSignerOptions[] = []
  const make = (o: ChainSmartWalletSignerOptions): ChainSmartWalletSigner => {
    built.push(o)
    let last: SmartWalletSigning | null = null
    return {
      kind: 'erc_6492',
      identifier: { kind: 'ethereum', text: o.address },
      chainId: o.route.chainId,
      address: o.address as `0x${string}`,
      lastSigning: () => last,
      sign: async () => {
        last = SIGNING
        return { kind: 'erc_6492', accountId: SIGNING.accountId, blockNumber: 7n, bytes: new Uint8Array([2]) } as never
      },
    }
  }
  return { built, make }
}

async function signError(s: AppSigner): Promise<SignerError> {
  try {
    await s.signer.sign('text')
  } catch (e) {
    return e as SignerError
  }
  throw new Error('signed')
}

describe('smartWalletAppSigner', () => {
  it('is an erc_6492 smart-wallet AppSigner for the wallet address, labelled with chain and address', () => {
    const s = smartWalletAppSigner(record(), { route: null, owner })
    expect(s).toMatchObject({
      id: `smart-wallet:eip155:31337:${WALLET}`,
      source: 'smart-wallet',
      identifier: { kind: 'ethereum', text: WALLET },
      interactive: false,
    })
    expect(s.signer.kind).toBe('erc_6492')
    expect(signerChainId(s.signer)).toBe(31337n) // the dry run predicts IDENT-046 from it
    expect(s.label).toBe(smartWalletLabel(record()))
    expect(s.label).toBe('smart wallet ‘main’ eip155:31337 0xababab…abab')
  })
  it('with no route, signing fails as unverifiable (IDENT-061) and names the chain', async () => {
    const e = await signError(smartWalletAppSigner(record(), { route: null, owner }))
    expect(e.code).toBe('unverifiable')
    expect(e.message).toMatch(/^IDENT-061: no chain route for eip155:31337/)
  })
  it('with the owner gone, signing fails as no_signer and says how to bring it back', async () => {
    const route = { chainId: 31337n, url: 'http://127.0.0.1:8545' }
    const local = await signError(smartWalletAppSigner(record(), { route, owner: null }))
    expect(local.code).toBe('no_signer')
    expect(local.message).toContain(`the local key ${owner.identifier.text} is no longer kept here`)
    const wallet = await signError(
      smartWalletAppSigner(record({ owner: `wallet:${owner.identifier.text}` }), { route, owner: null }),
    )
    expect(wallet.message).toContain('connect the browser wallet account')
  })
  it('signs through the chain signer with the owner and the deployment, and reports what it made', async () => {
    const { built, make } = fakeMake()
    const seen: [string, SmartWalletSigning][] = []
    const deployment = { factory: FACTORY, factoryData: '0xdeadbeef', salt: SALT1 }
    const s = smartWalletAppSigner(record({ deployment }), {
      route: { chainId: 31337n, url: 'http://x' },
      owner,
      make,
      onSigned: (id, f) => seen.push([id, f]),
    })
    const sig = await s.signer.sign('text')
    expect(sig.kind).toBe('erc_6492')
    expect(built).toHaveLength(1)
    expect(built[0]).toMatchObject({
      address: WALLET,
      owner: owner.signer,
      deployment: { factory: FACTORY, factoryData: '0xdeadbeef' },
    })
    expect(seen).toEqual([[record().id, SIGNING]])
    expect((s.signer as unknown as { lastSigning(): unknown }).lastSigning()).toBe(SIGNING)
    await s.signer.sign('again')
    expect(built).toHaveLength(1) // one chain signer per AppSigner
  })
})

describe('describeSigning', () => {
  it('says the block, its time, and deployed or wrapped', () => {
    expect(describeSigning(SIGNING)).toBe(
      'block 7 at 2025-12-02T00:00:00Z; not deployed yet: ERC-6492 wrapped with its factory deployment',
    )
    expect(describeSigning({ ...SIGNING, deployed: true, wrapped: false })).toMatch(
      /deployed: ERC-1271 signature, not wrapped$/,
    )
  })
})
