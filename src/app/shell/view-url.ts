/**
 * The view state's projection into the address, both ways, in one place. The log (or where
 * it came from) is features/log-input's part of the address; this is the rest:
 *
 *   #…&step=<seq>.<action>&tab=<tab>&present     (the fragment, beside the log)
 *   ?…&flow=<inbox task>                          (the query, beside a fetch's address)
 *   ?node=…&inbox=…&follow=1|0                   (a log read from a node: whether the view follows it)
 *
 * The Inbox tasks drawer is named by its task (`flow=`). The other drawers are tools
 * around the view (opening, signing, editing), not part of it: a reload starts without
 * them, and a shared link shows the log, not someone's half-filled form.
 */
import { parseFragment, type Fragment, type StepRef } from '../features/log-input/permalink'
import type { Selection, TraceModel } from '../trace/trace-model'
import type { AddressView, ShellView } from './view-state'

/** The address parts of a view: the fragment's keys and the query's parameters. */
export interface ViewAddress {
  readonly fragment: Pick<Fragment, 'step' | 'tab' | 'present'>
  readonly params: readonly (readonly [string, string])[]
}

/** The selected step as the address names it (by sequence id, which outlives a reload). */
export function stepRefOf(sel: Selection | null, model: TraceModel | null): StepRef | undefined {
  const step = sel && model ? model.steps[sel.k] : undefined
  return step && sel ? { sequenceId: step.sequenceId, action: sel.i } : undefined
}

/** The view's address; a view without its selection (ShellView) gives it without the step. */
export function writeView(
  view: ShellView & { readonly selection?: Selection | null },
  model: TraceModel | null,
  followable = false,
): ViewAddress {
  const step = stepRefOf(view.selection ?? null, model)
  const params: [string, string][] = []
  if (followable) params.push(['follow', view.follow ? '1' : '0'])
  if (view.flow) params.push(['flow', view.flow])
  return {
    fragment: {
      ...(step ? { step } : {}),
      ...(view.tab ? { tab: view.tab } : {}),
      ...(view.presenting ? { present: true } : {}),
    },
    params,
  }
}

/** The view an address names (the step is the opener's: it is resolved against the log once it is open). */
export function readView(search: string, hash: string): AddressView {
  const q = new URLSearchParams(search)
  const f = parseFragment(hash)
  return {
    ...(f.tab ? { tab: f.tab } : {}),
    present: f.present === true,
    flow: q.get('flow'),
    follow: q.get('follow') !== '0',
  }
}

/** A source's query (`?node=…`, `?url=…` or none) with the view's parameters after it. */
export function withParams(search: string, params: ViewAddress['params']): string {
  if (params.length === 0) return search
  return `${search}${search ? '&' : '?'}${new URLSearchParams(params.map(([k, v]) => [k, v])).toString()}`
}
