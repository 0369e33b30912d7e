/**
 * The "Node traffic" drawer: the local node's recent calls, live (newest first), on every
 * transport; filter by method and outcome; a refusal names its rule (its text one click
 * away); a call that carried an update opens it in the inspector (open-call.ts). The
 * connection's state is announced politely to screen readers. Every string shown came
 * from some client of the node: React escapes it and the model bounded it.
 */
import { useVirtualizer } from '@tanstack/react-virtual'
import { useCallback, useMemo, useRef, useState } from 'react'
import type { InspectRequest } from '../../../model/inspect-request'
import { RuleText } from '../../../ui/RuleText'
import { requestForCall } from '../open-call'
import {
  filterCalls,
  type Keyed,
  OUTCOMES,
  type Outcome,
  shortMethod,
  targetOf,
  type TrafficFilter,
} from '../traffic-model'
import type { StreamStatus, TrafficDeps } from '../traffic-stream'
import { useTraffic } from '../useTraffic'
import '../traffic.css'

const ROW_HEIGHT = 38

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
  const scroller = useRef<HTMLDivElement>(null)
  const v = useVirtualizer({
    count: shown.length,
    getScrollElement: () => scroller.current,
    estimateSize: () => ROW_HEIGHT,
    overscan: 8,
    initialRect: { width: 700, height: 480 },
    getItemKey: (i) => shown[i]!.key,
  })

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

  return (
    <section className="traffic-panel" aria-labelledby="traffic-title">
      <div className="open-head">
        <h2 id="traffic-title">Node traffic</h2>
        {onClose && (
          <button type="button" onClick={onClose} aria-label="Close the node traffic panel">
            Close
          </button>
        )}
      </div>
      <p
        className={`traffic-status status-${t.status}`}
        role="status"
        aria-live="polite"
        aria-label="Traffic connection"
      >
        <span className="traffic-dot" aria-hidden="true" /> {nodeUrl}: {STATUS_TEXT[t.status]}
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
      <div className="traffic-filters" role="group" aria-label="Filter the calls">
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
        <label>
          Outcome
          <select
            value={filter.outcome ?? ''}
            onChange={(e) => setFilter((f) => ({ ...f, outcome: (e.target.value || null) as Outcome | null }))}
          >
            <option value="">any</option>
            {OUTCOMES.map((o) => (
              <option key={o} value={o}>
                {o}
              </option>
            ))}
          </select>
        </label>
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
      <div className="traffic-table" role="table" aria-label="Node calls" aria-rowcount={shown.length + 1}>
        <div role="rowgroup">
          <div role="row" aria-rowindex={1} className="traffic-row traffic-head">
            <span role="columnheader">Time</span>
            <span role="columnheader" className="traffic-transport">
              Transport
            </span>
            <span role="columnheader">Method</span>
            <span role="columnheader">Subject</span>
            <span role="columnheader">Outcome</span>
            <span role="columnheader" className="traffic-ms">
              ms
            </span>
            <span role="columnheader">
              <span className="sr-only">Open</span>
            </span>
          </div>
        </div>
        <div className="traffic-scroll" ref={scroller}>
          {shown.length === 0 ? (
            <p className="muted traffic-empty">
              {t.calls.length === 0
                ? 'No call yet: the calls the node serves appear here as they happen.'
                : 'No call matches the filter.'}
            </p>
          ) : (
            <div role="rowgroup" style={{ height: v.getTotalSize(), position: 'relative' }}>
              {v.getVirtualItems().map((item) => {
                const c = shown[item.index]!
                const m = shortMethod(c.method)
                const target = targetOf(c)
                const busy = opening?.key === c.key && opening.error === null
                return (
                  <div
                    key={c.key}
                    role="row"
                    aria-rowindex={item.index + 2}
                    className={`traffic-row outcome-${c.outcome}`}
                    style={{
                      position: 'absolute',
                      top: 0,
                      left: 0,
                      right: 0,
                      height: ROW_HEIGHT,
                      transform: `translateY(${item.start}px)`,
                    }}
                  >
                    <span role="cell" className="mono" title={c.time}>
                      {clock(c.time)}
                    </span>
                    <span role="cell" className="traffic-transport">
                      {c.transport}
                    </span>
                    <span role="cell" title={c.method}>
                      {m.name}
                      {m.service && <span className="muted small"> {m.service}</span>}
                    </span>
                    <span
                      role="cell"
                      className="mono"
                      title={c.subject ? `${c.subject.kind} ${c.subject.value}` : undefined}
                    >
                      {c.subject ? (
                        <>
                          <span className="muted">{c.subject.kind} </span>
                          {c.subject.value}
                        </>
                      ) : (
                        <span className="muted">—</span>
                      )}
                    </span>
                    <span role="cell" title={c.message || c.code}>
                      <span className={`chip outcome-chip outcome-${c.outcome}`}>{c.outcome}</span>
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
                    </span>
                    <span role="cell" className="traffic-ms">
                      {c.ms.toFixed(1)}
                    </span>
                    <span role="cell">
                      {target.kind !== 'none' ? (
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
                      ) : null}
                    </span>
                  </div>
                )
              })}
            </div>
          )}
        </div>
      </div>
    </section>
  )
}
