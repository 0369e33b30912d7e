/**
 * Dry run: what a draft does, computed by the core against the current state, before any
 * signer is asked (design.md "draft, dry-run, sign"; issue 4).
 *
 * Signatures do not exist yet, so the dry run builds the VerifiedUpdate the core would
 * derive if every planned signer signs the draft's text validly: each check names the
 * planned signer's identifier as signer, the chain id its kind carries (erc_6492: its
 * wallet's chain; every other kind none, spec section 4) and a fresh placeholder replay
 * key, and then runs the core's applyUpdate. Whatever fails is a rule the draft itself
 * breaks (who signs what, against the state), never a cryptographic accident. A signature
 * the draft already carries (a `raw` override) is verified for real.
 *
 * Also the previews the composer shows as the user types: the revocation cascade
 * (IDENT-044), the chain a new recovery identifier gets (IDENT-045), and what a claim
 * does (IDENT-078, IDENT-080, IDENT-082).
 */
import { utf8 } from '../crypto'
import { applyUpdate, PendingUpdate, RejectedUpdate } from '../core/apply/update'
import { compareMembers, membersInOrder } from '../core/member-order'
import { handleProblem, isValidHandle, MAX_CLAIMS } from '../core/handles'
import type { RuleId } from '../core/rules'
import { describeMember, memberIdOf } from '../core/text/identifier'
import type { ActionStep, SignatureCheck } from '../core/trace'
import {
  IdentifierKindValue,
  memberKey,
  type AssociationState,
  type Member,
  type MemberId,
  type Recovery,
  type SignatureRole,
  type UnverifiedUpdate,
  type WireMemberIdentifier,
} from '../core/types'
import type { SmartWalletVerifier } from '../core/verify/port'
import { SignedText, verifySignature } from '../core/verify/signature'
import type { VerifiedUpdate } from '../core/verify/update'
import { draftText, type Draft } from './draft'
import { draftRoles, signerChainId } from './roles'
import type { Signer, SignerKind } from './signers'

export interface DryRunOptions {
  /** The sequence id the update is assumed to receive; default the state's + 1 (1 for a new inbox). */
  readonly sequenceId?: bigint
  /** Chain id of an erc_6492 signer that does not state one (see ChainBoundSigner). */
  readonly chainIdOf?: (signer: Signer) => bigint | undefined
  /** For verifying a raw erc_6492 signature the draft already carries. */
  readonly smartWallets?: SmartWalletVerifier
}

/** One signature the draft needs, as the dry run assumed it. */
interface PlannedSignature {
  readonly actionIndex: number
  readonly role: SignatureRole
  readonly kind: SignerKind
  /** Who is to sign: the planned signer's identifier. */
  readonly signer: MemberId
  readonly chainId: bigint | null
  /** 'planned': assumed valid; 'carried': a signature the draft already holds, verified. */
  readonly source: 'planned' | 'carried' | 'other-text'
}

/** What a draft changes, member by member. */
export interface DraftDiff {
  readonly created: boolean
  readonly membersAdded: readonly Member[]
  readonly membersRemoved: readonly Member[]
  readonly recovery: { readonly before: Recovery | null; readonly after: Recovery } | null
  readonly handles: { readonly before: readonly string[]; readonly after: readonly string[] } | null
  readonly displayHandle: { readonly before: string | null; readonly after: string | null } | null
  readonly claimCount: { readonly before: number; readonly after: number } | null
  /** Replay keys the update consumes (IDENT-050); in `after.seen` they are placeholders `planned:…`. */
  readonly replayKeysAdded: number
}

interface DryRunBase {
  /** The exact signature text every signer will be asked to sign (spec section 3). */
  readonly text: string
  /** Its length in UTF-8 bytes. */
  readonly utf8Length: number
  readonly signatures: readonly PlannedSignature[]
}

interface DryRunOk extends DryRunBase {
  readonly ok: true
  /** The state the update produces (seen keys hold placeholders for the planned signatures). */
  readonly after: AssociationState
  readonly diff: DraftDiff
  readonly actions: readonly ActionStep[]
}

