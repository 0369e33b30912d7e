/**
 * The "Node traffic" drawer: the local node's recent calls, live (newest first), on every
 * transport; filter by method and outcome; a refusal names its rule (its text one click
 * away); a call that carried an update opens it in the inspector (open-call.ts). The
 * connection's state is announced politely to screen readers. Every string shown came
 * from some client of the node: React escapes it and the model bounded it.
 */
import { useCallback, useMemo, useState } from 'react'
import type { InspectRequest } from '../../../model/inspect-request'
import { AnySelect } from '../../../ui/AnySelect'
import { ConnectionDot } from '../../../ui/ConnectionDot'
import { RuleText } from '../../../ui/RuleText'
import { type Column, VirtualTable } from '../../../ui/VirtualTable'
import { requestForCall } from '../open-call'
import { filterCalls, type Keyed, OUTCOMES, shortMethod, targetOf, type TrafficFilter } from '../traffic-model'
import type { StreamStatus, TrafficDeps } from '../traffic-stream'
import { useTraffic } from '../useTraffic'
import '../traffic.css'
import { PanelHead } from '../../../ui/PanelHead'

const STATUS_TEXT: Record<StreamStatus, string> = {
  connecting: 'connecting…',
  live: 'live',
  reconnecting: 'reconnecting…',
  stopped: 'stopped',
}

/** "2026-12-04T16:20:01.123Z" → "16:20:01.123" in the reader's time zone. */
function clock(iso: string): string {
  const d = new Date(iso)
  if (Number.isNaN(d.getTime())) return iso.slice(0, 24)
  const p = (n: number, w = 2) => String(n).padStart(w, '0')
  return `${p(d.getHours())}:${p(d.getMinutes())}:${p(d.getSeconds())}.${p(d.getMilliseconds(), 3)}`
}

type Opening = { readonly key: string; readonly error: string | null } | null

export interface TrafficPanelProps {
  readonly nodeUrl: string
  readonly onOpen: (request: InspectRequest) => Promise<boolean> | void
  readonly onClose?: () => void
  /** For tests: the EventSource and fetch to use. */
  readonly deps?: TrafficDeps
}

export function TrafficPanel({ nodeUrl, onOpen, onClose, deps }: TrafficPanelProps) {
  const t = useTraffic(nodeUrl, deps)
  const [filter, setFilter] = useState<TrafficFilter>({ method: '', outcome: null })
  const [rule, showRule] = useState<string | null>(null)
  const [opening, setOpening] = useState<Opening>(null)
  const shown = useMemo(() => filterCalls(t.calls, filter), [t.calls, filter]) as readonly Keyed[]

  const open = useCallback(
    async (c: Keyed) => {
      const target = targetOf(c)
      if (target.kind === 'none') return
      setOpening({ key: c.key, error: null })
      try {
        const req = await requestForCall(nodeUrl, c, target)
        setOpening(null)
        await onOpen(req)
      } catch (e) {
        setOpening({
          key: c.key,
          error: `call #${c.id} could not be opened: ${e instanceof Error ? e.message : String(e)}`,
        })
      }
    },
    [nodeUrl, onOpen],
  )

  const columns: Column<Keyed>[] = [
    { header: 'Time', cellClassName: 'mono', title: (c) => c.time, cell: (c) => clock(c.time) },
    { header: 'Transport', wide: true, cell: (c) => c.transport },
    {
      header: 'Method',
      title: (c) => c.method,
      cell: (c) => {
        const m = shortMethod(c.method)
        return (
          <>
            {m.name}
            {m.service && <span className="muted small"> {m.service}</span>}
          </>
        )
      },
    },
    {
      header: 'Subject',
      cellClassName: 'mono',
      wide: true,
      title: (c) => (c.subject ? `${c.subject.kind} ${c.subject.value}` : undefined),
      cell: (c) =>
        c.subject ? (
          <>
            <span className="muted">{c.subject.kind} </span>
            {c.subject.value}
          </>
        ) : (
          <span className="muted">—</span>
        ),
    },
    {
      header: 'Outcome',
      title: (c) => c.message || c.code,
      cell: (c) => (
        <>
          <span className={`chip tone-${c.outcome}`}>{c.outcome}</span>
          {c.rule ? (
            <button
              type="button"
              className="link mono"
              onClick={() => showRule(c.rule)}
              aria-label={`Rule ${c.rule}: show its text`}
            >
              {c.rule}
            </button>
          ) : (
            c.outcome !== 'ok' && <span className="muted small"> {c.code}</span>
          )}
        </>
      ),
    },
    { header: 'ms', className: 'vt-num', wide: true, cell: (c) => c.ms.toFixed(1) },
    {
      header: <span className="sr-only">Open</span>,
      cell: (c) => {
        const target = targetOf(c)
        const busy = opening?.key === c.key && opening.error === null
        return target.kind !== 'none' ? (
          <button
            type="button"
            disabled={busy}
            onClick={() => void open(c)}
            aria-label={`Open call ${c.id} in the inspector${target.kind === 'refused' ? ' (the refused update after the head)' : ''}`}
          >
            {busy ? 'Opening…' : 'Open'}
          </button>
        ) : target.why ? (
          <span className="muted small" title={target.why}>
            no bytes
          </span>
        ) : null
      },
    },
  ]

  return (
    <section className="traffic-panel" aria-labelledby="traffic-title">
      <PanelHead id="traffic-title" title="Node traffic" closeLabel="Close the node traffic panel" onClose={onClose} />
      <p
        className={`traffic-status status-${t.status}`}
        role="status"
        aria-live="polite"
        aria-label="Traffic connection"
      >
        <ConnectionDot state={t.status} /> {nodeUrl}: {STATUS_TEXT[t.status]}
        {t.detail && <span className="traffic-detail"> {t.detail}</span>}
        {t.restarts > 0 && <span className="muted"> (the node restarted; its calls are numbered anew)</span>}
      </p>
      <p className="hint">
        Every call any client made to the node, on every transport, newest first. What a call carries came from that
        client: it is shown as text, never run.
        {t.dropped > 0 && ` ${t.dropped} older calls were no longer held by the node.`}
      </p>
      {t.problems.length > 0 && (
        <ul className="traffic-problems" role="alert" aria-label="Malformed calls">
          {t.problems.map((p, i) => (
            <li key={i}>{p}</li>
          ))}
        </ul>
      )}
      <div className="vt-filters" role="group" aria-label="Filter the calls">
        <label>
          Method
          <input
            type="search"
            value={filter.method}
            onChange={(e) => setFilter((f) => ({ ...f, method: e.target.value }))}
            placeholder="e.g. Publish"
            spellCheck={false}
            autoComplete="off"
          />
        </label>
        <AnySelect
          label="Outcome"
          value={filter.outcome}
          values={OUTCOMES}
          onChange={(outcome) => setFilter((f) => ({ ...f, outcome }))}
        />
        <span className="muted" aria-label="Calls shown">
          {shown.length} of {t.calls.length} calls
        </span>
      </div>
      {rule && <RuleText id={rule} onClose={() => showRule(null)} />}
      {opening?.error && (
        <p className="traffic-error" role="alert">
          {opening.error}
        </p>
      )}
      <VirtualTable
        label="Node calls"
        className="traffic-table"
        rows={shown}
        columns={columns}
        rowKey={(c) => c.key}
        rowHeight={38}
        rowClass={(c) => `outcome-${c.outcome}`}
        initialWidth={700}
        empty={
          t.calls.length === 0
            ? 'No call yet: the calls the node serves appear here as they happen.'
            : 'No call matches the filter.'
        }
      />
    </section>
  )
}
