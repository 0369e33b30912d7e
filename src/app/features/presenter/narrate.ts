/**
 * Presenter mode's narration: one line, in words, of what one step of a log did, read
 * from the replay's transfer step (the action, the signer the signatures recovered, the
 * status, the failed rule and what its check compared) and nothing else. Pure.
 *
 *   Sequence id 3: the wallet 0x507c8c…d488 adds wallet 0xfe28ef…a0c (applied)
 *   Sequence id 2: the wallet 0x507c8c…d488 would add wallet 0xfe28ef…a0c, rejected under
 *     IDENT-040: the new member signature is by wallet 0x312965…3752, not by the member named
 */
import { RULES, isRuleId } from '../../../core/rules'
import type { MemberId, SignatureRole } from '../../../core/types'
import { memberKey } from '../../../core/types'
import type { TransferStep } from '../../../worker/transfer'
import type { ActionStatus } from '../../trace/trace-model'
import { MEMBER_KIND_LABEL, shortId } from '../../ui/format'

export interface NarrationInput {
  readonly step: TransferStep
  /** The action of the step (-1: the update as a whole, when it has no decoded action). */
  readonly i: number
  /** How the action fared (TraceModel.actionStatus). */
  readonly status: ActionStatus
  /** The sequence id where the log stops (rejected or pending), for the updates after it. */
  readonly stopAt: bigint | null
}

/** Input-derived text is bounded: a handle or an unknown identifier is quoted up to 48 characters. */
function bounded(s: string): string {
  return s.length > 48 ? `${s.slice(0, 47)}…` : s
}

const article = (word: string): string => `${/^[aeiou]/i.test(word) ? 'an' : 'a'} ${word}`

function party(id: MemberId): string {
  return `${MEMBER_KIND_LABEL[id.kind]} ${shortId(id.text)}`
}

/** A member as a violation's details describe it ("ethereum 0x…", "installation ab…") → "wallet 0x…". */
function described(text: string | undefined): string {
  if (!text) return 'another party'
  const m = /^(ethereum|passkey|installation) (\S+)$/.exec(text)
  return m ? party({ kind: m[1] as MemberId['kind'], text: m[2]! }) : bounded(text)
}

const SUBJECT_KIND: Record<string, MemberId['kind']> = {
  wallet: 'ethereum',
  passkey: 'passkey',
  installation: 'installation',
}

/** The signature whose signer acts in each kind of action. */
const ACTOR_ROLE: Record<string, SignatureRole> = {
  add: 'existing_member_signature',
  revoke: 'recovery_identifier_signature',
  change_recovery_address: 'existing_recovery_identifier_signature',
  claim_handle: 'signature',
}

const ROLE_NAME: Record<SignatureRole, string> = {
  initial_identifier_signature: 'creator signature',
  existing_member_signature: 'existing member signature',
  new_member_signature: 'new member signature',
  recovery_identifier_signature: 'recovery identifier signature',
  existing_recovery_identifier_signature: 'recovery identifier signature',
  signature: 'signature',
}

/** Why an IDENT-001 update was refused, from the core's message (it carries no details). */
function wireReason(message: string): string {
  const m = message.toLowerCase()
  if (/no actions|actions is empty|empty update/.test(m)) return 'the update has no actions'
  if (/field 4|legacy delegated/.test(m)) return 'a signature holds only the retired legacy field 4'
  if (/not valid hex/.test(m)) return 'the update’s bytes are not valid hex'
  if (/base64/.test(m)) return 'the update’s bytes are not valid base64'
  if (/truncat|runs past the end|ends inside/.test(m)) return 'the update’s bytes are cut short'
  if (/unknown|not listed|does not list/.test(m)) return 'the update carries a field the definition does not list'
  if (/unset/.test(m)) return 'a kind or a signature is unset'
  return 'the bytes are not a well-formed IdentityUpdate'
}

/** The reason of a rejection in a few words: from what the failed check compared, else the rule's title. */
function rejectionReason(step: TransferStep): string {
  const d = step.details
  if (d) {
    const role = d.role ? ROLE_NAME[d.role] : 'signature'
    switch (d.check) {
      case 'signer-mismatch':
        if (d.role === 'new_member_signature')
          return `the new member signature is by ${described(d.found)}, not by the member named (${described(d.expected)})`
        if (d.role === 'initial_identifier_signature')
          return `the creator signature is by ${described(d.found)}, not by the initial identifier (${described(d.expected)})`
        return `the signer ${described(d.found)} is not the recovery identifier (${described(d.expected)})`
      case 'signer-not-member':
        return `the signer ${described(d.found)} is not a member${d.recovery ? ' nor the recovery identifier' : ''}`
      case 'same-party':
        return 'one party signed both as the existing member and as the new member'
      case 'already-member':
        return `${described(d.found)} is already a member`
      case 'installation-adds-installation':
        return 'an installation cannot add an installation'
      case 'chain-mismatch':
        return `the ${role} is on chain ${bounded(d.found ?? '?')}, but the signer joined ${d.expected === 'none' ? 'with no chain' : `on ${bounded(d.expected ?? '?')}`}`
      case 'replay':
        return `the ${role} by ${described(d.found)} was already used`
      case 'no-replay-key':
        return `no replay key can be derived from the ${role}`
      case 'signature-invalid':
        return `the ${role} does not verify`
      case 'signature-kind':
        return `${article(bounded(d.found ?? '?'))} signature cannot sign as the ${role.replace(/ signature$/, '')} (${bounded(d.expected ?? '?')} expected)`
      case 'no-state':
        return 'the log does not open with a CreateInbox'
      case 'state-exists':
        return 'the inbox already exists'
      case 'identifier-form':
        return `${JSON.stringify(bounded(d.found ?? ''))} is not a lowercase address`
      case 'identifier-kind':
        return `identifier kind ${bounded(d.found ?? '?')} cannot sign`
      case 'handle-grammar':
        return `${JSON.stringify(bounded(d.found ?? ''))} is not a valid handle`
      case 'claim-limit':
        return 'the inbox has made all 64 of its claims'
      case 'claim-not-alone':
        return 'a claim must be the only action of its update'
      case 'inbox-mismatch':
        return `the update names another inbox (${shortId(d.found ?? '?')})`
      case 'empty':
        return 'the update has no actions'
    }
  }
  if (step.rule === 'IDENT-001') return wireReason(step.message)
  if (step.rule && isRuleId(step.rule)) return RULES[step.rule].toLowerCase()
  return 'a rule of the spec refuses it'
}

