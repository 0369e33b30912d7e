/**
 * Collecting the signatures a draft needs from several signers, some interactive and slow
 * (a wallet prompt, a passkey ceremony). Each signature slot (role) has a status the UI
 * shows: `missing`, `requested`, `signed`, or `failed` with the reason. Signers are asked
 * one at a time (one prompt at a time), in the update's order; a signer that signs two
 * slots (a wallet that creates an inbox and approves its first installation) is asked once.
 *
 * Every returned signature is verified with the core (verifySignature, spec section 4)
 * against the draft's text before it is accepted: a wallet that signed with another
 * account is caught and named (`wrong_signer`). When any slot fails nothing is encoded,
 * so there is nothing to submit; `run()` again asks only the slots not yet signed
 * (after the user connected the right account, for example).
 */
import { utf8 } from '../crypto'
import { describeMember } from '../core/text/identifier'
import type { MemberId, SignatureRole, WireSignature } from '../core/types'
import type { SmartWalletVerifier } from '../core/verify/port'
import { SignedText, verifySignature } from '../core/verify/signature'
import { systemClock, withTimeout, type Clock } from './clock'
import { signDraft, type Draft, type DraftAction, type SignatureOverride, type SignedUpdate } from './draft'
import { SignerError, toSignerError, type SignerErrorCode } from './errors'
import { draftRoles, sameIdentifier, type DraftRole } from './roles'
import type { Signer, SignerKind } from './signers'

export type RoleStatus =
  | { readonly state: 'missing' }
  | { readonly state: 'requested' }
  | { readonly state: 'signed'; readonly signature: WireSignature }
  | { readonly state: 'failed'; readonly code: SignerErrorCode; readonly reason: string }

export interface RoleEntry {
  /** `${actionIndex}:${role}` */
  readonly key: string
  readonly actionIndex: number
  readonly role: SignatureRole
  /** Who is to sign this slot. */
  readonly signer: MemberId
  readonly kind: SignerKind
  readonly status: RoleStatus
}

export interface CollectOptions {
  /** Called after every status change with all roles and the one that changed. */
  readonly onStatus?: (roles: readonly RoleEntry[], changed: RoleEntry) => void
  /** How long one signer may take to answer; default no limit (a WebAuthn ceremony has its own). */
  readonly timeoutMs?: number
  readonly clock?: Clock
  /** For verifying erc_6492 signatures; without it a smart wallet signature is `unverifiable`. */
  readonly smartWallets?: SmartWalletVerifier
  /** Keep asking the other signers after one fails; default false (stop at the first failure). */
  readonly continueAfterFailure?: boolean
}

export type CollectResult =
  | { readonly ok: true; readonly roles: readonly RoleEntry[]; readonly signed: SignedUpdate }
  | {
      readonly ok: false
      readonly roles: readonly RoleEntry[]
      readonly failed: readonly RoleEntry[]
      readonly missing: readonly RoleEntry[]
    }

export interface Collector {
  /** Current status of every slot, in the update's order. */
  readonly roles: readonly RoleEntry[]
  /**
   * Asks every signer whose slots are not signed yet. `signers` replace the draft's signer
   * of any slot whose planned identifier they carry (a planned signer, or a wallet account
   * reconnected after a wrong-account failure).
   */
  run(signers?: readonly Signer[]): Promise<CollectResult>
}

/** A draft's own overrides other than raw are for negative fixtures (signDraft), not for collecting. */
function refuseTestOverrides(r: DraftRole): void {
  const o = r.override
  if (o !== undefined && !('raw' in o)) {
    throw new Error(
      `collectSignatures: action ${r.actionIndex} ${r.role} carries a test override (over/transform); sign such drafts with signDraft`,
    )
  }
}

