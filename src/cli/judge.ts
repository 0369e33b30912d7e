/**
 * Replay one update at a time (`watch`): the verdict of each update of a log as it
 * arrives, on the state the earlier ones left, exactly as src/core/replay.ts's fold
 * judges it within the whole log (IDENT-004: in ascending sequence id; the log is not
 * read past a rejected or pending update), without replaying the log again per update.
 * Each step is the fold's step for one entry, built from the same core functions in the
 * same order; ./judge.test.ts holds every fixture's rows equal to replay's.
 */
import { applyUpdate, PendingUpdate, RejectedUpdate } from '../core/apply/update'
import { isDecoded } from '../core/decode/entry'
import { signatureFreeRefusal, verifyUntilDecided } from '../core/judge-order'
import type { RuleId } from '../core/rules'
import type { AssociationState, LogEntry } from '../core/types'
import type { UpdateVerifyOptions } from '../core/verify/update'

/** One update's verdict: the fields of a row of `replay`'s report. */
export interface Verdict {
  readonly sequenceId: bigint
  readonly status: 'applied' | 'rejected' | 'pending' | 'not_applied'
  readonly rule: RuleId | null
  readonly actionIndex: number | null
  readonly message: string
}

export class IncrementalReplay {
  private state: AssociationState | null = null
  private stoppedAt: bigint | null = null
  private last: bigint | null = null

  constructor(private readonly opts: UpdateVerifyOptions = {}) {}

  /** The state after the last applied update (null when none applied). */
  get head(): AssociationState | null {
    return this.state
  }

  /**
   * Judges the next update of the log. @throws Error when its sequence id is not above the
   * previous one's (the caller keeps the log in order, IDENT-004)
   */
  async push(entry: LogEntry): Promise<Verdict> {
    const seq = entry.sequenceId
    if (this.last !== null && seq <= this.last) {
      throw new Error(`sequence id ${seq} is not above the last judged, ${this.last} (IDENT-004)`)
    }
    this.last = seq
    const u = entry.update
    if (this.stoppedAt !== null) {
      return verdict(seq, 'not_applied', null, null, `log cannot be read past sequence id ${this.stoppedAt}`)
    }
    if (!isDecoded(u)) {
      this.stoppedAt = seq
      return verdict(seq, 'rejected', 'IDENT-001', u.actionIndex ?? null, u.error.replace(/^IDENT-001: /, ''))
    }
    // As replay: a rule that needs no signature refuses before any is verified.
    const refusal = signatureFreeRefusal(this.state, u)
    if (refusal) {
      this.stoppedAt = seq
      const v = refusal.violation
      return verdict(seq, 'rejected', v.rule, v.actionIndex, v.message)
    }
    const verified = await verifyUntilDecided(this.state, u, seq, this.opts, undefined, true)
    try {
      this.state = applyUpdate(this.state, verified, seq).state
      return verdict(seq, 'applied', null, null, '')
    } catch (e) {
      this.stoppedAt = seq
      if (e instanceof RejectedUpdate) {
        const v = e.violation
        return verdict(seq, 'rejected', v.rule, v.actionIndex, v.message)
      }
      if (e instanceof PendingUpdate) {
        return verdict(
          seq,
          'pending',
          'IDENT-061',
          e.checks[0]?.actionIndex ?? null,
          `a smart contract wallet signature could not be judged, retry later: ${e.message}`,
        )
      }
      this.stoppedAt = null
      throw e
    }
  }
}

function verdict(
  sequenceId: bigint,
  status: Verdict['status'],
  rule: RuleId | null,
  actionIndex: number | null,
  message: string,
): Verdict {
  return { sequenceId, status, rule, actionIndex, message }
}
