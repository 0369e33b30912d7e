/**
 * replay: folds a log into a Trace (IDENT-004, IDENT-070, IDENT-071). Updates are
 * applied in ascending sequence id; the log is not read past a rejected or pending
 * update. The app, the CLI report and the local node's admission all read this Trace.
 */
import { LogInputError, type RuleViolation } from './errors'
import type { ActionStep, SignatureCheck, Trace, TraceStep } from './trace'
import type { AssociationState, InboxLog, LogEntry, UnverifiedUpdate, UndecodableUpdate } from './types'
import { applyUpdate, PendingUpdate, RejectedUpdate } from './apply/update'
import { refusedUnverified, signatureFreeRefusal, verifyUntilDecided } from './judge-order'
import { describeUnverified, verifyUpdate, type UpdateVerifyOptions, type VerifiedUpdate } from './verify/update'

/** A verification stage: the verified update for the update at `index` of the sorted log. */
export type VerifyStage = (update: UnverifiedUpdate, index: number) => Promise<VerifiedUpdate>

/** The options of verifyUpdate (smart wallet port, crypto backend, verdict cache) and of the fold. */
export interface ReplayOptions extends UpdateVerifyOptions {
  /** Called after each update with the number done and the total. */
  readonly onProgress?: (done: number, total: number) => void
  /**
   * Called with each step as it is added to the Trace, in order (`index` is its place in
   * `Trace.steps`). A step is final when given: the app's worker converts and posts it
   * while later updates are still being verified.
   */
  readonly onStep?: (step: TraceStep, index: number) => void
  /** Stops the replay between updates; the promise rejects with the signal's reason. */
  readonly signal?: AbortSignal
  /** Verifies the signatures of updates after the log stops too (for the inspector). Default false. */
  readonly verifyAfterStop?: boolean
  /**
   * The verification stage (default: verifyUpdate with these options, one update at a
   * time, as the log is applied). A stage may verify in parallel (src/core/verify/pool.ts):
   * replay asks it for updates in log order, up to `verifyAhead` updates ahead of the one
   * it applies, and still applies them one by one in log order. The Trace is the same.
   */
  readonly verify?: VerifyStage
  /** How many updates the stage is asked for ahead of application. Default 0. */
  readonly verifyAhead?: number
  /**
   * The state before the log's first entry (default null: the log starts at its
   * CreateInbox). An incremental replay passes the head state a replay of the earlier
   * updates produced, and the log of the updates after it; the steps are those the whole
   * log's replay would give for them (the fold is the same, IDENT-004).
   */
  readonly from?: AssociationState | null
}

/**
 * Verifications in log order, asked for up to `ahead` entries before they are needed.
 * An answer asked ahead for an update the log never reaches is dropped (replay then
 * describes that update as unverified, as it always did); its failure is never unhandled.
 */
class Prefetch {
  private readonly asked = new Map<number, Promise<VerifiedUpdate>>()
  private next = 0
  constructor(
    private readonly entries: readonly LogEntry[],
    private readonly stage: VerifyStage,
    private readonly ahead: number,
  ) {}

  get(n: number, u: UnverifiedUpdate): Promise<VerifiedUpdate> {
    // The update needed now is asked first, then the ones ahead of it.
    let p = this.asked.get(n)
    this.asked.delete(n)
    if (!p) p = this.stage(u, n)
    // Refill the window only when half of it is used, so a stage sees its asks in runs
    // (a pool batches them, a cache reads them in one transaction).
    this.next = Math.max(this.next, n + 1)
    const limit = this.next - n - 1 < this.ahead / 2 ? Math.min(this.entries.length, n + 1 + this.ahead) : this.next
    for (; this.next < limit; this.next++) {
      const e = this.entries[this.next]!.update
      if (!isDecoded(e)) continue
      const ahead = this.stage(e, this.next)
      ahead.catch(() => undefined)
      this.asked.set(this.next, ahead)
    }
    return p
  }

  /** Forgets answers asked ahead (the log stopped and they will not be read). */
  drop(): void {
    this.asked.clear()
  }
}

const isDecoded = (u: LogEntry['update']): u is UnverifiedUpdate => !('error' in u)

/** Entries in ascending sequence id (IDENT-004); two entries with one id make the log unreadable. */
export function sortedEntries(log: InboxLog): LogEntry[] {
  const entries = [...log.entries].sort((a, b) =>
    a.sequenceId < b.sequenceId ? -1 : a.sequenceId > b.sequenceId ? 1 : 0,
  )
  for (let i = 1; i < entries.length; i++) {
    if (entries[i]!.sequenceId === entries[i - 1]!.sequenceId) {
      throw new LogInputError(
        log.format,
        `sequence id ${entries[i]!.sequenceId}`,
        `two updates carry sequence id ${entries[i]!.sequenceId}`,
      )
    }
  }
  return entries
}

