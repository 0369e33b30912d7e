import type { ViolationDetails } from './errors'
import type { RuleId } from './rules'
import type { ActionKind, AssociationState, MemberId, SignatureKind, SignatureRole, UnverifiedUpdate } from './types'

/** What a validator derived from one signature (spec section 4). */
export interface SignatureCheck {
  readonly actionIndex: number
  readonly role: SignatureRole
  readonly kind: SignatureKind
  /** valid: verified; invalid: verification failed; unreachable: chain could not judge (IDENT-061); unchecked: not reached. */
  readonly verdict: 'valid' | 'invalid' | 'unreachable' | 'unchecked'
  /** The signer the signature names or recovered to; null when none can be derived. */
  readonly signer: MemberId | null
  readonly chainId: bigint | null
  /** Canonical replay key (IDENT-050), lowercase hex; null when none can be derived. */
  readonly replayKey: string | null
  /** The rule a failed verification breaks: IDENT-030, or IDENT-060 for erc_6492. */
  readonly failRule: 'IDENT-030' | 'IDENT-060' | null
  /** Why the verdict is not valid, one readable line. */
  readonly reason: string
  /** What was hashed or checked, for the inspector (labels to lowercase hex or text). */
  readonly evidence: Readonly<Record<string, string>>
}

export type UpdateStatus = 'applied' | 'rejected' | 'pending' | 'not_applied'

export interface ActionStep {
  readonly index: number
  readonly kind: ActionKind
  /** State before and after this action (after is null when the action failed or was not reached). */
  readonly before: AssociationState | null
  readonly after: AssociationState | null
}

/** One update of the log, as replay judged it. */
export interface TraceStep {
  readonly sequenceId: bigint
  readonly status: UpdateStatus
  readonly rule: RuleId | null
  readonly actionIndex: number | null
  readonly message: string
  /** What the failed check compared (a rejected step whose rule apply judged). */
  readonly details?: ViolationDetails
  /** The decoded update; null when its bytes could not be decoded (IDENT-001). */
  readonly update: UnverifiedUpdate | null
  /** The update's bytes (input bytes when available). */
  readonly bytes: Uint8Array | null
  /** The exact signature text (IDENT-020); null when undecodable. */
  readonly signatureText: string | null
  readonly signatures: readonly SignatureCheck[]
  readonly actions: readonly ActionStep[]
  /** State before this update and after it (after === before unless applied). */
  readonly stateBefore: AssociationState | null
  readonly stateAfter: AssociationState | null
  readonly serverTimestampNs?: bigint
}

/** A log folded by replay: everything the app, the CLI and the node read. */
export interface Trace {
  readonly inboxId: string | null
  readonly steps: readonly TraceStep[]
  /** State after the last applied update; null when none applied. */
  readonly head: AssociationState | null
  /** True exactly when every update applied. */
  readonly ok: boolean
}
