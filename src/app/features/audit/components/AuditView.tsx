/**
 * The Audit view: open an `audit --json` report (a file, a drop, or pasted text), read it
 * line by line without holding the page, see the inboxes by verdict and by rule, filter
 * the table of inboxes, and open any inbox in the inspector at its first failing update:
 * from the node the report names, or from the log file the user hands over for a file
 * source. Lines that do not fit the report format are listed by line number.
 */
import { type DragEvent, useCallback, useMemo, useRef, useState } from 'react'
import { fetchNodeLog, type InspectRequest } from '../../../model/inspect-request'
import { AnySelect } from '../../../ui/AnySelect'
import { RuleText } from '../../../ui/RuleText'
import { filterRows, NO_FILTER, type AuditFilter } from '../aggregate'
import { isOpenable, OpenInboxError, type OpenableRow, planOf, requestFromFile, requestFromNode } from '../open-inbox'
import { VERDICTS, type AuditRow } from '../report'
import { useAuditReader } from '../useAuditReader'
import { AuditChart, NO_RULE } from './AuditChart'
import { AuditTable } from './AuditTable'
import '../audit.css'
import { PanelHead } from '../../../ui/PanelHead'
import { TextList } from '../../../ui/TextList'

type OpenState =
  | { readonly kind: 'fetching'; readonly row: OpenableRow; readonly url: string }
  | { readonly kind: 'need-file'; readonly row: OpenableRow; readonly why: string | null }
  | { readonly kind: 'failed'; readonly row: OpenableRow; readonly message: string }
  | null

export interface AuditViewProps {
  /** Opens the request in the inspector; resolves false when the inspector could not open it. */
  readonly onOpen: (request: InspectRequest) => Promise<boolean> | void
  readonly onClose?: () => void
}

