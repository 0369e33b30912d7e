/**
 * Smart contract wallets as signers (issue 5): a wallet on a configured chain route,
 * signed for by one of this browser's erc_191 signers (a local Ethereum key or a
 * connected wallet account), its signature an erc_6492 signature made by
 * src/chain/smart-wallet-signer.ts (the head block as block_number, ERC-6492 wrapped while
 * the wallet has no code, judged on the chain before it is returned, IDENT-060).
 *
 *   SmartWalletRecord      what is kept in IndexedDB: public data only (chain id, address,
 *                          owner's AppSigner id, the ERC-6492 deployment), never a key
 *   checkSmartWalletRecord a record read back, or StorageError('bad_record')
 *   parseSmartWalletForm   what the panel's form says, or the problems naming each field
 *   smartWalletAppSigner   the AppSigner of a record, given the route and the owner found
 *                          now; signing says plainly when either is missing
 *   parseDemoSmartWallets  VITE_DEMO_SMART_WALLETS of `npm start` (public demo data)
 *
 * Pure: no React, no IndexedDB; the chain is reached only when signing.
 */
import type { Hex } from 'viem'
import type { AppSigner } from '../../model/app-signer'
import { shortId } from '../../ui/format'
import {
  chainSmartWalletSigner,
  type ChainSmartWalletSigner,
  type ChainSmartWalletSignerOptions,
  type SmartWalletSigning,
} from '../../../chain/smart-wallet-signer'
import type { ChainRoute } from '../../../chain/routes'
import { SignerError } from '../../../signing/errors'
import type { Signer } from '../../../signing/signers'
import { StorageError } from '../../../storage/errors'
import { CodedError } from '../../../crypto/errors'

/** The object store of the signers' database (./idb.ts) holding these records. */
export const SMART_WALLETS_STORE = 'smart-wallets'

/** The largest chain id a viem client can address (its chain ids are JavaScript numbers). */
const MAX_CHAIN_ID = BigInt(Number.MAX_SAFE_INTEGER)
const ADDRESS = /^0x[0-9a-f]{40}$/
const CHAIN_ID = /^(0|[1-9][0-9]*)$/
const HEX = /^0x(?:[0-9a-f]{2})*$/
const SALT = /^0x[0-9a-f]{64}$/
/** Owner AppSigner ids: a local Ethereum key or a connected wallet account. */
const OWNER_ID = /^(local-ethereum|wallet):0x[0-9a-f]{40}$/

/** How a counterfactual wallet is deployed: the validator calls `factory` with `factoryData` (ERC-6492). */
interface SmartWalletDeployment {
  readonly factory: string
  readonly factoryData: string
  /** The CREATE2 salt the address was computed with (display only). */
  readonly salt: string
}

export interface SmartWalletRecord {
  /** `smart-wallet:eip155:<chain id>:<address>`, the AppSigner id. */
  readonly id: string
  /** Decimal eip155 chain id. */
  readonly chainId: string
  /** Lowercase 0x address of the wallet contract. */
  readonly address: string
  /** The owner's AppSigner id: `local-ethereum:<address>` or `wallet:<address>`. */
  readonly owner: string
  readonly label: string
  /** Set for a wallet signed for before (or without) deployment. */
  readonly deployment: SmartWalletDeployment | null
  readonly createdAt: number
}

export const smartWalletId = (chainId: string, address: string): string =>
  `smart-wallet:eip155:${chainId}:${address.toLowerCase()}`

/** The owner's address from its AppSigner id. */
export const ownerAddress = (ownerId: string): string => ownerId.slice(ownerId.indexOf(':') + 1)

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v)

const bad = (id: unknown, what: string) =>
  new StorageError(
    'bad_record',
    `stored ${SMART_WALLETS_STORE} record ${typeof id === 'string' ? JSON.stringify(id) : '(no id)'}: ${what}`,
  )