interface DryRunFailure extends DryRunBase {
  readonly ok: false
  /** The rule the draft fails; IDENT-061 when a carried smart wallet signature cannot be judged. */
  readonly rule: RuleId
  readonly actionIndex: number | null
  readonly message: string
  /** True when nothing failed but a carried smart wallet signature could not be judged (IDENT-061). */
  readonly pending?: boolean
}

export type DryRunResult = DryRunOk | DryRunFailure

const PLACEHOLDER_REASON = 'planned: assumes the signer signs this text validly'

/**
 * Dry-runs `draft` against `state` (null: a new inbox). Never asks a signer.
 * @throws Error when an erc_6492 signer's chain id is unknown (give a ChainBoundSigner or `chainIdOf`).
 */
export async function dryRun(
  state: AssociationState | null,
  draft: Draft,
  opts: DryRunOptions = {},
): Promise<DryRunResult> {
  const text = draft.text
  const signedText = new SignedText(text, utf8(text))
  const update: UnverifiedUpdate = {
    inboxId: draft.inboxId,
    clientTimestampNs: draft.clientTimestampNs,
    actions: draft.unsigned,
    bytes: new Uint8Array(0),
    bytesSource: 'canonical-encoding',
  }
  // One placeholder replay key per signer object: a signer asked for two slots signs once
  // (signDraft), so both slots carry one signature and one replay key.
  const keyOf = new Map<Signer, string>()
  const checks: SignatureCheck[] = []
  const signatures: PlannedSignature[] = []
  for (const r of draftRoles(draft)) {
    const o = r.override
    if (o !== undefined && 'raw' in o) {
      const v = await verifySignature(o.raw, signedText, opts.smartWallets ? { smartWallets: opts.smartWallets } : {})
      checks.push({ actionIndex: r.actionIndex, role: r.role, kind: o.raw.kind, ...v })
      signatures.push({
        actionIndex: r.actionIndex,
        role: r.role,
        kind: o.raw.kind,
        signer: v.signer ?? r.signer.identifier,
        chainId: v.chainId,
        source: 'carried',
      })
      continue
    }
    const chainId = chainOf(r.signer, opts)
    const otherText = o !== undefined && 'over' in o && (o.over.text ?? draftText(draft, o.over)) !== text
    let key = keyOf.get(r.signer)
    if (key === undefined) keyOf.set(r.signer, (key = `planned:${r.actionIndex}:${r.role}`))
    const check: SignatureCheck = otherText
      ? {
          actionIndex: r.actionIndex,
          role: r.role,
          kind: r.signer.kind,
          verdict: 'invalid',
          signer: null,
          chainId: null,
          replayKey: null,
          failRule: r.signer.kind === 'erc_6492' ? 'IDENT-060' : 'IDENT-030',
          reason: 'the draft has this signer sign another text than the update’s',
          evidence: {},
        }
      : {
          actionIndex: r.actionIndex,
          role: r.role,
          kind: r.signer.kind,
          verdict: 'valid',
          signer: r.signer.identifier,
          chainId,
          replayKey: key,
          failRule: null,
          reason: PLACEHOLDER_REASON,
          evidence: {},
        }
    checks.push(check)
    signatures.push({
      actionIndex: r.actionIndex,
      role: r.role,
      kind: r.signer.kind,
      signer: r.signer.identifier,
      chainId,
      source: otherText ? 'other-text' : 'planned',
    })
  }
  const verified: VerifiedUpdate = { update, text, checks }
  const base: DryRunBase = { text, utf8Length: signedText.bytes.length, signatures }
  const sequenceId = opts.sequenceId ?? (state ? state.sequenceId + 1n : 1n)
  try {
    const applied = applyUpdate(state, verified, sequenceId)
    return { ...base, ok: true, after: applied.state, diff: draftDiff(state, applied.state), actions: applied.actions }
  } catch (e) {
    if (e instanceof RejectedUpdate) {
      return {
        ...base,
        ok: false,
        rule: e.violation.rule,
        actionIndex: e.violation.actionIndex,
        message: e.violation.message,
      }
    }
    if (e instanceof PendingUpdate) {
      return {
        ...base,
        ok: false,
        rule: 'IDENT-061',
        actionIndex: e.checks[0]?.actionIndex ?? null,
        message: e.message,
        pending: true,
      }
    }
    throw e
  }
}

