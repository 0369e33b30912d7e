/**
 * The Diff tab's model: the change between any two steps of a log, built on
 * model/state-diff. The target is the selected row; the base is the step before it (the
 * default: what this step changed) or any row of the log (a "Compare with…" choice or a
 * row pinned in the timeline), earlier or later. Pure over the trace model's states.
 */
import type { AssociationState } from '../../../core/types'
import { diffStates, type StateDiff } from '../../model/state-diff'
import type { ActionView, Row } from '../../trace/trace-model'

/** What the diff reads of the trace model (TraceModel satisfies it). */
export interface StepStates {
  readonly steps: readonly {
    readonly sequenceId: bigint
    readonly update?: { readonly actions: readonly unknown[] } | null
  }[]
  actionView(k: number, i: number): ActionView
  stateAfter(k: number): AssociationState | null
}

export interface StepDiff {
  readonly diff: StateDiff
  /** The base the diff is from: null for the state before the target (the default). */
  readonly base: Row | null
  /** Where the base is relative to the target. */
  readonly direction: 'previous' | 'earlier' | 'later' | 'same'
  /** One line saying which two states are compared. */
  readonly caption: string
}

/**
 * The state a row stands for as a base: the state after that action (within its update,
 * for an action before the last of an applied update), or, for a row whose update did
 * not apply, the state the log kept there (an update that does not apply changes nothing).
 */
export function stateAtRow(model: StepStates, row: Row): AssociationState | null {
  if (row.k < 0) return null
  const v = model.actionView(row.k, row.i)
  return v.tentative ? model.stateAfter(row.k) : v.after
}

/** "action 1 of sequence id 5" or "sequence id 5" (an update of one action, or the update as a whole). */
export function rowLabel(model: StepStates, row: Row): string {
  const step = model.steps[row.k]
  if (!step) return 'the start of the log'
  const n = step.update?.actions.length ?? 0
  return `${row.i >= 0 && n > 1 ? `action ${row.i} of ` : ''}sequence id ${step.sequenceId}`
}

const order = (a: Row, b: Row): number => a.k - b.k || a.i - b.i

/**
 * The diff shown for `target` against `base` (null: the state before the target, as
 * each step's own change). A base equal to the target is an empty diff; a later base
 * gives the change going back (what the later state has and the target lacks is removed).
 */
export function compareSteps(model: StepStates, target: Row, base: Row | null): StepDiff {
  const view = model.actionView(target.k, target.i)
  const to = rowLabel(model, target)
  if (base === null) {
    return {
      diff: diffStates(view.before, view.after, view.touched),
      base: null,
      direction: 'previous',
      caption: `From the state before ${to}.`,
    }
  }
  const from = rowLabel(model, base)
  const c = order(base, target)
  const diff = diffStates(stateAtRow(model, base), view.after)
  if (c === 0)
    return { diff, base, direction: 'same', caption: `The base is the selected step itself (${to}): nothing differs.` }
  return {
    diff,
    base,
    direction: c < 0 ? 'earlier' : 'later',
    caption:
      c < 0
        ? `From the state after ${from} to the state after ${to}.`
        : `Back from the later state after ${from} to the state after ${to}: what only the later state has is marked removed.`,
  }
}
