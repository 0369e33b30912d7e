/** The "add a smart contract wallet" form: what it holds, and checked, every problem naming its field. */
import type { Hex } from 'viem'
import type { ChainRoute } from '../../../chain/routes'
import type { AppSigner } from '../../model/app-signer'
import { CHAIN_ID, OWNER_ID, ownerAddress, type SmartWalletRecord, smartWalletId } from './smart-wallet-record'

/** What the "add a smart contract wallet" form holds, as typed. */
export interface SmartWalletForm {
  /** Decimal chain id of one of the configured routes. */
  readonly chainId: string
  /** The owner's AppSigner id. */
  readonly owner: string
  readonly mode: 'deployed' | 'counterfactual'
  /** The wallet address (mode deployed). */
  readonly address: string
  /** The factory and salt (mode counterfactual). */
  readonly factory: string
  readonly salt: string
  readonly label: string
}

/** The form, checked: every problem names its field. */
export type ParsedSmartWalletForm =
  | {
      readonly ok: true
      readonly chainId: string
      readonly route: ChainRoute
      readonly owner: string
      readonly label: string
      readonly wallet:
        | { readonly mode: 'deployed'; readonly address: string }
        | { readonly mode: 'counterfactual'; readonly factory: Hex; readonly salt: Hex }
    }
  | { readonly ok: false; readonly problems: readonly string[] }

/** A salt as typed: a decimal whole number or 0x + 64 hex digits; as the factory's 32-byte word. */
export function parseSalt(text: string): Hex | { readonly problem: string } {
  const t = text.trim()
  if (t === '') return { problem: 'the salt is empty: a decimal whole number (e.g. 1) or 0x + 64 hex digits' }
  if (/^[0-9]+$/.test(t)) {
    const n = BigInt(t)
    if (n >= 1n << 256n) return { problem: `salt ${t} does not fit in 32 bytes` }
    return `0x${n.toString(16).padStart(64, '0')}` as Hex
  }
  if (/^0x[0-9a-fA-F]{64}$/.test(t)) return t.toLowerCase() as Hex
  return { problem: `salt ${JSON.stringify(t)} is neither a decimal whole number nor 0x + 64 hex digits` }
}

function parseAddress(what: string, text: string): string | { readonly problem: string } {
  const t = text.trim()
  if (t === '') return { problem: `the ${what} is empty: 0x + 40 hex digits` }
  if (!/^0x[0-9a-fA-F]{40}$/.test(t)) return { problem: `the ${what} ${JSON.stringify(t)} is not 0x + 40 hex digits` }
  return t.toLowerCase()
}

/**
 * Checks the form against the configured routes, the owners available now and the
 * wallets already kept. A chain with no route is refused here: it could not sign.
 */
export function parseSmartWalletForm(
  form: SmartWalletForm,
  ctx: {
    readonly routes: ReadonlyMap<bigint, string>
    readonly owners: readonly Pick<AppSigner, 'id'>[]
    readonly kept: readonly Pick<SmartWalletRecord, 'id'>[]
  },
): ParsedSmartWalletForm {
  const problems: string[] = []
  const chainId = form.chainId.trim().replace(/^eip155:/, '')
  let route: ChainRoute | null = null
  if (chainId === '') problems.push('no chain chosen: add a chain route (Settings › Chain routes) and choose it')
  else if (!CHAIN_ID.test(chainId))
    problems.push(`chain id ${JSON.stringify(chainId)} is not a decimal number with no sign and no leading zero`)
  else {
    const url = ctx.routes.get(BigInt(chainId))
    if (url === undefined)
      problems.push(
        `no chain route for eip155:${chainId}: add one under Settings › Chain routes first (IDENT-061: without it the wallet cannot sign or be checked)`,
      )
    else route = { chainId: BigInt(chainId), url }
  }
  if (form.owner === '')
    problems.push(
      'no owner chosen: the owner is a local Ethereum key or a connected wallet account that signs for the wallet',
    )
  else if (!OWNER_ID.test(form.owner))
    problems.push(`owner ${JSON.stringify(form.owner)} is not a local Ethereum key or a wallet account`)
  else if (!ctx.owners.some((o) => o.id === form.owner))
    problems.push(
      `owner ${ownerAddress(form.owner)} is not available in this browser now (connect its wallet or import its key)`,
    )
  let wallet: Extract<ParsedSmartWalletForm, { ok: true }>['wallet'] | null = null
  if (form.mode === 'deployed') {
    const a = parseAddress('wallet address', form.address)
    if (typeof a !== 'string') problems.push(a.problem)
    else {
      wallet = { mode: 'deployed', address: a }
      if (route && ctx.kept.some((k) => k.id === smartWalletId(chainId, a)))
        problems.push(`smart wallet ${a} on eip155:${chainId} is already kept here`)
    }
  } else {
    const f = parseAddress('factory address', form.factory)
    const s = parseSalt(form.salt)
    if (typeof f !== 'string') problems.push(f.problem)
    if (typeof s !== 'string') problems.push(s.problem)
    if (typeof f === 'string' && typeof s === 'string') wallet = { mode: 'counterfactual', factory: f as Hex, salt: s }
  }
  if (form.label.length > 64) problems.push(`the label is ${form.label.length} characters; 64 at most`)
  if (problems.length || !route || !wallet) return { ok: false, problems }
  return { ok: true, chainId, route, owner: form.owner, label: form.label.trim(), wallet }
}
