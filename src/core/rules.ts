/**
 * The rule ids of ../shared/spec/identity-updates.txt and their one-line titles.
 * Every RuleViolation names one of these; the traceability test reads the spec and
 * checks that every id in scope is listed here and named by a test.
 */
export const RULES = {
  'IDENT-001': 'Identity update wire format',
  'IDENT-002': 'Whole update or nothing',
  'IDENT-003': 'The update names its inbox',
  'IDENT-004': 'Apply in log order',
  'IDENT-005': 'Admission checks this spec',
  'IDENT-010': 'Inbox id derivation',
  'IDENT-011': 'Creation opens the log',
  'IDENT-012': 'The creator is the first member',
  'IDENT-013': 'Ethereum identifier form',
  'IDENT-020': 'One text for every signature',
  'IDENT-030': 'Verify by kind',
  'IDENT-031': 'The kind matches the member',
  'IDENT-040': 'Both parties approve an add',
  'IDENT-041': 'Permitted pairs only',
  'IDENT-042': 'An add records its adder',
  'IDENT-043': 'Only the recovery identifier revokes',
  'IDENT-044': 'Revocation cascades to installations',
  'IDENT-045': 'Only the recovery identifier changes recovery',
  'IDENT-046': 'A signer keeps its chain',
  'IDENT-050': 'A signature is used once',
  'IDENT-060': 'Verify at the stated block',
  'IDENT-061': 'Unreachable is not invalid',
  'IDENT-062': 'Fresh block at admission',
  'IDENT-070': 'State at a sequence id',
  'IDENT-071': 'A client validates for itself',
  'IDENT-072': 'Registration is visible before it is complete',
  'IDENT-073': 'Pre-authentication before a registration signature',
  'IDENT-074': 'No pre-authentication without a signature',
  'IDENT-075': 'Failed pre-authentication stops registration',
  'IDENT-076': 'The app can set a pre-authentication handler',
  'IDENT-077': 'Only signing identifier kinds',
  'IDENT-078': 'Handle grammar',
  'IDENT-079': 'A claim stands alone',
  'IDENT-080': 'At most 64 claims',
  'IDENT-081': 'A current member signs a claim',
  'IDENT-082': 'Applying a claim',
  'IDENT-083': 'Only a claim changes handles',
  'IDENT-084': 'Claim policy is admission only',
  'IDENT-085': 'A handle answer is checked',
  'IDENT-086': 'The current handle first',
  'IDENT-087': 'Apps show the current handle',
  'IDENT-088': 'Stable local key export',
  'IDENT-089': 'Restore the same account',
} as const

export type RuleId = keyof typeof RULES

export function isRuleId(s: string): s is RuleId {
  return Object.hasOwn(RULES, s)
}
