/**
 * A rejection's rationale written for its failure class, not the rule's generic "why":
 * IDENT-001 covers an empty update, a truncated or malformed encoding, an unset or
 * unknown field and the retired legacy signature (field 4), and only the first is what
 * the rule's "why" (about empty updates) explains.
 */
import type { ViolationCheck, ViolationDetails } from '../../../core/errors'

export type FailureClass = 'empty' | 'truncated' | 'field-4' | 'unset' | 'unknown-field' | 'encoding' | 'rule'

/** The class of a rejection from its rule and the core's message. */
export function failureClass(rule: string | null, message: string): FailureClass {
  if (rule !== 'IDENT-001') return 'rule'
  const m = message.toLowerCase()
  if (/no actions|actions is empty|empty update/.test(m)) return 'empty'
  if (/field 4|legacy delegated/.test(m)) return 'field-4'
  if (/truncat|runs past the end|ends inside|remain/.test(m)) return 'truncated'
  if (/unknown|not listed|does not list/.test(m)) return 'unknown-field'
  if (/unset/.test(m)) return 'unset'
  return 'encoding'
}

const RATIONALE: Record<Exclude<FailureClass, 'rule' | 'empty'>, string> = {
  truncated:
    'The bytes end before a field they declare: what is missing could change any action or signature, so no part of a cut-off update can be trusted or applied.',
  'field-4':
    'Field 4 is the retired legacy delegated signature: current validators do not verify it, so an update signed only with it carries no signature anyone checks, and accepting it would let one validator apply what another rejects.',
  unset:
    'An unset kind or signature leaves the update without a meaning every validator agrees on; rejecting it keeps all validators on the same member set.',
  'unknown-field':
    'A field the definition does not list is read differently by different implementations (kept, dropped or misread), so validators would diverge on what was signed.',
  encoding:
    'Bytes that are not the IdentityUpdate defined by the spec have no single meaning: every validator must refuse them the same way.',
}

/**
 * The rationale to show: the rule's own "why" for the class it was written for (an empty
 * update under IDENT-001, any other rule), else the class's own.
 */
export function rationaleFor(rule: string | null, message: string, ruleWhy: string | undefined): string | undefined {
  const c = failureClass(rule, message)
  if (c === 'rule' || c === 'empty') return ruleWhy
  return RATIONALE[c]
}

/** Why each check of the rules in src/core/apply exists, for the failure it names. */
const CHECK_WHY: Partial<Record<ViolationCheck, string>> = {
  'signer-not-member':
    'Only a party the inbox already trusts may vouch for a change to it; a signer outside the member set could otherwise add itself or speak for the inbox.',
  'same-party':
    'Two signatures by one signer are one approval: an add needs the new member’s consent and a separate existing member’s.',
  'already-member':
    'The state records each member once, with the adder, chain and time it was added with; adding it again would rewrite that history.',
  'installation-adds-installation':
    'An installation is one device’s key: letting it add installations would let a single stolen device multiply itself without any wallet or passkey approving.',
  'chain-mismatch':
    'A smart contract wallet is the same address on every chain but a different contract on each: only the chain recorded when it joined has the contract that speaks for it.',
  replay:
    'A signature already used in this log is one approval its signer gave once; accepted again, it would repeat that approval (for example re-add what was revoked).',
  'signature-invalid':
    'A signature that does not verify over this exact signature text proves nothing about who approved the update.',
  'signature-kind':
    'Each member kind verifies one way (a wallet signature recovers an address, a key verifies with itself): a signature of another kind can never stand for this party.',
  'no-state': 'Without its CreateInbox there is no member set and no recovery identifier to check any signer against.',
  'state-exists': 'A second CreateInbox would replace every member and the recovery identifier at once.',
  'identifier-form':
    'Identifiers are compared as text: a second spelling of one address (uppercase, checksummed) would be a second member.',
  'handle-grammar': 'A handle has one spelling only, so a lookup cannot be fooled by case or look-alike characters.',
  'claim-not-alone':
    'A claim travels alone, so a node can refuse a handle another inbox holds without refusing any other change.',
  'inbox-mismatch': 'The inbox id ties an update to one log; an update naming another inbox would be filed under it.',
}

const SIGNER_WHY: Partial<Record<string, string>> = {
  initial_identifier_signature:
    'The inbox id is derived from the initial identifier: only that identifier’s own signature proves its holder created the inbox.',
  new_member_signature:
    'An add needs the consent of the member being added: a signature by anyone else would enrol a key or wallet that never agreed to join.',
  recovery_identifier_signature:
    'Revoking is the recovery identifier’s alone: it is the one party that can undo a compromised member, so no member may act for it.',
  existing_recovery_identifier_signature:
    'Changing the recovery identifier is the current recovery identifier’s alone, or a compromised member could take the inbox over.',
}

