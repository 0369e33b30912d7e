/**
 * What every drawer component is given (./drawers.tsx lists the drawers; ./drawer-views.tsx,
 * a lazy chunk, holds most of them): a module of its own, so the chunk and the registry
 * that loads it do not import each other.
 */
import type { Dispatch } from 'react'
import type { useEditSession } from '../features/edit/useEditSession'
import type { LogSession } from './useLogSession'
import type { ShellView, ViewAction } from './view-state'

/** What every drawer component is given. */
export interface DrawerContext {
  readonly session: LogSession
  readonly view: ShellView
  readonly dispatch: Dispatch<ViewAction>
  /** Closes this drawer. */
  readonly close: () => void
  readonly openSettings: () => void
  readonly edit: ReturnType<typeof useEditSession>
  readonly logLimit: number
}