function undecodedStep(
  entry: LogEntry,
  u: UndecodableUpdate,
  state: AssociationState | null,
  status: 'rejected' | 'not_applied',
  message: string,
): TraceStep {
  return {
    sequenceId: entry.sequenceId,
    status,
    rule: status === 'rejected' ? 'IDENT-001' : null,
    actionIndex: status === 'rejected' ? (u.actionIndex ?? null) : null,
    message,
    update: null,
    bytes: u.bytes ?? null,
    signatureText: null,
    signatures: [],
    actions: [],
    stateBefore: state,
    stateAfter: state,
    ...(entry.serverTimestampNs !== undefined ? { serverTimestampNs: entry.serverTimestampNs } : {}),
  }
}

/** The verdict fields of a step. */
type StepFields = Pick<TraceStep, 'status' | 'rule' | 'actionIndex' | 'message' | 'details'>

/** An applied step's verdict fields. */
const APPLIED: StepFields = { status: 'applied', rule: null, actionIndex: null, message: '' }

/**
 * The step of a decoded update, written out: the fields in one order, with no object spread
 * (a spread object literal is built by a runtime call, for every update).
 */
function decodedStep(
  entry: LogEntry,
  v: VerifiedUpdate,
  before: AssociationState | null,
  after: AssociationState | null,
  fields: StepFields,
  actions: readonly ActionStep[],
): TraceStep {
  const step: { -readonly [K in keyof TraceStep]: TraceStep[K] } = {
    sequenceId: entry.sequenceId,
    status: fields.status,
    rule: fields.rule,
    actionIndex: fields.actionIndex,
    message: fields.message,
    update: v.update,
    bytes: v.update.bytes,
    signatureText: v.text,
    signatures: v.checks,
    actions,
    stateBefore: before,
    stateAfter: after,
  }
  if (fields.details !== undefined) step.details = fields.details
  if (entry.serverTimestampNs !== undefined) step.serverTimestampNs = entry.serverTimestampNs
  return step
}

/** A rejected step's fields from the violation, with its details when it has them. */
function rejectedFields(v: RuleViolation): StepFields {
  const { rule, actionIndex, message, details } = v
  return details
    ? { status: 'rejected', rule, actionIndex, message, details }
    : { status: 'rejected', rule, actionIndex, message }
}

/** One empty list for every step that has none (a step's lists are never mutated). */
const NONE: readonly never[] = Object.freeze([])

/**
 * The step of an update the log does not reach (issue #14, finding 8): its signature text
 * and its unchecked signatures are built when a view reads them, not for every update of
 * a huge log that stopped early. Read once, each is kept, so a view sees one value.
 *
 * A class with its getters on the prototype, fields always the same and in one order: an
 * object literal with own getters (and a conditional spread) is a dictionary-mode object
 * in V8, about 1,080 bytes a step, where this is about 100 (a million tiny updates took
 * 75 times the file). Views and the app's transfer (src/worker/transfer.ts) read the
 * fields by name, so a getter answers like a field.
 */
class UnreadStep implements TraceStep {
  readonly status = 'not_applied' as const
  readonly rule = null
  readonly actionIndex = null
  readonly actions: readonly ActionStep[] = NONE
  readonly bytes: Uint8Array
  readonly stateAfter: AssociationState | null
  declare readonly serverTimestampNs?: bigint
  constructor(
    readonly sequenceId: bigint,
    readonly update: UnverifiedUpdate,
    readonly stateBefore: AssociationState | null,
    readonly message: string,
    serverTimestampNs: bigint | undefined,
  ) {
    this.bytes = update.bytes
    this.stateAfter = stateBefore
    if (serverTimestampNs !== undefined) this.serverTimestampNs = serverTimestampNs
  }
  get signatureText(): string {
    return described(this).text
  }
  get signatures(): readonly SignatureCheck[] {
    return described(this).checks
  }
}

function unreadStep(entry: LogEntry, u: UnverifiedUpdate, state: AssociationState | null, message: string): TraceStep {
  return new UnreadStep(entry.sequenceId, u, state, message, entry.serverTimestampNs)
}

/** The described update of each unread step once read (kept outside the step, so two Traces compare equal). */
const UNREAD = new WeakMap<object, VerifiedUpdate>()

function described(step: { readonly update: UnverifiedUpdate }): VerifiedUpdate {
  let v = UNREAD.get(step)
  if (!v) {
    v = describeUnverified(step.update)
    UNREAD.set(step, v)
  }
  return v
}

