/**
 * Presenter mode, for workshops: one step of the log per screen in large type, its
 * one-line narration, its verdict and what it changed. Keys: Right/Down/Space/PageDown
 * next, Left/Up/PageUp (Shift+Space) previous, Home/End; the shell's Escape leaves it
 * (after any drawer), back to the same step in the inspector. Reads nothing but the
 * replayed log it is given: no request leaves the page.
 */
import { useEffect, useMemo, useRef } from 'react'
import type { Row, Selection, TraceModel } from '../../../trace/trace-model'
import { KIND_LABEL, STATUS_LABEL } from '../../../ui/format'
import type { KeyInput } from '../../../ui/keymap'
import { useKeys } from '../../../ui/useKeys'
import { changeLines, type PresentedDiff } from '../changes'
import { narrate } from '../narrate'

const MARK = { added: '+', removed: '−', changed: '~' } as const

/** Space steps only where it would not press a control. */
function isControl(t: EventTarget | null): boolean {
  return t instanceof HTMLElement && /^(BUTTON|A|SUMMARY)$/.test(t.tagName)
}

export function Presenter({
  model,
  rows,
  selection,
  onSelect,
  diffOf,
  title,
  onLeave,
}: {
  model: TraceModel
  /** Every row of the log, in order: one screen each. */
  rows: readonly Row[]
  /** The step on screen (the inspector's selection, so leaving returns to it). */
  selection: Selection | null
  onSelect: (row: Row) => void
  /** The state diff of step (k, i), the one the inspector's Diff tab shows. */
  diffOf: (k: number, i: number) => PresentedDiff
  /** What is presented: the open log's label. */
  title: string
  onLeave: () => void
}) {
  const at = selection ? rows.findIndex((r) => r.k === selection.k && r.i === selection.i) : -1
  const index = Math.max(at, 0)
  const row = rows[index]
  const root = useRef<HTMLElement>(null)

  const go = useRef((_to: number) => {})
  go.current = (to: number) => {
    const r = rows[Math.max(0, Math.min(rows.length - 1, to))]
    if (r) onSelect(r)
  }

  // Entering: focus the presenter, so the keys and a screen reader start here.
  useEffect(() => {
    root.current?.focus({ preventScroll: true })
  }, [])

  const indexRef = useRef(index)
  indexRef.current = index
  // The presenter's keys (src/app/ui/keymap.ts); a drawer or dialog over the presenter keeps its own keys.
  const step = (to: (at: number) => number) => (e: KeyInput) => {
    if (e.target instanceof Element && e.target.closest('[data-drawer], [role="dialog"]')) return false
    // Space presses a focused control rather than stepping.
    if (e.key === ' ' && isControl(e.target)) return false
    go.current(to(indexRef.current))
  }
  useKeys({
    'presenter.next': step((i) => i + 1),
    'presenter.prev': step((i) => i - 1),
    'presenter.ends': (e) => step(() => (e.key === 'Home' ? 0 : Number.MAX_SAFE_INTEGER))(e),
  })

  const screen = useMemo(() => {
    if (!row) return null
    const step = model.steps[row.k]!
    const status = model.statusOf(row.k, row.i)
    const stop = model.stopIndex()
    const narration = narrate({
      step,
      i: row.i,
      status,
      stopAt: stop >= 0 ? model.steps[stop]!.sequenceId : null,
    })
    const action = row.i >= 0 ? step.update?.actions[row.i] : undefined
    return {
      step,
      status,
      narration,
      kind: action ? KIND_LABEL[action.kind] : 'undecodable update',
      changes: changeLines(diffOf(row.k, row.i)),
      kept: status === 'applied',
    }
  }, [model, row, diffOf])

  return (
    // id: the shell's "Skip to the selected step" link lands here while presenting.
    <main className="presenter" id="step-details" ref={root} tabIndex={-1} aria-labelledby="presenter-title">
      <div className="presenter-bar">
        <h2 id="presenter-title" className="presenter-title">
          Presenting <span className="muted">{title}</span>
        </h2>
        <p className="presenter-progress">
          <span className="sr-only">Step </span>
          {rows.length ? `${index + 1} of ${rows.length}` : '0 of 0'}
        </p>
        <progress
          className="presenter-meter"
          aria-label="Position in the log"
          max={Math.max(1, rows.length)}
          value={rows.length ? index + 1 : 0}
        />
        <div className="presenter-nav">
          <button type="button" onClick={() => go.current(index - 1)} disabled={index <= 0}>
            ← Previous
          </button>
          <button type="button" onClick={() => go.current(index + 1)} disabled={index >= rows.length - 1}>
            Next →
          </button>
          <button type="button" onClick={onLeave}>
            Back to the inspector (Esc)
          </button>
        </div>
      </div>
      {screen ? (
        // Keyed by the row: each step enters with a short fade, none under prefers-reduced-motion.
        <section className="presenter-step" aria-label="Step" key={`${row!.k}.${row!.i}`}>
          <p className="presenter-meta">
            <span className={`badge st-${screen.status}`}>{STATUS_LABEL[screen.status]}</span>{' '}
            <span>sequence id {screen.step.sequenceId.toString()}</span> · <span>{screen.kind}</span>
          </p>
          <p className="presenter-narration" aria-live="polite">
            {screen.narration}
          </p>
          <h3 className="presenter-changes-title">
            {screen.kept || screen.changes.length === 0 ? 'What changed' : 'What it would have changed (not kept)'}
          </h3>
          {screen.changes.length === 0 ? (
            <p className="presenter-nochange">
              {screen.kept
                ? 'No change to the association state.'
                : 'Nothing: the association state stays as it was before this update.'}
            </p>
          ) : (
            <ul className="presenter-changes" aria-label="Changes">
              {screen.changes.map((c) => (
                <li key={`${c.mark}:${c.text}`} className={`mark-${c.mark}`}>
                  <span className="rowmark" aria-hidden="true">
                    {MARK[c.mark]}
                  </span>{' '}
                  <span className="sr-only">{c.mark}: </span>
                  {c.text}
                </li>
              ))}
            </ul>
          )}
        </section>
      ) : (
        <p className="presenter-narration">The log has no updates.</p>
      )}
      <p className="presenter-keys muted">
        <kbd>→</kbd> <kbd>Space</kbd> next · <kbd>←</kbd> previous · <kbd>Home</kbd> <kbd>End</kbd> · <kbd>Esc</kbd>{' '}
        back to the inspector · <kbd>?</kbd> all keys
      </p>
    </main>
  )
}
