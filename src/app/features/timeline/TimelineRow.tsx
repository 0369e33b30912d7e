/** The timeline list's items (a row, the notice where the log stops) and their geometry. */
import { memo } from 'react'
import type { Row, TraceModel } from '../../trace/trace-model'
import { clientTime, shortId, STATUS_LABEL, STATUS_MARK } from '../../ui/format'
import { describeRow } from './rows'

/** Every item is ROW_H tall but the stop notice (two rows). */
export const ROW_H = 26
const SHORT_KIND: Record<string, string> = { installation: 'inst', wallet: 'wallet', passkey: 'passkey' }

export const rowId = (r: Row) => `tl-${r.k}-${r.i < 0 ? 'u' : r.i}`

/** The top of item `n`: the stop notice before it (at `stopPos`, -1 for none) counts two rows. */
export const topOf = (n: number, stopPos: number) => n * ROW_H + (stopPos >= 0 && n > stopPos ? ROW_H : 0)

/**
 * The scrollTop that brings item `n` into view (the stop notice before it counted), or
 * null when it is in view already.
 */
export function scrollFor(n: number, stopPos: number, view: { readonly scrollTop: number; readonly height: number }) {
  const top = topOf(n, stopPos)
  if (top < view.scrollTop) return top
  if (top + ROW_H > view.scrollTop + view.height) return top + ROW_H - view.height
  return null
}

/** One row of the timeline; memoized, so a step re-renders only the rows it selects or leaves. */
export const TimelineRow = memo(function TimelineRow({
  model,
  row,
  top,
  selected,
  pinned,
  onPick,
}: {
  model: TraceModel
  row: Row
  top: number
  selected: boolean
  pinned: boolean
  onPick: (r: Row, shift: boolean) => void
}) {
  const v = describeRow(model, row)
  const message = model.steps[row.k]!.message
  return (
    <div
      id={rowId(row)}
      role="option"
      aria-selected={selected}
      className={`tl-row st-${v.status}${selected ? ' selected' : ''}${v.first ? ' first' : ''}${pinned ? ' pinned' : ''}`}
      style={{ top, height: ROW_H }}
      onClick={(e) => onPick(row, e.shiftKey)}
      title={`${v.kindLabel} · ${STATUS_LABEL[v.status]}${message ? ` · ${message}` : ''}`}
    >
      <span className="tl-seq">{v.first ? v.sequenceId.toString() : ''}</span>
      <span className={`tl-mark st-${v.status}`} aria-label={STATUS_LABEL[v.status]}>
        {STATUS_MARK[v.status]}
      </span>
      <span className="tl-kind">
        {v.actionCount > 1 && <span className="tl-idx">{row.i}</span>}
        {v.kindLabel}
      </span>
      <span className="tl-subject">
        {pinned && (
          <span className="tl-base" title="The Diff tab compares with this row (shift-click or b unpins it)">
            diff base
          </span>
        )}
        {v.subject ? (
          v.subject.kind === 'handle' ? (
            <span className="handle">{v.subject.text}</span>
          ) : (
            <>
              <span className="kind-tag" title={v.subject.kind}>
                {SHORT_KIND[v.subject.kind] ?? v.subject.kind}
              </span>{' '}
              <code title={v.subject.text}>{shortId(v.subject.text)}</code>
            </>
          )
        ) : (
          <span className="muted">{message.slice(0, 60)}</span>
        )}
      </span>
      <span className="tl-signers">
        {v.signers.map((s, x) => (
          <code key={x} className={`sig-${s.verdict}`}>
            {s.text === '?' ? '?' : shortId(s.text, 4, 3)}
          </code>
        ))}
      </span>
      <span className="tl-time" title={v.clientTimestampNs !== null ? clientTime(v.clientTimestampNs) : undefined}>
        {v.clientTimestampNs !== null
          ? clientTime(v.clientTimestampNs).slice(5).replace('T', ' ').replace('Z', '')
          : ''}
      </span>
    </div>
  )
})

/** Where the log stops: the update that does not apply, and what that leaves unread. */
export function StopNotice({ model, k, top }: { model: TraceModel; k: number; top: number }) {
  const s = model.steps[k]!
  const later = model.steps.length - k - 1
  return (
    <div
      role="option"
      aria-selected={false}
      aria-disabled="true"
      className="tl-stop"
      style={{ top, height: 2 * ROW_H }}
      title={s.message}
    >
      ■ The log stops at sequence id {s.sequenceId.toString()} (
      {s.status === 'pending' ? 'pending' : `rejected under ${s.rule}`}).{' '}
      {later > 0
        ? `The ${later} later update${later > 1 ? 's are' : ' is'} not applied: a log cannot be read past an update that does not apply.`
        : 'No later updates.'}
    </div>
  )
}