/** A SmartWalletRecord as written here, or StorageError('bad_record') naming the field. */
export function checkSmartWalletRecord(v: unknown): SmartWalletRecord {
  if (!isObject(v)) throw bad(undefined, 'is not an object')
  const { id, chainId, address, owner, label, deployment, createdAt } = v
  if (typeof id !== 'string') throw bad(id, 'id is not a string')
  if (typeof chainId !== 'string' || !CHAIN_ID.test(chainId) || BigInt(chainId) > MAX_CHAIN_ID)
    throw bad(id, 'chainId is not a decimal chain id up to 2^53 - 1')
  if (typeof address !== 'string' || !ADDRESS.test(address)) throw bad(id, 'address is not a lowercase 0x address')
  if (id !== smartWalletId(chainId, address))
    throw bad(id, `id does not match its chain and address (expected ${smartWalletId(chainId, address)})`)
  if (typeof owner !== 'string' || !OWNER_ID.test(owner))
    throw bad(id, 'owner is not a local-ethereum: or wallet: signer id')
  if (typeof label !== 'string') throw bad(id, 'label is not a string')
  if (typeof createdAt !== 'number' || !Number.isFinite(createdAt)) throw bad(id, 'createdAt is not a number')
  if (deployment !== null) {
    if (!isObject(deployment)) throw bad(id, 'deployment is neither null nor an object')
    const { factory, factoryData, salt } = deployment
    if (typeof factory !== 'string' || !ADDRESS.test(factory))
      throw bad(id, 'deployment.factory is not a lowercase 0x address')
    if (typeof factoryData !== 'string' || !HEX.test(factoryData) || factoryData === '0x')
      throw bad(id, 'deployment.factoryData is not lowercase hex calldata')
    if (typeof salt !== 'string' || !SALT.test(salt)) throw bad(id, 'deployment.salt is not 32 bytes of lowercase hex')
    return { id, chainId, address, owner, label, deployment: { factory, factoryData, salt }, createdAt }
  }
  return { id, chainId, address, owner, label, deployment: null, createdAt }
}

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

// ---- the panel's form ---------------------------------------------------------------------

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

// ---- the AppSigner ------------------------------------------------------------------------

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

// ---- the demo of `npm start` ----------------------------------------------------------------

interface DemoSmartWallet {
  readonly name: string
  readonly address: string
  /** The owner's address (part of the CREATE2 address). */
  readonly owner: string
  /** The owner's private key: a PUBLIC demo key (SHA-256 of a published label); never fund it. */
  readonly ownerKey: string
  readonly factory: string
  readonly salt: string
  readonly factoryData: string
}

export interface DemoSmartWallets {
  readonly chainId: string
  readonly wallets: readonly DemoSmartWallet[]
}

/**
 * VITE_DEMO_SMART_WALLETS (scripts/start.mjs): `{ chainId, wallets: [{ name, address,
 * owner, ownerKey, factory, salt, factoryData }] }`. Returns null when absent; throws an
 * Error naming the field when malformed.
 */