function chainOf(signer: Signer, opts: DryRunOptions): bigint | null {
  const c = signerChainId(signer)
  if (c !== undefined) return c
  const given = opts.chainIdOf?.(signer)
  if (given !== undefined) return given
  throw new Error(
    `dryRun: the smart contract wallet signer ${signer.identifier.text} states no chain id; use chainBoundSmartWalletSigner or pass opts.chainIdOf`,
  )
}

/** What changes from `before` to `after`, member by member (O(members)). */
export function draftDiff(before: AssociationState | null, after: AssociationState): DraftDiff {
  const membersAdded: Member[] = []
  const membersRemoved: Member[] = []
  if (before?.members !== after.members) {
    for (const [k, m] of after.members) if (!before?.members.has(k)) membersAdded.push(m)
    for (const [k, m] of before?.members ?? []) if (!after.members.has(k)) membersRemoved.push(m)
    membersAdded.sort(compareMembers)
    membersRemoved.sort(compareMembers)
  }
  const br = before?.recovery ?? null
  const ar = after.recovery
  const sameRecovery = !!br && memberKey(br.id) === memberKey(ar.id) && br.chainId === ar.chainId
  const bh = before?.handles ?? []
  const ah = after.handles
  const sameHandles = bh.length === ah.length && bh.every((h, i) => h === ah[i])
  const bd = bh[bh.length - 1] ?? null
  const ad = ah[ah.length - 1] ?? null
  const bc = before?.claimCount ?? 0
  return {
    created: before === null,
    membersAdded,
    membersRemoved,
    recovery: sameRecovery ? null : { before: br, after: ar },
    handles: sameHandles ? null : { before: bh, after: ah },
    displayHandle: bd === ad ? null : { before: bd, after: ad },
    claimCount: bc === after.claimCount ? null : { before: bc, after: after.claimCount },
    replayKeysAdded: after.seen.size - (before?.seen.size ?? 0),
  }
}

// ---- previews ---------------------------------------------------------------------------

/** A member named by a signer, a carried identifier, or its identifier. */
export type MemberRef = Signer | WireMemberIdentifier | MemberId

function idOf(ref: MemberRef): MemberId {
  if ('identifier' in ref && typeof (ref as Signer).sign === 'function') return (ref as Signer).identifier
  if ('text' in ref) return { kind: ref.kind, text: ref.text }
  return memberIdOf(ref as WireMemberIdentifier)
}

export interface RevocationCascade {
  readonly target: MemberId
  /** The target's member record, when it is a current member. */
  readonly member: Member | null
  /** Installations whose adder is the target: removed with it (IDENT-044). */
  readonly installations: readonly Member[]
  /** Every member the revocation removes: the target (when a member) and its installations. */
  readonly removed: readonly Member[]
  /** The target is the recovery identifier: it keeps the role and its chain id (section 5). */
  readonly keepsRecoveryRole: boolean
  /** One line for the confirmation prompt. */
  readonly summary: string
}

/** IDENT-044: the installations a RevokeAssociation of `member` removes, before it is signed. */
export function previewRevocationCascade(state: AssociationState, member: MemberRef): RevocationCascade {
  const target = idOf(member)
  const key = memberKey(target)
  const record = state.members.get(key) ?? null
  const installations = membersInOrder(state).filter(
    (m) => m.id.kind === 'installation' && m.adder !== null && memberKey(m.adder) === key && memberKey(m.id) !== key,
  )
  const removed = record ? [record, ...installations] : installations
  const keepsRecoveryRole = memberKey(state.recovery.id) === key
  const n = installations.length
  const parts = [
    record ? `removes ${describeMember(target)}` : `${describeMember(target)} is not a member`,
    n === 0
      ? 'and no installation it added'
      : `${record ? 'and' : 'but removes'} ${n} installation${n === 1 ? '' : 's'} it added`,
  ]
  if (keepsRecoveryRole) parts.push('; it stays the recovery identifier')
  return {
    target,
    member: record,
    installations,
    removed,
    keepsRecoveryRole,
    summary: parts.join(' ').replace(' ;', ';'),
  }
}

