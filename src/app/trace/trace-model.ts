/**
 * The app's view of a replayed log: the transfer steps from the worker, with states
 * rebuilt lazily from their deltas. Memory stays O(n): the steps, plus a checkpoint
 * state every CHECKPOINT updates (persistent collections, so checkpoints share
 * structure). Reading the state at any step replays at most CHECKPOINT updates' deltas.
 */
import type { AssociationState } from '../../core/types'
import type { SignatureCheck } from '../../core/trace'
import { memberKey } from '../../core/types'
import { applyDelta, type StateDelta, type TransferStep } from '../../worker/transfer'

const CHECKPOINT = 64
/** States kept from the latest rebuilds (TraceModel.recent): two checkpoint spans. */
const RECENT = 2 * CHECKPOINT
/** Action views (and signature lists) kept from the latest steps (TraceModel.views). */
const RECENT_VIEWS = 64

/** How one action of one update fared. */
export type ActionStatus = 'applied' | 'rejected' | 'rolled_back' | 'pending' | 'not_reached' | 'not_applied'

/** One row of the timeline: an action of an update (or the whole update, action -1, when it has none to show). */
export interface Row {
  readonly k: number
  readonly i: number
}

export interface Selection {
  readonly k: number
  readonly i: number
}

export interface ActionView {
  readonly before: AssociationState | null
  readonly after: AssociationState | null
  /** True when `after` is a state the update did not keep (rolled back, failed, pending, not applied). */
  readonly tentative: boolean
  /** The member keys the step put or deleted (from the deltas): the diff reads these instead of every member. */
  readonly touched: readonly string[]
}

function touchedBy(deltas: readonly (StateDelta | null | undefined)[]): string[] {
  const keys = new Set<string>()
  for (const d of deltas) {
    if (!d) continue
    for (const m of d.put ?? []) keys.add(memberKey(m.id))
    for (const k of d.del ?? []) keys.add(k)
  }
  return [...keys]
}

function applyStep(state: AssociationState | null, step: TransferStep): AssociationState | null {
  if (step.status !== 'applied') return state
  let s = state
  for (const a of step.actions) if (a.delta) s = applyDelta(s, a.delta)
  if (step.final) s = applyDelta(s, step.final)
  return s
}

export class TraceModel {
  private readonly checkpoints = new Map<number, AssociationState | null>()
  private last: { k: number; state: AssociationState | null } | null = null
  /**
   * The states rebuilt lately, by update (oldest first, at most RECENT): every state a
   * rebuild passes on its way is kept, so stepping back (which asks for the state before
   * the step) finds it instead of rebuilding from a checkpoint again. Persistent
   * collections: the states share nearly all their structure.
   */
  private readonly recent = new Map<number, AssociationState | null>()

  /**
   * The action views and signature lists asked for lately, by row (oldest first, at most
   * RECENT_VIEWS): a step back or forward finds the view it showed instead of rebuilding
   * it, and the same view keeps its identity, so what is derived from its states (the
   * diff, the member order) is found again too.
   */
  private readonly views = new Map<string, { view?: ActionView; sigs?: readonly SignatureCheck[] }>()

  constructor(readonly steps: readonly TransferStep[]) {}

  private cached(k: number, i: number): { view?: ActionView; sigs?: readonly SignatureCheck[] } {
    const key = `${k}:${i}`
    let v = this.views.get(key)
    if (v) this.views.delete(key)
    else v = {}
    this.views.set(key, v)
    if (this.views.size > RECENT_VIEWS) this.views.delete(this.views.keys().next().value!)
    return v
  }

  private remember(k: number, state: AssociationState | null): void {
    this.recent.delete(k)
    this.recent.set(k, state)
    if (this.recent.size > RECENT) this.recent.delete(this.recent.keys().next().value!)
  }

  /** The state after update k (k = -1: before the log, no state). */
  stateAfter(k: number): AssociationState | null {
    if (k < 0) return null
    if (k >= this.steps.length) k = this.steps.length - 1
    if (this.last?.k === k) return this.last.state
    if (this.recent.has(k)) {
      const state = this.recent.get(k)!
      this.last = { k, state }
      return state
    }
    let from = -1
    let state: AssociationState | null = null
    if (this.last && this.last.k < k && k - this.last.k <= CHECKPOINT) {
      from = this.last.k
      state = this.last.state
    } else {
      for (let c = Math.floor((k + 1) / CHECKPOINT) * CHECKPOINT - 1; c >= 0; c -= CHECKPOINT) {
        if (this.checkpoints.has(c)) {
          from = c
          state = this.checkpoints.get(c)!
          break
        }
      }
    }
    for (let j = from + 1; j <= k; j++) {
      state = applyStep(state, this.steps[j]!)
      if ((j + 1) % CHECKPOINT === 0) this.checkpoints.set(j, state)
      this.remember(j, state)
    }
    this.last = { k, state }
    return state
  }

