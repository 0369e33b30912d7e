/** The session's notice and its input error, each with its own dismiss button. */
import { Suspense } from 'react'
import { lazyView } from '../ui/lazy-view'
import type { LogSession } from './useLogSession'

/** Why an input is not a log: a lazy chunk, prefetched once the page is idle after the first log shows (./prefetch.ts). */
const InputError = lazyView(
  () => import('../features/log-input/components/InputError'),
  (m) => m.InputErrorView,
)

/** Loads the input error's chunk (./prefetch.ts). */
export const preloadInputError = InputError.preload

/**
 * The notice, and the input error unless `problemElsewhere`: the Open drawer over a log
 * shows the error itself (InputProblem), where the user opened what failed, rather than
 * under the drawer.
 */
export function Notices({ ins, problemElsewhere }: { ins: LogSession['ins']; problemElsewhere: boolean }) {
  const { notice } = ins
  return (
    <>
      {notice && (
        <p className="notice" role="status">
          {notice}{' '}
          <button type="button" className="link" onClick={() => ins.setNotice(null)} aria-label="Dismiss notice">
            dismiss
          </button>
        </p>
      )}
      {!problemElsewhere && <InputProblem ins={ins} />}
    </>
  )
}

/** Why the last input is not a log, with its Dismiss button; nothing when there is no such input. */
export function InputProblem({ ins }: { ins: LogSession['ins'] }) {
  const { problem } = ins
  if (!problem) return null
  return (
    // The error and its Dismiss button show together, once the error's chunk is there.
    <Suspense fallback={null}>
      <div className="problem-wrap">
        <InputError.View {...problem} json={problem.json ?? false} />
        <button type="button" onClick={() => ins.setProblem(null)} aria-label="Dismiss the error">
          Dismiss
        </button>
      </div>
    </Suspense>
  )
}