export interface RecoveryChainPreview {
  readonly id: MemberId
  /** The new recovery identifier is a current member. */
  readonly isMember: boolean
  /** The chain id the role gets: the member's recorded chain, or none (IDENT-045). */
  readonly chainId: bigint | null
  readonly explanation: string
}

/**
 * IDENT-045: the chain id a ChangeRecoveryAddress to `newRecovery` records for the role:
 * the chain recorded for it as a current member, or none when it is not one. A string is
 * read under `kind` (default: Ethereum for 0x…, passkey otherwise).
 */
export function previewRecoveryChain(
  state: AssociationState,
  newRecovery: string | MemberRef,
  kind?: number,
): RecoveryChainPreview {
  let id: MemberId
  if (typeof newRecovery === 'string') {
    const k = kind ?? (newRecovery.startsWith('0x') ? IdentifierKindValue.ETHEREUM : IdentifierKindValue.PASSKEY)
    id = { kind: k === IdentifierKindValue.PASSKEY ? 'passkey' : 'ethereum', text: newRecovery }
  } else id = idOf(newRecovery)
  const m = state.members.get(memberKey(id))
  const chainId = m ? m.chainId : null
  const explanation = m
    ? chainId === null
      ? `${describeMember(id)} is a member with no chain id, so the recovery role has none`
      : `${describeMember(id)} is a member on chain eip155:${chainId}, so the recovery role is bound to eip155:${chainId}`
    : `${describeMember(id)} is not a member, so the recovery role has no chain id: a smart contract wallet could not sign as recovery identifier`
  return { id, isMember: !!m, chainId, explanation }
}

export interface ClaimPreview {
  readonly handle: string
  /** The grammar (IDENT-078) matches in full. */
  readonly valid: boolean
  /** Why the handle is refused by the grammar (handleProblem); '' when valid. */
  readonly problem: string
  /** The inbox already holds it: the claim moves it to the end (IDENT-082). */
  readonly alreadyHeld: boolean
  /** It is already the display handle: the claim changes no order, and still counts. */
  readonly alreadyDisplay: boolean
  readonly claimCount: number
  /** Claims left of the 64 a log may hold before this claim (IDENT-080). */
  readonly claimsLeft: number
  /** The claim can apply (grammar, an inbox, claims left). Backend-only checks are not judged (IDENT-084). */
  readonly ok: boolean
  /** The handles after the claim. */
  readonly handlesAfter: readonly string[]
  readonly summary: string
}

/** What a ClaimHandle of `handle` would do to `state` (null: no inbox yet). */
export function previewClaim(state: AssociationState | null, handle: string): ClaimPreview {
  const valid = isValidHandle(handle)
  const problem = handleProblem(handle)
  const handles = state?.handles ?? []
  const alreadyHeld = handles.includes(handle)
  const alreadyDisplay = handles[handles.length - 1] === handle
  const claimCount = state?.claimCount ?? 0
  const claimsLeft = Math.max(0, MAX_CLAIMS - claimCount)
  const ok = valid && state !== null && claimsLeft > 0
  const handlesAfter = ok ? [...handles.filter((h) => h !== handle), handle] : [...handles]
  let summary: string
  if (!valid) summary = `${JSON.stringify(handle)} ${problem}`
  else if (!state) summary = 'an inbox must exist before it claims a handle'
  else if (claimsLeft === 0) summary = `the inbox has made ${claimCount} claims; a log holds at most ${MAX_CLAIMS}`
  else if (alreadyDisplay)
    summary = `${handle} is already the display handle; claiming it again changes nothing but uses a claim (${claimsLeft - 1} left after it)`
  else if (alreadyHeld)
    summary = `the inbox already holds ${handle}: the claim moves it to the end, making it the display handle again (${claimsLeft - 1} claims left after it)`
  else summary = `claims ${handle} as the display handle (${claimsLeft - 1} claims left after it)`
  return { handle, valid, problem, alreadyHeld, alreadyDisplay, claimCount, claimsLeft, ok, handlesAfter, summary }
}