/** Why a pending update waits (IDENT-061): the smart wallet signatures whose chain could not be judged. */
function pendingReason(step: TransferStep, i: number): string {
  const waiting = step.signatures.filter((s) => s.verdict === 'unreachable' && (i < 0 || s.actionIndex === i))
  const chains = [...new Set(waiting.map((s) => (s.chainId === null ? '?' : `eip155:${s.chainId}`)))]
  const where = chains.length ? `chain ${chains.join(', ')}` : 'the chain'
  const why = /no route/.test(step.message) ? 'no route to it is set' : 'it could not be reached'
  return `the smart wallet signature on ${where} cannot be judged yet (${why})`
}

/** The failure of the step, for an action it stopped before or after. */
function failureOf(step: TransferStep): string {
  if (step.status === 'pending') return `is pending under IDENT-061`
  return `was rejected under ${step.rule ?? 'a rule'}`
}

/** The verdict of the step, without its separator: "applied", "rejected under IDENT-040: …". */
function verdict(input: NarrationInput): string {
  const { step, i, status, stopAt } = input
  switch (status) {
    case 'applied':
      return 'applied'
    case 'rejected':
      return `rejected under ${step.rule ?? 'a rule'}: ${rejectionReason(step)}`
    case 'pending':
      return `pending under IDENT-061: ${pendingReason(step, i)}`
    case 'rolled_back':
      return step.actionIndex === null
        ? `rolled back: the update was rejected under ${step.rule ?? 'a rule'}: ${rejectionReason(step)}`
        : `rolled back: action ${step.actionIndex} ${failureOf(step)}, so none of the update is kept (IDENT-002)`
    case 'not_reached':
      return `not reached: action ${step.actionIndex ?? '?'} ${failureOf(step)}`
    case 'not_applied':
      return `not applied: the log stops at sequence id ${stopAt === null ? '?' : stopAt.toString()}`
  }
}

/** What the action does, as a sentence with its actor: "the wallet 0x… adds installation …". */
function deed(input: NarrationInput): string {
  const { step, i, status } = input
  const u = step.update!
  const action = i >= 0 ? u.actions[i] : undefined
  if (!action) return u.actions.length === 0 ? 'an update with no actions' : 'the update as a whole'
  const done = status === 'applied'
  const subjectKind = SUBJECT_KIND[action.subject.kind]
  const subject = subjectKind ? party({ kind: subjectKind, text: action.subject.text }) : bounded(action.subject.text)
  const role = ACTOR_ROLE[action.kind]
  const signer = role ? step.signatures.find((s) => s.actionIndex === i && s.role === role)?.signer : undefined
  const actor = signer ? `the ${party(signer)}` : 'a signer that cannot be identified'
  switch (action.kind) {
    case 'create_inbox':
      return `the ${subject} ${done ? 'creates' : 'would create'} the inbox`
    case 'add':
      return `${actor} ${done ? 'adds' : 'would add'} ${subject}`
    case 'revoke': {
      let s = `${actor} ${done ? 'revokes' : 'would revoke'} ${subject}`
      const del = step.actions.find((a) => a.index === i)?.delta?.del ?? []
      const key = subjectKind ? memberKey({ kind: subjectKind, text: action.subject.text }) : null
      const cascade = del.filter((k) => k !== key).length
      if (done && key !== null && !del.includes(key)) s += ' (not a member)'
      if (done && cascade > 0) s += `, and with it ${cascade} installation${cascade === 1 ? '' : 's'} it added`
      return s
    }
    case 'change_recovery_address':
      return `${actor} ${done ? 'hands' : 'would hand'} the recovery role to ${subject}`
    case 'claim_handle':
      return `${actor} ${done ? 'claims' : 'would claim'} the handle ${JSON.stringify(bounded(action.subject.text))}`
  }
}

/** The one-line narration of action i of a step. */
export function narrate(input: NarrationInput): string {
  const { step, i } = input
  const n = step.update?.actions.length ?? 0
  const where = `Sequence id ${step.sequenceId}${n > 1 && i >= 0 ? `, action ${i} of ${n}` : ''}`
  const v = verdict(input)
  // An update that could not be decoded has no action to tell: its verdict is the whole line.
  if (!step.update) return `${where}: ${v}`
  return `${where}: ${deed(input)}${input.status === 'applied' ? ` (${v})` : `, ${v}`}`
}
