/**
 * The Follow bar of a log read from a node: the Follow switch (on by default; the
 * permalink records it as follow=1 or follow=0), the connection's state (announced
 * politely to screen readers), the "3 new updates" notice when new updates landed
 * below the step the user is on, forks and withheld updates with both versions, and, in
 * presenter mode, each update landing in large type with a short highlight.
 */
import { useEffect, useMemo, useState } from 'react'
import type { InspectRequest } from '../../../model/inspect-request'
import type { Row, Selection } from '../../../trace/trace-model'
import type { Loaded } from '../../../trace/useInspector'
import { ConnectionDot } from '../../../ui/ConnectionDot'
import { type ConnectionState, followAddressOf, forkText, unseenText } from '../follow-model'
import { useFollow } from '../useFollow'
import '../follow.css'

const STATE_TEXT: Record<ConnectionState, string> = {
  connecting: 'connecting…',
  live: 'live',
  reconnecting: 'reconnecting…',
  stopped: 'stopped',
}

const shortDigest = (d: string | null) => (d === null ? 'none' : `sha256 ${d.slice(0, 12)}…`)

export interface FollowBarProps {
  readonly loaded: Loaded
  readonly selection: Selection | null
  readonly busy: boolean
  readonly presenting: boolean
  /** The switch (the view state's, recorded in the address as follow=1 or follow=0). */
  readonly on: boolean
  readonly onFollow: (on: boolean) => void
  readonly onOpen: (request: InspectRequest) => Promise<boolean> | void
  readonly onSelect: (row: Row) => void
}

export function FollowBar({ loaded, selection, busy, presenting, on, onFollow, onOpen, onSelect }: FollowBarProps) {
  const fetch = loaded.source.fetch ?? ''
  const address = useMemo(() => followAddressOf(fetch, loaded.inboxId), [fetch, loaded.inboxId])
  const steps = loaded.model.steps
  const last = steps.length - 1
  const atHead = selection === null || selection.k >= last
  const [forkProblem, setForkProblem] = useState<string | null>(null)

  const { view, seen, openServed } = useFollow({
    address,
    on,
    fetch,
    label: loaded.source.label,
    entries: () => {
      const m = new Map<bigint, Uint8Array>()
      for (const s of loaded.model.steps) if (s.bytes) m.set(s.sequenceId, s.bytes)
      return m
    },
    position: () => {
      const sel = selection
      const step = sel ? steps[sel.k] : undefined
      return { atHead, current: step && sel ? { sequenceId: step.sequenceId, action: sel.i } : null }
    },
    canOpen: () => !busy,
    open: onOpen,
  })

  useEffect(() => {
    if (atHead) seen()
  }, [atHead, seen])

  const landed = view.landed.at(-1)
  const landedStep = landed === undefined ? undefined : steps.find((s) => s.sequenceId === landed)

  if (!address) return null
  return (
    <section className={presenting ? 'follow-bar presenting' : 'follow-bar'} aria-label="Follow">
      <label className="follow-switch">
        <input
          type="checkbox"
          role="switch"
          aria-checked={on}
          checked={on}
          onChange={(e) => onFollow(e.target.checked)}
        />
        Follow
      </label>
      <p
        className={`follow-state state-${on ? view.connection : 'off'}`}
        role="status"
        aria-live="polite"
        aria-label="Follow state"
      >
        <ConnectionDot state={on ? view.connection : 'off'} />
        {on ? (
          <>
            {STATE_TEXT[view.connection]}
            {view.connection === 'live' && view.mode === 'poll' && (
              <span className="muted"> (asking every second)</span>
            )}
            {view.detail && view.connection !== 'live' && <span className="muted follow-detail"> {view.detail}</span>}
          </>
        ) : (
          'off'
        )}
      </p>
      <span className="muted small follow-where" title={address.url}>
        {address.url} · {address.api} over {address.transport}
      </span>
      {on && view.unseen > 0 && !atHead && (
        <p className="follow-unseen" role="status">
          {unseenText(view.unseen)}{' '}
          <button
            type="button"
            onClick={() => loaded.rows.length > 0 && onSelect(loaded.rows[loaded.rows.length - 1]!)}
          >
            Jump to the newest
          </button>
        </p>
      )}
      {view.forks.length > 0 && (
        <ul className="follow-forks" aria-label="Forks and withheld updates">
          {view.forks.map((f) => (
            <li key={`${f.sequenceId}:${f.reason}:${f.servedDigest}`}>
              <strong>{forkText(f)}</strong> Shown: <code>{shortDigest(f.shownDigest)}</code>; the node now:{' '}
              <code>{shortDigest(f.servedDigest)}</code>.{' '}
              <button type="button" className="link" onClick={() => void openServed(f.sequenceId).then(setForkProblem)}>
                Open the node&apos;s version
              </button>
            </li>
          ))}
          {forkProblem && <li className="follow-problem">{forkProblem}</li>}
        </ul>
      )}
      {view.skipped.length > 0 && <p className="muted small">Left out: {view.skipped[0]}</p>}
      {presenting && landed !== undefined && (
        <p key={String(landed)} className="follow-landed" aria-live="polite">
          Update {String(landed)} landed
          {landedStep && (
            <span className={`follow-verdict verdict-${landedStep.status}`}>
              {' '}
              {landedStep.status.replace('_', ' ')}
              {landedStep.rule ? ` · ${landedStep.rule}` : ''}
            </span>
          )}
        </p>
      )}
    </section>
  )
}