const IDENT_001_FIX: Record<Exclude<FailureClass, 'rule'>, string> = {
  empty: 'Add at least one action to the update.',
  truncated: 'Send the update’s complete bytes: the input was cut off.',
  'field-4':
    'Sign again with a signature kind the spec lists (erc_191, erc_6492, installation_key or passkey); the legacy field 4 is never verified.',
  unset: 'Set the kind or signature the message names.',
  'unknown-field': 'Remove the fields the IdentityUpdate definition does not list.',
  encoding: 'Send an IdentityUpdate as the spec defines it (protobuf bytes or its proto3 JSON).',
}

function checkFix(d: ViolationDetails): string | undefined {
  const { expected, found } = d
  switch (d.check) {
    case 'signer-mismatch':
      return d.role === 'new_member_signature'
        ? `Have ${expected} sign the new member signature, or name ${found} as new_member_identifier.`
        : d.role === 'initial_identifier_signature'
          ? `Sign with ${expected}, the initial_identifier (or make ${found} the initial_identifier; the inbox id changes with it).`
          : `Sign with the recovery identifier, ${expected}.`
    case 'signer-not-member':
      return d.recovery
        ? 'Sign the existing member signature with one of the members it was checked against, or with the recovery identifier.'
        : 'Sign the claim with a current member of the inbox.'
    case 'same-party':
      return 'Have an existing member other than the new member sign the existing member signature.'
    case 'already-member':
      return `Drop this action: ${found} is already a member.`
    case 'installation-adds-installation':
      return 'Sign the existing member signature with an Ethereum or passkey member.'
    case 'chain-mismatch':
      return `Sign on chain ${expected}, the one recorded for this signer (this signature is on ${found}).`
    case 'replay':
      return 'Ask the signer for a fresh signature over this update’s signature text; never reuse one from an earlier update.'
    case 'no-replay-key':
      return 'Provide a signature whose replay key can be derived (a complete signature of a listed kind).'
    case 'signature-invalid':
      return 'Sign the exact signature text of this update (same inbox id, client time and actions) with the signer’s key.'
    case 'signature-kind':
      return `Use a ${expected} signature for this party.`
    case 'no-state':
      return 'Open the whole log from its CreateInbox, or start the log with one.'
    case 'state-exists':
      return 'Remove the CreateInbox; add further members with AddAssociation.'
    case 'identifier-kind':
      return `Set the identifier kind to one of ${expected}.`
    case 'identifier-form':
      return found && /^0x[0-9a-fA-F]{40}$/.test(found)
        ? `Write the address in lowercase: ${found.toLowerCase()}.`
        : 'Write the address as 0x followed by 40 lowercase hexadecimal characters.'
    case 'handle-grammar':
      return d.position !== undefined && found !== undefined && d.position < found.length
        ? `Change the character at position ${d.position} (${JSON.stringify(found[d.position])}): a handle is a lowercase letter, then up to 26 of a-z, 0-9, _ and -, then an optional # and four digits.`
        : 'Complete the handle: a lowercase letter, then up to 26 of a-z, 0-9, _ and -, then an optional # and four digits.'
    case 'claim-limit':
      return 'No further claim can apply in this log; keep a handle the inbox already holds.'
    case 'claim-not-alone':
      return 'Send the ClaimHandle as an update of its own.'
    case 'inbox-mismatch':
      return `Set the update’s inbox_id to ${expected}.`
    case 'empty':
      return 'Add at least one action to the update.'
  }
}

export interface FixIt {
  /** Why the check exists, for this failure. */
  readonly why: string | undefined
  /** What would make the update apply. */
  readonly toFix: string | undefined
}

/**
 * The rationale and the fix of a rejection: written for the check that failed when the
 * core gave its details, for the IDENT-001 failure class otherwise, else the rule's "why".
 */
export function fixItFor(
  rule: string | null,
  message: string,
  details: ViolationDetails | undefined,
  ruleWhy: string | undefined,
): FixIt {
  if (details) {
    const why =
      details.check === 'signer-mismatch' && details.role
        ? (SIGNER_WHY[details.role] ?? ruleWhy)
        : (CHECK_WHY[details.check] ?? ruleWhy)
    return { why, toFix: checkFix(details) }
  }
  const c = failureClass(rule, message)
  return { why: rationaleFor(rule, message, ruleWhy), toFix: c === 'rule' ? undefined : IDENT_001_FIX[c] }
}
