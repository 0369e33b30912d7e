/**
 * "Break it" (issue #16): ready-made edits for teaching, each a pure builder that finds
 * its target in the open log and returns the operations of src/core/encode/edit.ts that
 * break it, with the rule the core's replay then names. A builder whose target the log
 * does not hold says why instead, so its button is disabled with the reason.
 *
 * Builders never judge: they only choose an edit. The verdict after it is the core's own
 * (the edited log is replayed in the worker like any log); break-it.test.ts replays each
 * result with the core and asserts the rule.
 */
import { bytesToHex, hexToBytes } from '../../../crypto/bytes'
import type { EditOp } from '../../../core/encode/edit'
import { encodeUpdate } from '../../../core/encode/update'
import type { RuleId } from '../../../core/rules'
import { signatureText } from '../../../core/text/signature-text'
import { describeMember, memberIdOf, sameMember } from '../../../core/text/identifier'
import type { SignatureCheck, UpdateStatus } from '../../../core/trace'
import {
  memberKey,
  type MemberId,
  type UnverifiedUpdate,
  type WireAction,
  type WireSignature,
} from '../../../core/types'
import { malleateErc191 } from '../../../signing/replay-key'
import type { Signer } from '../../../signing/signers'
import { shortId } from '../../ui/format'

/** One update of the log a builder reads: how replay judged it and its decoded fields. */
export interface EditStep {
  readonly sequenceId: bigint
  readonly status: UpdateStatus
  readonly rule: RuleId | null
  /** The decoded update; null when its bytes do not decode. */
  readonly update: UnverifiedUpdate | null
  readonly signatures: readonly SignatureCheck[]
}

/** The log a builder reads: its updates in replay order and the head state's members and recovery identifier. */
export interface EditBase {
  readonly steps: readonly EditStep[]
  readonly head: { readonly members: ReadonlySet<string>; readonly recovery: MemberId } | null
}

/** What the IDENT-041 builder may sign with: the signers this browser holds, and a fresh installation key. */
export interface BreakSigners {
  readonly held: readonly Signer[]
  freshInstallation(): Signer
}

interface BreakPlan {
  readonly ops: readonly EditOp[]
  /** The update the verdict lands on. */
  readonly target: bigint
  /** The rule replay names for the target after the edit. */
  readonly expect: RuleId
  /** What the edit did, concretely (sequence ids, fields, identifiers). */
  readonly summary: string
}

export type BreakResult =
  | { readonly ok: true; readonly plan: BreakPlan }
  | { readonly ok: false; readonly reason: string }

export type BreakId =
  | 'replay-add'
  | 'installation-adds-installation'
  | 'text-inbox-id'
  | 'capital-handle'
  | 'revoke-by-member'
  | 'high-s'

export interface BreakIt {
  readonly id: BreakId
  readonly title: string
  /** The rule the lesson is about. */
  readonly teaches: RuleId
  /** One line: what the edit does and why the core refuses it. */
  readonly line: string
  build(base: EditBase, signers: BreakSigners): Promise<BreakResult>
}

const fail = (reason: string): BreakResult => ({ ok: false, reason })
const ok = (plan: BreakPlan): BreakResult => ({ ok: true, plan })

/** The highest sequence id: the last step's, as replay orders steps by sequence id (IDENT-004). */
const maxSeq = (base: EditBase): bigint => base.steps.at(-1)?.sequenceId ?? 0n

/** Why an update appended to the log would never be judged, or null when it would be. */
function appendBlocked(base: EditBase): string | null {
  if (!base.head) return 'the log has no applied update to build on'
  const stop = base.steps.find((s) => s.status === 'rejected' || s.status === 'pending')
  return stop
    ? `the log stops at sequence id ${stop.sequenceId} (${stop.status}${stop.rule ? ` under ${stop.rule}` : ''}), so an update appended after it is never judged: restore the original first`
    : null
}

const applied = (base: EditBase) =>
  base.steps.filter((s): s is EditStep & { update: UnverifiedUpdate } => s.status === 'applied' && s.update !== null)

const signerOf = (s: EditStep, actionIndex: number, role: SignatureCheck['role']): MemberId | null =>
  s.signatures.find((c) => c.actionIndex === actionIndex && c.role === role && c.verdict === 'valid')?.signer ?? null

const isHeadParty = (base: EditBase, id: MemberId): boolean =>
  !!base.head && (base.head.members.has(memberKey(id)) || sameMember(base.head.recovery, id))

/** An applied update of adds only, each of a member the head no longer holds, signed by a party the head still has. */
function replayableAdds(base: EditBase): (EditStep & { update: UnverifiedUpdate })[] {
  return applied(base).filter((s) =>
    s.update.actions.every((a, i) => {
      if (a.kind !== 'add') return false
      const existing = signerOf(s, i, 'existing_member_signature')
      return (
        !!existing &&
        isHeadParty(base, existing) &&
        !base.head!.members.has(memberKey(memberIdOf(a.newMemberIdentifier)))
      )
    }),
  )
}

