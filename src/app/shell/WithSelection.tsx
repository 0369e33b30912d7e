import type { ReactNode } from 'react'
import type { Selection, TraceModel } from '../trace/trace-model'
import { useSelection } from './view-store'

/** Renders `children` with the selection in `model`: the one part of a view that changes on each step. */
export function WithSelection({
  model,
  children,
}: {
  model: TraceModel
  children: (selection: Selection | null) => ReactNode
}) {
  return children(useSelection(model))
}