export function parseDemoSmartWallets(text: string | undefined): DemoSmartWallets | null {
  if (!text) return null
  let v: unknown
  try {
    v = JSON.parse(text)
  } catch (e) {
    throw new Error(`VITE_DEMO_SMART_WALLETS is not JSON: ${e instanceof Error ? e.message : String(e)}`)
  }
  if (!isObject(v)) throw new Error('VITE_DEMO_SMART_WALLETS is not an object')
  const { chainId, wallets } = v
  if (typeof chainId !== 'string' || !CHAIN_ID.test(chainId))
    throw new Error('VITE_DEMO_SMART_WALLETS.chainId is not a decimal chain id')
  if (!Array.isArray(wallets) || wallets.length === 0)
    throw new Error('VITE_DEMO_SMART_WALLETS.wallets is not a non-empty list')
  const lower = (x: unknown) => (typeof x === 'string' ? x.toLowerCase() : x)
  const out = wallets.map((w: unknown, i): DemoSmartWallet => {
    const at = `VITE_DEMO_SMART_WALLETS.wallets[${i}]`
    if (!isObject(w)) throw new Error(`${at} is not an object`)
    const [name, address, owner, ownerKey, factory, salt, factoryData] = [
      w.name,
      lower(w.address),
      lower(w.owner),
      lower(w.ownerKey),
      lower(w.factory),
      lower(w.salt),
      lower(w.factoryData),
    ]
    if (typeof name !== 'string' || name === '') throw new Error(`${at}.name is not a name`)
    for (const [k, x] of [
      ['address', address],
      ['owner', owner],
      ['factory', factory],
    ] as const)
      if (typeof x !== 'string' || !ADDRESS.test(x)) throw new Error(`${at}.${k} is not 0x + 40 hex digits`)
    if (typeof ownerKey !== 'string' || !SALT.test(ownerKey))
      throw new Error(`${at}.ownerKey is not 0x + 64 hex digits`)
    if (typeof salt !== 'string' || !SALT.test(salt)) throw new Error(`${at}.salt is not 0x + 64 hex digits`)
    if (typeof factoryData !== 'string' || !HEX.test(factoryData) || factoryData === '0x')
      throw new Error(`${at}.factoryData is not hex calldata`)
    return {
      name,
      address: address as string,
      owner: owner as string,
      ownerKey,
      factory: factory as string,
      salt,
      factoryData,
    }
  })
  return { chainId, wallets: out }
}

/** The label the demo owner keys are imported under. */
export const DEMO_OWNER_LABEL = 'demo owner (public key, never fund it)'

/**
 * Imports each demo owner key as a local Ethereum key labelled DEMO_OWNER_LABEL (or uses
 * the one already kept), checks it is the wallet's owner, and keeps each demo wallet not
 * kept yet, with its ERC-6492 deployment. Resolves a sentence saying what was added.
 */
/** The part of the signer vault (./vault.ts) the demo import uses. */
export interface DemoWalletVault {
  importEthereumKey(input: string, label: string): Promise<AppSigner>
  getSnapshot(): { readonly signers: readonly AppSigner[]; readonly smartWallets: readonly SmartWalletRecord[] }
  addSmartWallet(record: SmartWalletRecord): Promise<SmartWalletRecord>
}

export async function addDemoSmartWallets(
  demo: DemoSmartWallets,
  vault: DemoWalletVault,
  now = Date.now(),
): Promise<string> {
  const added: string[] = []
  for (const w of demo.wallets) {
    let owner: AppSigner
    try {
      owner = await vault.importEthereumKey(w.ownerKey, DEMO_OWNER_LABEL)
    } catch (e) {
      const kept = vault
        .getSnapshot()
        .signers.find((x) => x.source === 'local-ethereum' && x.identifier.text === w.owner)
      if (!kept) throw e
      owner = kept
    }
    if (owner.identifier.text !== w.owner) {
      throw new SmartWalletSetupError(
        'demo',
        `the demo owner key of the ${w.name} is the key of ${owner.identifier.text}, not of the wallet's owner ${w.owner}: VITE_DEMO_SMART_WALLETS is inconsistent`,
      )
    }
    const id = smartWalletId(demo.chainId, w.address)
    if (vault.getSnapshot().smartWallets.some((r) => r.id === id)) continue
    await vault.addSmartWallet({
      id,
      chainId: demo.chainId,
      address: w.address,
      owner: owner.id,
      label: `demo ${w.name}`,
      deployment: { factory: w.factory, factoryData: w.factoryData, salt: w.salt },
      createdAt: now,
    })
    added.push(`demo ${w.name} ${w.address}`)
  }
  return added.length
    ? `Added ${added.join(' and ')}, owned by public demo keys.`
    : 'The demo smart wallets are already kept here.'
}
