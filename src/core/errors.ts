import type { RuleId } from './rules'

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
