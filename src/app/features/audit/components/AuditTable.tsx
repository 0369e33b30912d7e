/**
 * The audited inboxes, one row each, windowed (@tanstack/react-virtual): only the rows
 * in view are in the page, so 100,000 inboxes scroll like ten. An ARIA table of divs
 * (role table/row/cell, with aria-rowcount and aria-rowindex so a screen reader knows
 * where it is in the whole list).
 */
import { useVirtualizer } from '@tanstack/react-virtual'
import { useRef } from 'react'
import type { AuditRow } from '../report'

const ROW_HEIGHT = 40

export function AuditTable({
  rows,
  total,
  busyLine,
  onOpen,
}: {
  rows: readonly AuditRow[]
  total: number
  /** The line of the row being opened (its button shows it). */
  busyLine: number | null
  onOpen: (row: AuditRow) => void
}) {
  const scroller = useRef<HTMLDivElement>(null)
  const v = useVirtualizer({
    count: rows.length,
    getScrollElement: () => scroller.current,
    estimateSize: () => ROW_HEIGHT,
    overscan: 8,
    // Before the first measure (and where nothing lays out, as in a test's DOM): a window's worth.
    initialRect: { width: 900, height: 480 },
  })
  return (
    <div className="audit-table" role="table" aria-label="Audited inboxes" aria-rowcount={rows.length + 1}>
      <div role="rowgroup">
        <div role="row" aria-rowindex={1} className="audit-row audit-head">
          <span role="columnheader">Inbox</span>
          <span role="columnheader">Verdict</span>
          <span role="columnheader">First failure</span>
          <span role="columnheader" className="audit-num">
            Updates
          </span>
          <span role="columnheader" className="audit-num audit-members">
            Members
          </span>
          <span role="columnheader">
            <span className="sr-only">Open</span>
          </span>
        </div>
      </div>
      <div className="audit-scroll" ref={scroller}>
        {rows.length === 0 ? (
          <p className="muted audit-empty">
            {total === 0
              ? 'The report lists no inbox.'
              : `No inbox of the ${total.toLocaleString('en')} matches the filter.`}
          </p>
        ) : (
          <div role="rowgroup" style={{ height: v.getTotalSize(), position: 'relative' }}>
            {v.getVirtualItems().map((item) => {
              const r = rows[item.index]!
              const f = r.failure
              return (
                <div
                  key={r.line}
                  role="row"
                  aria-rowindex={item.index + 2}
                  className="audit-row"
                  style={{
                    position: 'absolute',
                    top: 0,
                    left: 0,
                    right: 0,
                    height: ROW_HEIGHT,
                    transform: `translateY(${item.start}px)`,
                  }}
                >
                  <span role="cell" className="mono audit-inbox" title={r.inboxId ?? r.source}>
                    {r.inboxId ?? <span className="muted">no inbox: {r.source}</span>}
                  </span>
                  <span role="cell">
                    <span className={`chip audit-verdict tone-${r.verdict}`}>{r.verdict}</span>
                    {r.changed && r.changed.length > 0 && (
                      <span className="chip audit-changed" title={`changed: ${r.changed.join(', ')}`}>
                        changed
                      </span>
                    )}
                  </span>
                  <span role="cell" className="audit-failure" title={f ? f.message : undefined}>
                    {f ? (
                      <>
                        {f.sequenceId !== null && <span className="mono">#{f.sequenceId} </span>}
                        {f.rule && <code>{f.rule}</code>} <span className="muted">{f.message}</span>
                      </>
                    ) : (
                      <span className="muted">{r.gap ? `gap ${r.gap}` : '—'}</span>
                    )}
                  </span>
                  <span role="cell" className="audit-num">
                    {r.updates.toLocaleString('en')}
                  </span>
                  <span role="cell" className="audit-num audit-members">
                    {r.members ?? '—'}
                  </span>
                  <span role="cell">
                    {r.inboxId !== null && (
                      <button
                        type="button"
                        onClick={() => onOpen(r)}
                        disabled={busyLine === r.line}
                        aria-label={`Open inbox ${r.inboxId.slice(0, 16)} in the inspector${f ? ' at its first failure' : ''}`}
                      >
                        {busyLine === r.line ? 'Opening…' : 'Open'}
                      </button>
                    )}
                  </span>
                </div>
              )
            })}
          </div>
        )}
      </div>
    </div>
  )
}