  private warmed = -1

  /**
   * Computes checkpoints ahead of need, for at most `budgetMs`, so a jump far into the
   * log (End) rebuilds at most CHECKPOINT updates. Returns true while work is left.
   */
  warm(budgetMs: number): boolean {
    const t0 = performance.now()
    let j = this.warmed + 1
    let state = this.warmed >= 0 ? this.checkpoints.get(this.warmed)! : null
    while (j < this.steps.length) {
      state = applyStep(state, this.steps[j]!)
      if ((j + 1) % CHECKPOINT === 0) {
        this.checkpoints.set(j, state)
        this.warmed = j
        if (performance.now() - t0 > budgetMs) return j + 1 < this.steps.length
      }
      j++
    }
    this.warmed = this.steps.length - 1
    return false
  }

  stateBefore(k: number): AssociationState | null {
    return this.stateAfter(k - 1)
  }

  /** Before and after action i of update k (i = -1: the update as a whole); the same object while it is recent. */
  actionView(k: number, i: number): ActionView {
    const c = this.cached(k, i)
    c.view ??= this.buildView(k, i)
    return c.view
  }

  private buildView(k: number, i: number): ActionView {
    const step = this.steps[k]!
    const before0 = this.stateBefore(k)
    if (i < 0) {
      const applied = step.status === 'applied'
      return {
        before: before0,
        after: applied ? this.stateAfter(k) : before0,
        tentative: !applied,
        touched: applied ? touchedBy([...step.actions.map((a) => a.delta), step.final]) : [],
      }
    }
    let s = before0
    for (const a of step.actions) {
      if (a.index >= i) break
      if (a.delta) s = applyDelta(s, a.delta)
    }
    const act = step.actions.find((a) => a.index === i)
    const isLast = step.update ? i === step.update.actions.length - 1 : true
    if (step.status === 'applied' && isLast)
      return { before: s, after: this.stateAfter(k), tentative: false, touched: touchedBy([act?.delta, step.final]) }
    if (!act?.delta) return { before: s, after: s, tentative: step.status !== 'applied', touched: [] }
    return {
      before: s,
      after: applyDelta(s, act.delta),
      tentative: step.status !== 'applied',
      touched: touchedBy([act.delta]),
    }
  }

  /**
   * How step (k, i) fared, as the inspector shows it: action i's own status, or for the
   * update as a whole (i = -1) the update's.
   */
  statusOf(k: number, i: number): ActionStatus {
    return i >= 0 ? this.actionStatus(k, i) : this.steps[k]!.status
  }

  actionStatus(k: number, i: number): ActionStatus {
    const step = this.steps[k]!
    switch (step.status) {
      case 'applied':
        return 'applied'
      case 'not_applied':
        return 'not_applied'
      case 'pending':
        return step.actionIndex === i ? 'pending' : 'not_reached'
      case 'rejected': {
        if (step.actionIndex === null)
          return i >= 0 && step.actions.some((a) => a.index === i && a.delta) ? 'rolled_back' : 'rejected'
        if (i === step.actionIndex) return 'rejected'
        return i < step.actionIndex ? 'rolled_back' : 'not_reached'
      }
    }
  }

  /** The signatures of action i (all of the update's for i = -1); the same array while it is recent. */
  signaturesOf(k: number, i: number): readonly SignatureCheck[] {
    const sigs = this.steps[k]!.signatures
    if (i < 0) return sigs
    const c = this.cached(k, i)
    c.sigs ??= sigs.filter((s) => s.actionIndex === i)
    return c.sigs
  }

  /** appliedUpTo[k]: updates applied up to and including update k (counted once, on first ask). */
  private appliedUpTo: Int32Array | undefined

  /** Number of updates applied up to and including update k: the log entries the state used. */
  appliedThrough(k: number): number {
    if (k < 0 || this.steps.length === 0) return 0
    if (!this.appliedUpTo) {
      const a = new Int32Array(this.steps.length)
      let n = 0
      this.steps.forEach((s, j) => {
        if (s.status === 'applied') n++
        a[j] = n
      })
      this.appliedUpTo = a
    }
    return this.appliedUpTo[Math.min(k, this.steps.length - 1)]!
  }

  private stop: number | undefined

  /** The index of the update where the log stops (rejected or pending), or -1 (found once: every step's render asks). */
  stopIndex(): number {
    this.stop ??= this.steps.findIndex((s) => s.status === 'rejected' || s.status === 'pending')
    return this.stop
  }
}

/** Every row of the timeline, in order: each action of each update, or the update itself when it has no decoded action. */
export function allRows(steps: readonly TransferStep[]): Row[] {
  const rows: Row[] = []
  steps.forEach((s, k) => {
    const n = s.update?.actions.length ?? 0
    if (n === 0) rows.push({ k, i: -1 })
    else for (let i = 0; i < n; i++) rows.push({ k, i })
  })
  return rows
}