export function createCollector(draft: Draft, signers: readonly Signer[] = [], opts: CollectOptions = {}): Collector {
  const clock = opts.clock ?? systemClock
  const slots = draftRoles(draft)
  slots.forEach(refuseTestOverrides)
  const text = new SignedText(draft.text, utf8(draft.text))
  let supplied: readonly Signer[] = signers
  const status = new Map<string, RoleStatus>(slots.map((r) => [r.key, { state: 'missing' } as RoleStatus]))

  const entry = (r: DraftRole): RoleEntry => ({
    key: r.key,
    actionIndex: r.actionIndex,
    role: r.role,
    signer: r.signer.identifier,
    kind: r.signer.kind,
    status: status.get(r.key)!,
  })
  const snapshot = (): RoleEntry[] => slots.map(entry)
  const set = (r: DraftRole, s: RoleStatus): void => {
    status.set(r.key, s)
    opts.onStatus?.(snapshot(), entry(r))
  }

  /** The signer to ask for a slot: a supplied one with the planned identifier (same kind first), else the draft's. */
  const signerFor = (r: DraftRole): Signer => {
    const same = supplied.filter((s) => sameIdentifier(s.identifier, r.signer.identifier))
    return same.find((s) => s.kind === r.signer.kind) ?? same[0] ?? r.signer
  }

  async function accept(sig: WireSignature, expected: MemberId): Promise<RoleStatus> {
    const v = await verifySignature(sig, text, opts.smartWallets ? { smartWallets: opts.smartWallets } : {})
    if (v.verdict === 'unreachable')
      return { state: 'failed', code: 'unverifiable', reason: `the signature could not be verified: ${v.reason}` }
    if (v.verdict === 'invalid' || !v.signer)
      return {
        state: 'failed',
        code: 'invalid_signature',
        reason: `the signature does not verify over the signature text: ${v.reason}`,
      }
    if (!sameIdentifier(v.signer, expected)) {
      return {
        state: 'failed',
        code: 'wrong_signer',
        reason: `signed by ${describeMember(v.signer)}, but this signature must come from ${describeMember(expected)}${v.signer.kind === 'ethereum' ? ' (the wallet signed with another account)' : ''}`,
      }
    }
    return { state: 'signed', signature: sig }
  }

  async function run(more?: readonly Signer[]): Promise<CollectResult> {
    if (more) supplied = [...more, ...supplied]
    // Group the pending slots by the signer that will be asked, in first-slot order.
    const groups = new Map<Signer, DraftRole[]>()
    for (const r of slots) {
      if (status.get(r.key)!.state === 'signed') continue
      if (r.override !== undefined && 'raw' in r.override) {
        set(r, await accept(r.override.raw, r.signer.identifier))
        continue
      }
      const s = signerFor(r)
      const g = groups.get(s)
      if (g) g.push(r)
      else groups.set(s, [r])
    }
    let failedOnce = slots.some((r) => status.get(r.key)!.state === 'failed' && r.override !== undefined)
    for (const [signer, group] of groups) {
      if (failedOnce && opts.continueAfterFailure !== true) break
      for (const r of group) set(r, { state: 'requested' })
      let result: RoleStatus
      try {
        const sig = await withTimeout(
          clock,
          opts.timeoutMs,
          signer.sign(draft.text),
          () =>
            new SignerError('timeout', `${describeMember(signer.identifier)} did not sign within ${opts.timeoutMs} ms`),
        )
        result = await accept(sig, group[0]!.signer.identifier)
      } catch (e) {
        const err = toSignerError(e)
        result = { state: 'failed', code: err.code, reason: err.message }
      }
      for (const r of group) set(r, result)
      if (result.state === 'failed') failedOnce = true
    }
    const roles = snapshot()
    const failed = roles.filter((r) => r.status.state === 'failed')
    const missing = roles.filter((r) => r.status.state !== 'signed' && r.status.state !== 'failed')
    if (failed.length > 0 || missing.length > 0) return { ok: false, roles, failed, missing }
    const signed = await signDraft(
      withSignatures(draft, (key) => (status.get(key) as Extract<RoleStatus, { state: 'signed' }>).signature),
    )
    const byKey = new Map(slots.map((r) => [r.key, r.signer.identifier]))
    return {
      ok: true,
      roles,
      signed: {
        ...signed,
        signatures: signed.signatures.map((s) => ({
          ...s,
          signer: byKey.get(`${s.actionIndex}:${s.role}`) ?? s.signer,
        })),
      },
    }
  }

  return {
    get roles() {
      return snapshot()
    },
    run,
  }
}

/** Collects every signature of `draft` (see createCollector) in one run. */
export function collectSignatures(
  draft: Draft,
  signers: readonly Signer[] = [],
  opts: CollectOptions = {},
): Promise<CollectResult> {
  return createCollector(draft, signers, opts).run()
}

/** The draft with every slot's signature given as a raw override, so signDraft only places and encodes. */
function withSignatures(draft: Draft, sigOf: (key: string) => WireSignature): Draft {
  const raw = (i: number, role: SignatureRole): SignatureOverride => ({ raw: sigOf(`${i}:${role}`) })
  // biome-ignore lint/suspicious/useIterableCallbackReturn: the switch covers every kind (tsc checks it)
  const actions = draft.actions.map((a, i): DraftAction => {
    switch (a.kind) {
      case 'create_inbox':
        return { ...a, signature: raw(i, 'initial_identifier_signature') }
      case 'add':
        return {
          ...a,
          existingSignature: raw(i, 'existing_member_signature'),
          newMemberSignature: raw(i, 'new_member_signature'),
        }
      case 'revoke':
        return { ...a, signature: raw(i, 'recovery_identifier_signature') }
      case 'change_recovery_address':
        return { ...a, signature: raw(i, 'existing_recovery_identifier_signature') }
      case 'claim_handle':
        return { ...a, signature: raw(i, 'signature') }
    }
  })
  return { ...draft, actions }
}
