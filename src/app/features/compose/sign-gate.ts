/**
 * The draft's signature slots (who signs each, and its status while collecting) and the
 * Sign gate: signers are asked only for a draft the core accepts, whose consequence is
 * confirmed, with every signer at hand.
 */
import { describeMember } from '../../../core/text/identifier'
import { memberKey, type SignatureRole } from '../../../core/types'
import { isPlannedSigner, type Draft, type DryRunResult, type RoleEntry } from '../../../signing'
import { draftRoles } from '../../../signing/roles'
import { shortId } from '../../ui/format'
import type { ComposeBuild } from './compose-model'
import type { Party } from './parties'

const ROLE_LABEL: Record<SignatureRole, string> = {
  initial_identifier_signature: 'creator’s signature (initial identifier)',
  existing_member_signature: 'existing member’s approval',
  new_member_signature: 'new member’s signature',
  recovery_identifier_signature: 'recovery identifier’s signature',
  existing_recovery_identifier_signature: 'recovery identifier’s signature',
  signature: 'member’s claim signature',
}

export interface SlotView {
  readonly key: string
  readonly role: SignatureRole
  readonly label: string
  /** Who must sign, in words. */
  readonly who: string
  /** The signer of this browser that will be asked, or null when it holds none. */
  readonly signerLabel: string | null
  readonly state: 'missing' | 'requested' | 'signed' | 'failed'
  readonly reason: string | null
}

/** Every signature slot of the draft with who signs it and its status while collecting. */
export function slotViews(draft: Draft, parties: readonly Party[], roles: readonly RoleEntry[] | null): SlotView[] {
  const byKey = new Map((roles ?? []).map((r) => [r.key, r]))
  return draftRoles(draft).map((r) => {
    const holder = parties.find((p) => p.app && memberKey(p.identifier) === memberKey(r.signer.identifier))
    const entry = byKey.get(r.key)
    const status = entry?.status
    return {
      key: r.key,
      role: r.role,
      label: ROLE_LABEL[r.role],
      who: describeMember(r.signer.identifier),
      signerLabel: holder?.app?.label ?? (isPlannedSigner(r.signer) ? null : 'the signer chosen'),
      state: status?.state ?? 'missing',
      reason: status?.state === 'failed' ? `${status.reason} (${status.code})` : null,
    }
  })
}

/** "passkey 04a1b2…(130 hex)…" → "passkey 04a1b2…c3d4": long hex identifiers shortened for a one-line reason. */
function shortWho(who: string): string {
  return who.replace(/(0x)?[0-9a-f]{24,}/gi, (h) => shortId(h))
}

/** The slots no signer of this browser can sign, in words. */
export function unavailable(slots: readonly SlotView[]): string[] {
  return slots
    .filter((s) => s.signerLabel === null && s.state !== 'signed')
    .map((s) => `${s.label}: ${shortWho(s.who)} (no signer for it in this browser; add or connect it in Signers…)`)
}

// ---- the Sign gate ------------------------------------------------------------------------

export interface GateInput {
  readonly build: ComposeBuild
  /** The dry run of build.draft, or null while it runs. */
  readonly dry: DryRunResult | null
  /** The draft text the user confirmed the consequence for; confirmation of another text does not count. */
  readonly confirmedFor: string | null
  readonly slots: readonly SlotView[]
  readonly busy: boolean
  /**
   * A claim's handle as the node sees it, asked before any signer is: 'checking' while the
   * node's lookup runs, 'taken' when it names another inbox (the node would answer
   * handle_taken after the signing); absent or null when not a claim or no node answered.
   */
  readonly handle?: HandleOnNode | null
}

export type HandleOnNode =
  | { readonly kind: 'checking'; readonly handle: string }
  | { readonly kind: 'taken'; readonly handle: string; readonly inboxId: string }

export interface Gate {
  readonly enabled: boolean
  /** Why Sign is disabled ('' when enabled). */
  readonly reason: string
}

/** Sign asks signers only for a draft the core accepts, whose consequence is confirmed, with every signer at hand. */
export function signGate(g: GateInput): Gate {
  const no = (reason: string): Gate => ({ enabled: false, reason })
  if (g.busy) return no('the signers are being asked')
  if (!g.build.draft) return no(g.build.problems[0] ?? 'the draft is incomplete')
  if (!g.dry) return no('the dry run is still running')
  if (!g.dry.ok) return no(`the core would reject this update under ${g.dry.rule}: ${g.dry.message}`)
  if (g.handle?.kind === 'checking') return no(`asking the node whether ${JSON.stringify(g.handle.handle)} is free`)
  if (g.handle?.kind === 'taken')
    return no(
      `the node says ${JSON.stringify(g.handle.handle)} is held by inbox ${shortId(g.handle.inboxId)}, so it would refuse the claim (handle_taken)`,
    )
  if (g.build.confirmation !== null && g.confirmedFor !== g.build.draft.text)
    return no('confirm the consequence first (the checkbox below)')
  const missing = unavailable(g.slots)
  if (missing.length > 0) return no(missing[0]!)
  return { enabled: true, reason: '' }
}

const SECOND_NS = 1_000_000_000n

/**
 * The client time of the draft after one was signed at `signed`: now, but never in the same
 * second. The signature text shows the time to the second ({timestamp}: no fractional
 * seconds), so the same action drafted again within that second (claim nick, nick#2341,
 * nick again) would have the very text already signed, the same deterministic signatures,
 * and be refused as a replay (IDENT-050): seen in the playground e2e on a fast run.
 */
export function laterClientTime(signed: bigint, now: bigint): bigint {
  const nextSecond = (signed / SECOND_NS + 1n) * SECOND_NS
  return now >= nextSecond ? now : nextSecond
}
