/** The session's notice and its input error, each with its own dismiss button. */
import { InputErrorView } from '../features/log-input/components/InputError'
import type { LogSession } from './useLogSession'

export function Notices({ ins }: { ins: LogSession['ins'] }) {
  const { notice, problem } = ins
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
      {problem && (
        <div className="problem-wrap">
          <InputErrorView {...problem} json={problem.json ?? false} />
          <button type="button" onClick={() => ins.setProblem(null)} aria-label="Dismiss the error">
            Dismiss
          </button>
        </div>
      )}
    </>
  )
}
