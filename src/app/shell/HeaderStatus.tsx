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
      {/* Reading: an empty bar, not an indeterminate one, whose animation repaints the page
          about 16 times a second (each frame CPU of the page's and the compositor's, taken
          from the cores that read and verify the log). */}
      <progress aria-label="Replay progress" max={Math.max(1, total)} value={busy.phase === 'reading' ? 0 : done} />
      <button type="button" onClick={onCancel} aria-label="Cancel replay">
        Cancel
      </button>
    </div>
  )
}

/** The log's verdict as a badge; its text is also its title (a phone's one-row header may cut it short). */
export function LogVerdict({ loaded }: { loaded: Loaded }) {
  const stop = loaded.model.stopIndex()
  const s = stop < 0 ? null : loaded.model.steps[stop]!
  const [tone, text] = loaded.ok
    ? ['ok', 'every update applies']
    : !s
      ? ['bad', 'not every update applies']
      : [
          s.status === 'pending' ? 'warn' : 'bad',
          `stops at sequence id ${s.sequenceId.toString()}: ${s.status === 'pending' ? 'pending' : s.rule}`,
        ]
  return (
    <span className={`badge ${tone}`} title={text}>
      {text}
    </span>
  )
}