export function AuditView({ onOpen, onClose }: AuditViewProps) {
  const { state, read, cancel } = useAuditReader()
  const [filter, setFilter] = useState<AuditFilter>(NO_FILTER)
  const [pasted, setPasted] = useState('')
  const [rule, showRule] = useState<string | null>(null)
  const [opening, setOpening] = useState<OpenState>(null)
  const logFiles = useRef(new Map<string, File>())
  const fetchAbort = useRef<AbortController | null>(null)
  const report = state.phase === 'done' ? state.report : null
  const shown = useMemo(() => (report ? filterRows(report.rows, filter) : []), [report, filter])

  const readFile = useCallback(
    (f: File) => {
      setFilter(NO_FILTER)
      setOpening(null)
      void read(f.name, f.stream(), f.size)
    },
    [read],
  )

  const openFromFile = useCallback(
    async (row: OpenableRow, file: File) => {
      try {
        const req = requestFromFile(row, new Uint8Array(await file.arrayBuffer()), file.name)
        logFiles.current.set(row.source, file)
        setOpening(null)
        await onOpen(req)
      } catch (e) {
        setOpening({
          kind: 'need-file',
          row,
          why: e instanceof OpenInboxError ? e.message : `${file.name} could not be read: ${String(e)}`,
        })
      }
    },
    [onOpen],
  )

  const openRow = useCallback(
    async (row: AuditRow) => {
      fetchAbort.current?.abort()
      if (!isOpenable(row)) return
      const plan = planOf(row)
      if (plan.kind === 'file') {
        const known = logFiles.current.get(row.source)
        if (known) return openFromFile(row, known)
        setOpening({ kind: 'need-file', row, why: null })
        return
      }
      const ac = new AbortController()
      fetchAbort.current = ac
      setOpening({ kind: 'fetching', row, url: plan.url })
      try {
        const { bundle } = await fetchNodeLog(plan.url, row.inboxId, ac.signal)
        if (ac.signal.aborted) return
        setOpening(null)
        await onOpen(requestFromNode(row, plan.url, bundle))
      } catch (e) {
        if (ac.signal.aborted) return
        setOpening({
          kind: 'failed',
          row,
          message: `inbox ${row.inboxId} could not be fetched from ${plan.url}: ${e instanceof Error ? e.message : String(e)}`,
        })
      }
    },
    [onOpen, openFromFile],
  )

  const onDrop = (e: DragEvent) => {
    const f = e.dataTransfer.files[0]
    if (!f) return
    e.preventDefault()
    e.stopPropagation()
    readFile(f)
  }

  const set = (p: Partial<AuditFilter>) => setFilter((f) => ({ ...f, ...p }))

  return (
    <section
      className="audit-view"
      aria-labelledby="audit-title"
      onDragOver={(e) => e.preventDefault()}
      onDrop={onDrop}
    >
      <PanelHead id="audit-title" title="Audit report" closeLabel="Close the audit view" onClose={onClose} />
      <p className="hint">
        The JSON Lines of <code>inbox-inspector audit --json</code>: one line per inbox, the summary last. Choose the
        file, drop it here, or paste it.
      </p>
      <div className="audit-open">
        <label className="audit-file">
          Open an audit report
          <input
            type="file"
            accept=".jsonl,.json,.ndjson,.txt,application/json,application/x-ndjson,text/plain"
            onChange={(e) => {
              const f = e.target.files?.[0]
              if (f) readFile(f)
              e.target.value = ''
            }}
          />
        </label>
        <details className="audit-paste">
          <summary>Paste a report</summary>
          <textarea
            aria-label="Audit report text"
            rows={4}
            value={pasted}
            onChange={(e) => setPasted(e.target.value)}
            spellCheck={false}
          />
          <button
            type="button"
            disabled={pasted.trim() === ''}
            onClick={() => {
              setFilter(NO_FILTER)
              setOpening(null)
              void read('the pasted report', pasted)
            }}
          >
            Read the pasted report
          </button>
        </details>
      </div>

      {state.phase === 'reading' && (
        <div className="audit-progress" role="status" aria-label="Reading the report">
          <span>
            Reading {state.name}: {state.progress.lines.toLocaleString('en')} lines
          </span>
          {state.progress.total ? (
            <progress max={state.progress.total} value={state.progress.bytes} aria-label="Bytes read" />
          ) : null}
          <button type="button" onClick={cancel}>
            Cancel
          </button>
        </div>
      )}
      {state.phase === 'failed' && (
        <p className="audit-error" role="alert">
          {state.message}
        </p>
      )}

      {report && (
        <>
          <p className="audit-loaded" role="status" aria-label="Report summary">
            {state.phase === 'done' && state.name}: {report.rows.length.toLocaleString('en')} inbox
            {report.rows.length === 1 ? '' : 'es'}
            {report.summary?.updates != null && `, ${report.summary.updates.toLocaleString('en')} updates`}
            {report.summary?.seconds != null && `, audited in ${report.summary.seconds.toFixed(1)} s`}
            {report.summary === null && ' (no summary line: the report may have been cut short)'}
          </p>
          <TextList items={report.mismatches} className="audit-warn" label="Summary mismatches" />
          {report.summary && report.summary.gaps.length > 0 && (
            <ul className="audit-warn" aria-label="Sequence id gaps">
              {report.summary.gaps.map((g) => (
                <li key={g}>the node&apos;s sequence ids have a hole {g}</li>
              ))}
            </ul>
          )}
          {report.errorCount > 0 && (
            <details className="audit-line-errors" open={report.errorCount <= 5}>
              <summary>
                {report.errorCount.toLocaleString('en')} line{report.errorCount === 1 ? '' : 's'} did not fit the report
                format
              </summary>
              <ul aria-label="Malformed lines">
                {report.errors.map((e) => (
                  <li key={e.line}>
                    line {e.line}: {e.message}
                  </li>
                ))}
              </ul>
              {report.errorCount > report.errors.length && (
                <p className="muted small">(the first {report.errors.length} are listed)</p>
              )}
            </details>
          )}
          <AuditChart
            byVerdict={report.byVerdict}
            byRule={report.byRule}
            verdict={filter.verdict}
            rule={filter.rule}
            onVerdict={(verdict) => set({ verdict })}
            onRule={(r) => {
              set({ rule: r })
              showRule(r && r !== NO_RULE ? r : null)
            }}
          />
          {rule && <RuleText id={rule} onClose={() => showRule(null)} />}
          <div className="vt-filters" role="group" aria-label="Filter the inboxes">
            <AnySelect
              label="Verdict"
              value={filter.verdict}
              values={VERDICTS}
              onChange={(verdict) => set({ verdict })}
            />
            <label>
              Rule
              <select value={filter.rule ?? ''} onChange={(e) => set({ rule: e.target.value || null })}>
                <option value="">any</option>
                {report.byRule.map((r) => (
                  <option key={r.rule ?? NO_RULE} value={r.rule ?? NO_RULE}>
                    {r.rule ?? 'no rule (unreadable)'} ({r.count})
                  </option>
                ))}
              </select>
            </label>
            <label>
              Inbox id starts with
              <input
                type="search"
                value={filter.prefix}
                onChange={(e) => set({ prefix: e.target.value })}
                spellCheck={false}
                autoComplete="off"
              />
            </label>
            <label className="audit-check">
              <input
                type="checkbox"
                checked={filter.changedOnly}
                onChange={(e) => set({ changedOnly: e.target.checked })}
              />
              changed only ({report.changed.toLocaleString('en')})
            </label>
            <span className="muted" role="status" aria-label="Inboxes shown">
              {shown.length.toLocaleString('en')} of {report.rows.length.toLocaleString('en')} shown
            </span>
          </div>
          <OpenStatus
            state={opening}
            onFile={openFromFile}
            onRetry={(row) => void openRow(row)}
            onDismiss={() => setOpening(null)}
          />
          <AuditTable
            rows={shown}
            total={report.rows.length}
            busyLine={opening?.kind === 'fetching' ? opening.row.line : null}
            onOpen={(r) => void openRow(r)}
          />
        </>
      )}
    </section>
  )
}

function OpenStatus({
  state,
  onFile,
  onRetry,
  onDismiss,
}: {
  state: OpenState
  onFile: (row: OpenableRow, f: File) => void
  onRetry: (row: OpenableRow) => void
  onDismiss: () => void
}) {
  return (
    <div className="audit-open-status" aria-live="polite">
      {state?.kind === 'fetching' && (
        <p>
          Fetching inbox <code>{state.row.inboxId.slice(0, 16)}…</code> from {state.url}…
        </p>
      )}
      {state?.kind === 'failed' && (
        <div className="audit-error" role="alert">
          <p>{state.message}</p>
          <button type="button" onClick={() => onRetry(state.row)}>
            Try again
          </button>{' '}
          <button type="button" onClick={onDismiss}>
            Dismiss
          </button>
        </div>
      )}
      {state?.kind === 'need-file' && (
        <div className="audit-need-file">
          <p>
            Inbox <code>{state.row.inboxId.slice(0, 16)}…</code> was audited from the file{' '}
            <code>{state.row.source}</code>. A browser cannot read that path by itself: choose the file to open the
            inbox.
          </p>
          {state.why && (
            <p className="audit-error" role="alert">
              {state.why}
            </p>
          )}
          <label>
            Log file for {state.row.source}
            <input
              type="file"
              onChange={(e) => {
                const f = e.target.files?.[0]
                if (f) onFile(state.row, f)
                e.target.value = ''
              }}
            />
          </label>{' '}
          <button type="button" onClick={onDismiss}>
            Cancel
          </button>
        </div>
      )}
    </div>
  )
}
