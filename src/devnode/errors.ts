/**
 * The one error the node answers with: an HTTP status and the contract's JSON body
 * `{"code", "message", "rule"}` (../shared/contracts/cli.md, "The local node").
 */
import type { RuleViolation } from '../core/errors'
import type { RuleId } from '../core/rules'

export type ApiStatus = 400 | 404 | 405 | 409 | 413 | 415 | 422 | 500 | 503

export class ApiError extends Error {
  override readonly name = 'ApiError'
  constructor(
    readonly status: ApiStatus,
    readonly code: string,
    message: string,
    readonly rule: RuleId | null = null,
  ) {
    super(message)
  }

  body(): { code: string; message: string; rule: RuleId | null } {
    return { code: this.code, message: this.message, rule: this.rule }
  }
}

/** 409 for a rule the update breaks on the inbox's head. */
export function ruleViolation(inboxId: string, v: RuleViolation): ApiError {
  const where = v.actionIndex === null ? '' : ` (action ${v.actionIndex})`
  return new ApiError(
    409,
    'rule_violation',
    `the update does not apply to the head of inbox ${inboxId}${where}: ${v.message}`,
    v.rule,
  )
}
