/**
 * The audited inboxes, one row each, in the windowed table (ui/VirtualTable): 100,000
 * inboxes scroll like ten.
 */
import { type Column, VirtualTable } from '../../../ui/VirtualTable'
import type { AuditRow } from '../report'

function columns(busyLine: number | null, onOpen: (row: AuditRow) => void): Column<AuditRow>[] {
  return [
    {
      header: 'Inbox',
      cellClassName: 'mono',
      title: (r) => r.inboxId ?? r.source,
      cell: (r) => r.inboxId ?? <span className="muted">no inbox: {r.source}</span>,
    },
    {
      header: 'Verdict',
      cell: (r) => (
        <>
          <span className={`chip tone-${r.verdict}`}>{r.verdict}</span>
          {r.changed && r.changed.length > 0 && (
            <span className="chip audit-changed" title={`changed: ${r.changed.join(', ')}`}>
              changed
            </span>
          )}
        </>
      ),
    },
    {
      header: 'First failure',
      title: (r) => r.failure?.message,
      cell: ({ failure: f, gap }) =>
        f ? (
          <>
            {f.sequenceId !== null && <span className="mono">#{f.sequenceId} </span>}
            {f.rule && <code>{f.rule}</code>} <span className="muted">{f.message}</span>
          </>
        ) : (
          <span className="muted">{gap ? `gap ${gap}` : '—'}</span>
        ),
    },
    { header: 'Updates', className: 'vt-num', wide: true, cell: (r) => r.updates.toLocaleString('en') },
    { header: 'Members', className: 'vt-num', wide: true, cell: (r) => r.members ?? '—' },
    {
      header: <span className="sr-only">Open</span>,
      cell: (r) =>
        r.inboxId !== null && (
          <button
            type="button"
            onClick={() => onOpen(r)}
            disabled={busyLine === r.line}
            aria-label={`Open inbox ${r.inboxId.slice(0, 16)} in the inspector${r.failure ? ' at its first failure' : ''}`}
          >
            {busyLine === r.line ? 'Opening…' : 'Open'}
          </button>
        ),
    },
  ]
}

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
  return (
    <VirtualTable
      label="Audited inboxes"
      className="audit-table"
      rows={rows}
      columns={columns(busyLine, onOpen)}
      rowKey={(r) => r.line}
      rowHeight={40}
      empty={
        total === 0 ? 'The report lists no inbox.' : `No inbox of the ${total.toLocaleString('en')} matches the filter.`
      }
    />
  )
}
