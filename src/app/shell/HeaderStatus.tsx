/**
 * The header's status: what the app is loading by itself, the replay's progress (with
 * Cancel) and the open log's verdict.
 */
import { useSyncExternalStore } from 'react'
import type { AutoLoad } from '../features/log-input/start-guard'
import type { Busy, Loaded, ProgressStore } from '../trace/useInspector'

/**
 * What the app is fetching or reading by itself (the demo log, the address's fetch, the
 * log a reload restores): anything the user does now wins over it.
 */
export function AutoLoadStatus({ loads }: { loads: readonly AutoLoad[] }) {
  return (
    <p className="busy auto-load" role="status" aria-label="Opening by itself">
      <span className="busy-text">Opening {loads.map((l) => l.label).join(', ')}…</span>
    </p>
  )
}

export function BusyBar({ busy, progress, onCancel }: { busy: Busy; progress: ProgressStore; onCancel: () => void }) {
  const { done, total } = useSyncExternalStore(progress.subscribe, progress.get)
  return (
    <div className="busy" role="status" aria-live="polite">
      <span className="busy-text">
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
