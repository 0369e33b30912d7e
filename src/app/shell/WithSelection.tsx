import type { ReactNode } from 'react'
import type { Selection } from '../trace/trace-model'
import { useSelection } from './view-store'

/** Renders `children` with the selection: the one part of a view that changes on each step. */
export function WithSelection({ children }: { children: (selection: Selection | null) => ReactNode }) {
  return children(useSelection())
}
