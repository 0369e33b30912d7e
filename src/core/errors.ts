import type { RuleId } from './rules'
import type { SignatureRole } from './types'

/**
 * Which check of its rule a violation failed: one rule (IDENT-040) has several, and a
 * rejection's rationale and fix are written per check, not per rule.
 */
export type ViolationCheck =
  | 'empty'
  | 'claim-not-alone'
  | 'inbox-mismatch'
  | 'no-state'
  | 'state-exists'
  | 'identifier-kind'
  | 'identifier-form'
  | 'signature-kind'
  | 'signature-invalid'
  | 'signer-mismatch'
  | 'signer-not-member'
  | 'same-party'
  | 'already-member'
  | 'installation-adds-installation'
  | 'chain-mismatch'
  | 'no-replay-key'
  | 'replay'
  | 'handle-grammar'
  | 'claim-limit'

/**
 * What a violation compared, as structured fields for the inspector's fix-it (issue #12).
 * Plain strings and numbers, so a step carrying them survives structuredClone. Member
 * texts are `describeMember` ("ethereum 0x…"); chains are "eip155:N" or "none".
 */
export interface ViolationDetails {
  readonly check: ViolationCheck
  /** The signature the check read. */
  readonly role?: SignatureRole
  /** What the rule requires here: the signer, identifier, kinds, chain, limit. */
  readonly expected?: string
  /** What the update carries, or the signer a signature recovered to. */
  readonly found?: string
  /** The members the signer was checked against (at most MEMBERS_LISTED of them). */
  readonly members?: readonly string[]
  /** How many members the state has, when `members` lists only some. */
  readonly memberCount?: number
  /** The recovery identifier the signer was checked against. */
  readonly recovery?: string
  /** IDENT-050: the replay key that was already seen. */
  readonly replayKey?: string
  /** IDENT-078: the 0-based character position where the handle grammar fails. */
  readonly position?: number
}

/** How many members a violation's details list at most (a state may hold thousands). */
export const MEMBERS_LISTED = 32

/**
 * A rule of the spec that an update fails. Thrown at the check; replay turns it into
 * a `rejected` step. `actionIndex` is the 0-based failing action, or null when the
 * failure is not tied to one action (an empty update, IDENT-003, IDENT-079).
 */
export class RuleViolation extends Error {
  override readonly name = 'RuleViolation'
  constructor(
    readonly rule: RuleId,
    readonly actionIndex: number | null,
    message: string,
    /** What the check compared; null for a violation raised without them (decode). */
    readonly details: ViolationDetails | null = null,
  ) {
    super(message)
  }
}

/**
 * Input that is not a log at all: not JSON, not protobuf, truncated. `format` names
 * the format that was tried; `where` the byte offset or JSON path of the failure.
 */
export class LogInputError extends Error {
  override readonly name = 'LogInputError'
  constructor(
    readonly format: string,
    readonly where: string,
    readonly detail: string,
    /** For auto-detection: why each other format was refused. */
    readonly attempts: readonly { format: string; where: string; detail: string }[] = [],
  ) {
    super(`${format}: ${detail}${where ? ` (at ${where})` : ''}`)
  }
}

/**
 * A smart contract wallet signature could not be judged: no route for the chain, or
 * the chain call failed (IDENT-061). Never a rejection: replay maps it to `pending`.
 */
export class ChainUnreachableError extends Error {
  override readonly name = 'ChainUnreachableError'
  constructor(
    readonly chainId: bigint,
    readonly reason: string,
  ) {
    super(`chain eip155:${chainId} could not be reached: ${reason}`)
  }
}