const replayAdd: BreakIt = {
  id: 'replay-add',
  title: 'Replay an old add after its revocation',
  teaches: 'IDENT-050',
  line: 'Publishes a revoked member’s add again, byte for byte: its signatures still verify, but their replay keys were seen (IDENT-050).',
  async build(base) {
    const blocked = appendBlocked(base)
    if (blocked) return fail(blocked)
    const s = replayableAdds(base).at(-1)
    if (!s)
      return fail(
        'no applied add here is of a member since revoked whose adder is still a member or the recovery identifier',
      )
    const to = maxSeq(base) + 1n
    const a = s.update.actions[0] as Extract<WireAction, { kind: 'add' }>
    return ok({
      ops: [{ op: 'duplicate', seq: s.sequenceId, to }],
      target: to,
      expect: 'IDENT-050',
      summary: `duplicated sequence id ${s.sequenceId} (the add of ${describeMember(memberIdOf(a.newMemberIdentifier))}) as sequence id ${to}`,
    })
  },
}

/** The signature text of an add of `newMember` by `existing`, signed by both, as update bytes. */
async function signedAdd(
  inboxId: string,
  clientTimestampNs: bigint,
  existing: Signer,
  newMember: Signer,
): Promise<Uint8Array> {
  const placeholder: WireSignature = { kind: 'erc_191', bytes: new Uint8Array(0) }
  const key = hexToBytes(newMember.identifier.text)
  const action = (e: WireSignature = placeholder, n: WireSignature = placeholder): WireAction => ({
    kind: 'add',
    newMemberIdentifier: { kind: 'installation', key },
    existingMemberSignature: e,
    newMemberSignature: n,
  })
  const text = signatureText({ inboxId, clientTimestampNs, actions: [action()] })
  const e = await existing.sign(text)
  const n = await newMember.sign(text)
  return encodeUpdate({ inboxId, clientTimestampNs, actions: [action(e, n)] })
}

const installationAddsInstallation: BreakIt = {
  id: 'installation-adds-installation',
  title: 'Let an installation add an installation',
  teaches: 'IDENT-041',
  line: 'Appends an add of a fresh installation signed by an installation of the inbox: both signatures verify, yet only a wallet or passkey may add an installation (IDENT-041).',
  async build(base, signers) {
    const blocked = appendBlocked(base)
    if (blocked) return fail(blocked)
    const last = applied(base).at(-1)!
    const party = signers.held.find((h) => isHeadParty(base, h.identifier))
    if (!party)
      return fail(
        'an installation must sign the add, so this browser needs a key of a current member or of the recovery identifier: import one in Signers…',
      )
    const inboxId = last.update.inboxId
    const ts = last.update.clientTimestampNs + 1_000_000_000n
    const to = maxSeq(base) + 1n
    const ops: EditOp[] = []
    let installation: Signer = party
    let target = to
    let summary = ''
    if (party.identifier.kind !== 'installation') {
      // First the held member adds a fresh installation (a permitted pair), which then adds another.
      installation = signers.freshInstallation()
      const bytes = await signedAdd(inboxId, ts, party, installation)
      ops.push({ op: 'duplicate', seq: last.sequenceId, to }, { op: 'set-bytes', seq: to, bytes })
      target = to + 1n
      summary = `appended sequence id ${to}: ${describeMember(party.identifier)} adds installation ${shortId(installation.identifier.text)}; then `
    }
    const added = signers.freshInstallation()
    const bytes = await signedAdd(inboxId, ts + 1_000_000_000n, installation, added)
    ops.push({ op: 'duplicate', seq: last.sequenceId, to: target }, { op: 'set-bytes', seq: target, bytes })
    summary += `appended sequence id ${target}: installation ${shortId(installation.identifier.text)} adds installation ${shortId(added.identifier.text)}`
    return ok({ ops, target, expect: 'IDENT-041', summary })
  },
}

/** True when no signature of the update recovers its signer from the text (a changed text fails to verify outright). */
const verifiesOutright = (s: EditStep): boolean =>
  s.signatures.length > 0 && s.signatures.every((c) => c.kind === 'installation_key' || c.kind === 'passkey')

/** `text` with the hex character at `at` changed. */
function changeChar(text: string, at: number): string {
  const c = text[at]!
  return `${text.slice(0, at)}${c === '0' ? '1' : '0'}${text.slice(at + 1)}`
}

