/**
 * Presenter mode's wiring (workshops): entering and leaving, with the focus back on the
 * Present button on leaving, and the "what changed" of a step: the same diff as the Diff tab.
 */
import { type Dispatch, useCallback, useRef } from 'react'
import { diffStates } from '../model/state-diff'
import type { LogSession } from './useLogSession'
import type { ViewAction } from './view-state'

export function usePresenter(loaded: LogSession['ins']['loaded'], dispatch: Dispatch<ViewAction>) {
  const presentButton = useRef<HTMLButtonElement>(null)
  const present = useCallback(
    (on: boolean) => {
      dispatch({ type: 'present', on })
      if (!on) presentButton.current?.focus()
    },
    [dispatch],
  )
  const diffOf = useCallback(
    (k: number, i: number) => {
      const v = loaded?.model.actionView(k, i)
      return v ? diffStates(v.before, v.after, v.touched) : diffStates(null, null)
    },
    [loaded],
  )
  return { presentButton, present, diffOf }
}
