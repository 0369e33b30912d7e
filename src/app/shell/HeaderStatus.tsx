/**
 * The header's status: the replay's progress (with Cancel) and the open log's verdict.
 */
import { useSyncExternalStore } from 'react'
import type { Busy, Loaded, ProgressStore } from '../trace/useInspector'

export function BusyBar({ busy, progress, onCancel }: { busy: Busy; progress: ProgressStore; onCancel: () => void }) {
  const { done, total } = useSyncExternalStore(progress.subscribe, progress.get)
  return (
    <div className="busy" role="status" aria-live="polite">
      <span>
        {busy.phase === 'reading'
          ? `Reading ${busy.label}…`
          : `Replaying ${done.toLocaleString('en')} of ${total.toLocaleString('en')} updates`}
      </span>
      <progress
        aria-label="Replay progress"
        max={Math.max(1, total)}
        value={busy.phase === 'reading' ? undefined : done}
      />
      <button type="button" onClick={onCancel} aria-label="Cancel replay">
        Cancel
      </button>
    </div>
  )
}

export function LogVerdict({ loaded }: { loaded: Loaded }) {
  const stop = loaded.model.stopIndex()
  if (loaded.ok) return <span className="badge ok">every update applies</span>
  if (stop < 0) return <span className="badge bad">not every update applies</span>
  const s = loaded.model.steps[stop]!
  return (
    <span className={`badge ${s.status === 'pending' ? 'warn' : 'bad'}`}>
      stops at sequence id {s.sequenceId.toString()}: {s.status === 'pending' ? 'pending' : s.rule}
    </span>
  )
}