const textInboxId: BreakIt = {
  id: 'text-inbox-id',
  title: 'Change one character of the text’s inbox id',
  teaches: 'IDENT-020',
  line: 'The inbox id is a line of the text every signature signs (IDENT-020): change one character and the signatures no longer verify (IDENT-030).',
  async build(base) {
    const s = applied(base)
      .filter(verifiesOutright)
      .filter((x) => x.update.inboxId.length > 0)
      .at(-1)
    if (!s) return fail('no applied update here is signed only by installation keys or passkeys')
    const id = s.update.inboxId
    const value = changeChar(id, id.length - 1)
    return ok({
      ops: [{ op: 'set', seq: s.sequenceId, path: ['inbox_id'], value }],
      target: s.sequenceId,
      expect: 'IDENT-030',
      summary: `set inbox_id of sequence id ${s.sequenceId} to …${value.slice(-6)} (was …${id.slice(-6)})`,
    })
  },
}

const capitalHandle: BreakIt = {
  id: 'capital-handle',
  title: 'Claim a handle with a capital letter',
  teaches: 'IDENT-078',
  line: 'Handles are lowercase and never rewritten: a claim of “Nick” is refused, not folded to “nick” (IDENT-078).',
  async build(base) {
    for (const s of applied(base).reverse()) {
      const i = s.update.actions.findIndex((a) => a.kind === 'claim_handle')
      if (i < 0) continue
      const handle = (s.update.actions[i] as Extract<WireAction, { kind: 'claim_handle' }>).handle
      const at = handle.search(/[a-z]/)
      const value = at < 0 ? `A${handle}` : `${handle.slice(0, at)}${handle[at]!.toUpperCase()}${handle.slice(at + 1)}`
      return ok({
        ops: [{ op: 'set', seq: s.sequenceId, path: ['actions', i, 'claim_handle', 'handle'], value }],
        target: s.sequenceId,
        expect: 'IDENT-078',
        summary: `set the handle of sequence id ${s.sequenceId} to “${value}” (was “${handle}”)`,
      })
    }
    return fail('the log has no applied handle claim')
  },
}

const revokeByMember: BreakIt = {
  id: 'revoke-by-member',
  title: 'Sign a revocation with a non-recovery member',
  teaches: 'IDENT-043',
  line: 'Drops the recovery change before a revocation, so the revocation’s signer is a member but not the recovery identifier (IDENT-043).',
  async build(base) {
    const steps = applied(base)
    for (let j = steps.length - 1; j >= 0; j--) {
      const c = steps[j]!
      const ch = c.update.actions[0]
      if (c.update.actions.length !== 1 || ch?.kind !== 'change_recovery_address') continue
      // The first revocation after the change, before any other change, signed by the recovery it set.
      for (const s of steps.slice(j + 1)) {
        if (s.update.actions.some((a) => a.kind === 'change_recovery_address')) break
        const i = s.update.actions.findIndex((a) => a.kind === 'revoke')
        if (i < 0) continue
        const signer = signerOf(s, i, 'recovery_identifier_signature')
        if (!signer || signer.text !== ch.newRecoveryIdentifier) break
        return ok({
          ops: [{ op: 'drop', seq: c.sequenceId }],
          target: s.sequenceId,
          expect: 'IDENT-043',
          summary: `dropped sequence id ${c.sequenceId} (the recovery change to ${describeMember(signer)}), so the revocation at sequence id ${s.sequenceId} is signed by a party that is not the recovery identifier`,
        })
      }
    }
    return fail('no revocation here is signed by a recovery identifier that a recovery change set')
  },
}

const highS: BreakIt = {
  id: 'high-s',
  title: 'Re-encode an ECDSA signature with high s',
  teaches: 'IDENT-050',
  line: 'Replays an add with its wallet signature’s s replaced by n − s: it still verifies (both halves are accepted), but its canonical replay key was seen (IDENT-050).',
  async build(base) {
    const blocked = appendBlocked(base)
    if (blocked) return fail(blocked)
    for (const s of replayableAdds(base).reverse()) {
      const i = s.update.actions.findIndex(
        (a) =>
          a.kind === 'add' &&
          a.existingMemberSignature.kind === 'erc_191' &&
          a.existingMemberSignature.bytes.length === 65,
      )
      if (i < 0) continue
      const a = s.update.actions[i] as Extract<WireAction, { kind: 'add' }>
      const sig = a.existingMemberSignature as { kind: 'erc_191'; bytes: Uint8Array }
      const high = malleateErc191(sig.bytes, { negateS: true })
      const to = maxSeq(base) + 1n
      return ok({
        ops: [
          { op: 'duplicate', seq: s.sequenceId, to },
          {
            op: 'set',
            seq: to,
            path: ['actions', i, 'add', 'existing_member_signature', 'erc_191', 'bytes'],
            value: bytesToHex(high),
          },
        ],
        target: to,
        expect: 'IDENT-050',
        summary: `duplicated sequence id ${s.sequenceId} as ${to} with its existing member signature's s replaced by n − s`,
      })
    }
    return fail('no replayable add here carries an erc_191 (ECDSA) existing member signature')
  },
}

/** Every break-it, in the order the panel lists them. */
export const BREAK_ITS: readonly BreakIt[] = [
  replayAdd,
  installationAddsInstallation,
  textInboxId,
  capitalHandle,
  revokeByMember,
  highS,
]