export async function replay(log: InboxLog, opts: ReplayOptions = {}): Promise<Trace> {
  const entries = sortedEntries(log)
  const steps: TraceStep[] = []
  const push = (step: TraceStep): void => {
    steps.push(step)
    opts.onStep?.(step, steps.length - 1)
  }
  let state: AssociationState | null = opts.from ?? null
  let stoppedAt: bigint | null = null
  // One message for every step past the stop (a string per step cost 56 bytes each).
  let pastStop = ''
  const stage: VerifyStage = opts.verify ?? ((u) => verifyUpdate(u, opts))
  const prefetch = new Prefetch(entries, stage, opts.verify ? Math.max(0, opts.verifyAhead ?? 0) : 0)
  for (let n = 0; n < entries.length; n++) {
    const entry = entries[n]!
    opts.signal?.throwIfAborted()
    const u = entry.update
    if (stoppedAt !== null) {
      if (pastStop === '') pastStop = `log cannot be read past sequence id ${stoppedAt}`
      const message = pastStop
      if (!isDecoded(u)) push(undecodedStep(entry, u, state, 'not_applied', message))
      else if (opts.verifyAfterStop) {
        const v = await prefetch.get(n, u)
        push(decodedStep(entry, v, state, state, { status: 'not_applied', rule: null, actionIndex: null, message }, []))
      } else push(unreadStep(entry, u, state, message))
    } else if (!isDecoded(u)) {
      push(undecodedStep(entry, u, state, 'rejected', u.error.replace(/^IDENT-001: /, '')))
      stoppedAt = entry.sequenceId
      if (!opts.verifyAfterStop) prefetch.drop()
    } else {
      // Issue #14, finding 1: a rule that needs no signature refuses before any is verified.
      const refusal = opts.verifyAfterStop ? null : signatureFreeRefusal(state, u)
      if (refusal) {
        const v = refusedUnverified(u, refusal)
        push(decodedStep(entry, v, state, state, rejectedFields(refusal.violation), refusal.actions))
        stoppedAt = entry.sequenceId
        prefetch.drop()
        opts.onProgress?.(n + 1, entries.length)
        continue
      }
      // Verified one update at a time, verification stops once a failed check decides the
      // verdict; a stage given (a pool) verifies ahead, and the inspector wants every check.
      const v =
        opts.verify || opts.verifyAfterStop
          ? await prefetch.get(n, u)
          : await verifyUntilDecided(state, u, entry.sequenceId, opts, undefined, true)
      try {
        const applied = applyUpdate(state, v, entry.sequenceId)
        push(decodedStep(entry, v, state, applied.state, APPLIED, applied.actions))
        state = applied.state
      } catch (e) {
        if (e instanceof RejectedUpdate) {
          push(decodedStep(entry, v, state, state, rejectedFields(e.violation), e.actions))
        } else if (e instanceof PendingUpdate) {
          const message = `a smart contract wallet signature could not be judged, retry later: ${e.message}`
          push(
            decodedStep(
              entry,
              v,
              state,
              state,
              { status: 'pending', rule: 'IDENT-061', actionIndex: e.checks[0]?.actionIndex ?? null, message },
              e.actions,
            ),
          )
        } else throw e
        stoppedAt = entry.sequenceId
        if (!opts.verifyAfterStop) prefetch.drop()
      }
    }
    opts.onProgress?.(n + 1, entries.length)
  }
  return { inboxId: traceInboxId(log, steps), steps, head: state, ok: steps.every((s) => s.status === 'applied') }
}

/** The log's inbox id: from the container, else the derived one, else the first update's. */
function traceInboxId(log: InboxLog, steps: readonly TraceStep[]): string | null {
  if (log.inboxId) return log.inboxId
  for (const s of steps) if (s.stateAfter) return s.stateAfter.inboxId
  for (const s of steps) if (s.update) return s.update.inboxId
  return null
}

export type StateAt =
  | { readonly state: AssociationState; readonly error?: undefined }
  | { readonly state: null; readonly error: string }

/**
 * IDENT-070: the state at a sequence id is the state produced by every update up to
 * it, only when an update carries that id, and only when the log can be read that far.
 */
export function stateAt(trace: Trace, sequenceId: bigint): StateAt {
  const step = trace.steps.find((s) => s.sequenceId === sequenceId)
  if (!step) return { state: null, error: `no update of the log carries sequence id ${sequenceId} (IDENT-070)` }
  if (step.status === 'applied' && step.stateAfter) return { state: step.stateAfter }
  const why =
    step.status === 'not_applied'
      ? step.message
      : step.status === 'pending'
        ? `the update at sequence id ${sequenceId} is pending (IDENT-061)`
        : `the update at sequence id ${sequenceId} was rejected under ${step.rule}`
  return { state: null, error: `no association state at sequence id ${sequenceId}: ${why} (IDENT-070)` }
}
