import type { ReactNode } from 'react'
import type { Selection } from '../trace/trace-model'
import { type SelectionOwner, useSelection } from './view-store'

/** Renders `children` with the selection in the open log: the one part of a view that changes on each step. */
export function WithSelection({
  loaded,
  children,
}: {
  loaded: SelectionOwner
  children: (selection: Selection | null) => ReactNode
}) {
  return children(useSelection(loaded))
}
