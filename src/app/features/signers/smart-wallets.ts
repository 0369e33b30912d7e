/**
 * Smart contract wallets as signers (issue 5): a wallet on a configured chain route,
 * signed for by one of this browser's erc_191 signers (a local Ethereum key or a
 * connected wallet account), its signature an erc_6492 signature made by
 * src/chain/smart-wallet-signer.ts (the head block as block_number, ERC-6492 wrapped while
 * the wallet has no code, judged on the chain before it is returned, IDENT-060).
 *
 *   smart-wallet-record.ts  what is kept in IndexedDB, and its check when read back
 *   smart-wallet-form.ts    what the panel's form says, or the problems naming each field
 *   smart-wallets.ts        the AppSigner of a record, given the route and the owner found
 *                           now; signing says plainly when either is missing
 *   demo-smart-wallets.ts   VITE_DEMO_SMART_WALLETS of `npm start` (public demo data)
 *
 * Pure: no React, no IndexedDB; the chain is reached only when signing.
 */
import type { Hex } from 'viem'
import {
  chainSmartWalletSigner,
  type ChainSmartWalletSigner,
  type ChainSmartWalletSignerOptions,
  type SmartWalletSigning,
} from '../../../chain/smart-wallet-signer'
import type { ChainRoute } from '../../../chain/routes'
import { CodedError } from '../../../crypto/errors'
import { SignerError } from '../../../signing/errors'
import type { Signer } from '../../../signing/signers'
import type { AppSigner } from '../../model/app-signer'
import { shortId } from '../../ui/format'
import { ownerAddress, type SmartWalletRecord } from './smart-wallet-record'

export type SmartWalletSetupErrorCode =
  /** The form names no usable chain, owner, address, factory or salt (the message lists each). */
  | 'bad_form'
  /** The chain could not be asked (IDENT-061): the counterfactual address cannot be computed. */
  | 'unreachable'
  /** The factory did not answer addressOf(owner, salt): not a WalletFactory on that chain. */
  | 'bad_factory'
  /** The demo wallets of `npm start` cannot be added (malformed, or their owner key does not match). */
  | 'demo'

export class SmartWalletSetupError extends CodedError<SmartWalletSetupErrorCode> {
  override readonly name = 'SmartWalletSetupError'
}

const named = (label: string) => (label ? ` ‘${label}’` : '')

/** "smart wallet ‘x’ eip155:31337 0xabcd…1234": the chain and the address. */
export function smartWalletLabel(r: Pick<SmartWalletRecord, 'label' | 'chainId' | 'address'>): string {
  return `smart wallet${named(r.label)} eip155:${r.chainId} ${shortId(r.address)}`
}

export interface SmartWalletAppSignerDeps {
  /** The route of the record's chain now, or null when none is configured. */
  readonly route: ChainRoute | null
  /** The owner's AppSigner now (by id), or null when it is not available. */
  readonly owner: AppSigner | null
  /** Called after each signature, with what was made (`lastSigning()`). */
  readonly onSigned?: (id: string, signing: SmartWalletSigning) => void
  /** The chain signer factory (tests pass a fake; default chainSmartWalletSigner). */
  readonly make?: (options: ChainSmartWalletSignerOptions) => ChainSmartWalletSigner
}

/**
 * The Signer of a smart wallet AppSigner: erc_6492, stating its chain id (a ChainBoundSigner
 * of src/signing/roles.ts, so the composer's dry run can predict IDENT-046), with the last
 * signature's facts.
 */
interface SmartWalletAppSignerSigner extends Signer {
  readonly kind: 'erc_6492'
  readonly chainId: bigint
  lastSigning(): SmartWalletSigning | null
}

/**
 * The AppSigner of a kept smart wallet. It is listed even when its route or owner is
 * missing now (so the composer shows it), and signing then fails with the reason:
 * 'unverifiable' (no route, IDENT-061), 'no_signer' (the owner's wallet is disconnected
 * or its key deleted). The chain signer adds 'unverifiable' for an unreachable chain and
 * 'invalid_signature' when the wallet rejects the owner's signature (IDENT-060).
 */
export function smartWalletAppSigner(record: SmartWalletRecord, deps: SmartWalletAppSignerDeps): AppSigner {
  const make = deps.make ?? chainSmartWalletSigner
  const chain = `eip155:${record.chainId}`
  let inner: ChainSmartWalletSigner | null = null
  const innerSigner = (): ChainSmartWalletSigner => {
    if (!deps.route) {
      throw new SignerError(
        'unverifiable',
        `IDENT-061: no chain route for ${chain}, so smart wallet ${record.address} can neither sign nor be checked: add a route for ${chain} under Settings › Chain routes`,
      )
    }
    const owner = deps.owner
    if (!owner) {
      const addr = ownerAddress(record.owner)
      const how = record.owner.startsWith('wallet:')
        ? `connect the browser wallet account ${addr} again (Signers…, Browser wallets)`
        : `the local key ${addr} is no longer kept here: import it again`
      throw new SignerError('no_signer', `the owner of smart wallet ${record.address} is not available: ${how}`)
    }
    if (owner.signer.kind !== 'erc_191')
      throw new SignerError('signer_error', `the owner ${owner.label} signs ${owner.signer.kind}, not erc_191`)
    inner ??= make({
      route: deps.route,
      address: record.address,
      owner: owner.signer,
      ...(record.deployment
        ? {
            deployment: {
              factory: record.deployment.factory as Hex,
              factoryData: record.deployment.factoryData as Hex,
            },
          }
        : {}),
    })
    return inner
  }
  const signer: SmartWalletAppSignerSigner = {
    kind: 'erc_6492',
    identifier: { kind: 'ethereum', text: record.address },
    chainId: BigInt(record.chainId),
    lastSigning: () => inner?.lastSigning() ?? null,
    async sign(text) {
      const s = innerSigner()
      const sig = await s.sign(text)
      const facts = s.lastSigning()
      if (facts) deps.onSigned?.(record.id, facts)
      return sig
    },
  }
  return Object.freeze({
    id: record.id,
    source: 'smart-wallet' as const,
    label: smartWalletLabel(record),
    identifier: signer.identifier,
    signer,
    // The owner's prompt opens when the owner is a browser wallet.
    interactive: record.owner.startsWith('wallet:'),
  })
}

/** "block 12 at 2026-…Z; deployed (ERC-1271, not wrapped)" / "…; counterfactual (ERC-6492 wrapped)". */
export function describeSigning(s: SmartWalletSigning): string {
  const at = new Date(Number(s.blockTimestamp) * 1000).toISOString().replace(/\.000Z$/, 'Z')
  return `block ${s.blockNumber} at ${at}; ${s.deployed ? 'deployed: ERC-1271 signature, not wrapped' : 'not deployed yet: ERC-6492 wrapped with its factory deployment'}`
}
