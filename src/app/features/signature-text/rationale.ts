/**
 * A rejection's rationale written for its failure class, not the rule's generic "why":
 * IDENT-001 covers an empty update, a truncated or malformed encoding, an unset or
 * unknown field and the retired legacy signature (field 4), and only the first is what
 * the rule's "why" (about empty updates) explains.
 */
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
