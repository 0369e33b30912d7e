import { memo, useCallback, useDeferredValue, useEffect, useMemo, useRef, useState, type RefObject } from 'react'
import type { Row, Selection, TraceModel } from '../../trace/trace-model'
import { clientTime, KIND_LABEL, plural, shortId, STATUS_LABEL, STATUS_MARK } from '../../ui/format'
import { useKeys } from '../../ui/useKeys'
import { describeRow, filterRows, isFiltering, NO_FILTER, type RowFilter } from './rows'
import { TimeSlider } from './TimeSlider'

const ROW_H = 26
const SHORT_KIND: Record<string, string> = { installation: 'inst', wallet: 'wallet', passkey: 'passkey' }
const OVERSCAN = 12

type Item = { readonly type: 'row'; readonly row: Row } | { readonly type: 'stop'; readonly k: number }

export interface TimelineProps {
  readonly model: TraceModel
  readonly rows: readonly Row[]
  readonly selection: Selection | null
  readonly onSelect: (s: Selection) => void
  readonly filterInput: RefObject<HTMLInputElement | null>
  /** The row pinned as the Diff tab's base (shift-click or `b`), if any. */
  readonly pinned?: Row | null
  /** Pins a row as the diff base; null unpins. */
  readonly onPin?: (r: Row | null) => void
}

type Move = number | 'home' | 'end' | 'prev-update' | 'next-update'

/**
 * Arrow Left/Right: the first shown row of the previous or next update (whole updates,
 * where Up/Down step through actions). `pos` indexes `shown`; returns the new index.
 */
export function stepUpdate(shown: readonly Row[], pos: number, dir: 'prev-update' | 'next-update'): number {
  if (shown.length === 0) return -1
  if (pos < 0) return 0
  const k = shown[pos]!.k
  if (dir === 'next-update') {
    let j = pos
    while (j < shown.length && shown[j]!.k === k) j++
    return j < shown.length ? j : pos
  }
  // back to the first row of this update's predecessor
  let j = pos
  while (j >= 0 && shown[j]!.k === k) j--
  if (j < 0) return firstOf(shown, pos)
  const prev = shown[j]!.k
  while (j > 0 && shown[j - 1]!.k === prev) j--
  return j
}

function firstOf(shown: readonly Row[], pos: number): number {
  let j = pos
  while (j > 0 && shown[j - 1]!.k === shown[pos]!.k) j--
  return j
}

const rowId = (r: Row) => `tl-${r.k}-${r.i < 0 ? 'u' : r.i}`

/**
 * The scrollTop that brings item `n` into view (the stop notice before it counted), or
 * null when it is in view already.
 */
function scrollFor(n: number, stopPos: number, view: { readonly scrollTop: number; readonly height: number }) {
  const top = n * ROW_H + (stopPos >= 0 && n > stopPos ? ROW_H : 0)
  if (top < view.scrollTop) return top
  if (top + ROW_H > view.scrollTop + view.height) return top + ROW_H - view.height
  return null
}

/** One row of the timeline; memoized, so a step re-renders only the rows it selects or leaves. */
const TimelineRow = memo(function TimelineRow({
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

/** The timeline's title and counts; memoized, so a step does not re-render it. */
const TimelineHead = memo(function TimelineHead({
  filtering,
  shown,
  rows,
  updates,
}: {
  filtering: boolean
  shown: number
  rows: number
  updates: number
}) {
  return (
    <div className="timeline-head">
      <h2 id="timeline-title">Timeline</h2>
      <span className="muted">
        {filtering ? `${shown.toLocaleString('en')} of ${plural(rows, 'action')}` : plural(rows, 'action')} ·{' '}
        {plural(updates, 'update')}
      </span>
    </div>
  )
})

const KINDS = Object.keys(KIND_LABEL) as (keyof typeof KIND_LABEL)[]

/** The filter controls; memoized, so a step does not re-render them. */
const TimelineFilters = memo(function TimelineFilters({
  filter,
  setFilter,
  filterInput,
}: {
  filter: RowFilter
  setFilter: (f: RowFilter) => void
  filterInput: RefObject<HTMLInputElement | null>
}) {
  return (
    <div className="filters">
      <input
        ref={filterInput}
        type="search"
        aria-label="Filter by member or handle (press / to focus)"
        placeholder="member or handle  ( / )"
        value={filter.text}
        onChange={(e) => setFilter({ ...filter, text: e.target.value })}
      />
      <select
        aria-label="Filter by action kind"
        value={filter.kind}
        onChange={(e) => setFilter({ ...filter, kind: e.target.value as RowFilter['kind'] })}
      >
        <option value="">all kinds</option>
        {KINDS.map((k) => (
          <option key={k} value={k}>
            {KIND_LABEL[k]}
          </option>
        ))}
        <option value="undecodable">undecodable</option>
      </select>
      <select
        aria-label="Filter by status"
        value={filter.status}
        onChange={(e) => setFilter({ ...filter, status: e.target.value as RowFilter['status'] })}
      >
        <option value="">all statuses</option>
        {(Object.keys(STATUS_LABEL) as (keyof typeof STATUS_LABEL)[]).map((s) => (
          <option key={s} value={s}>
            {STATUS_LABEL[s]}
          </option>
        ))}
      </select>
    </div>
  )
})

/** The timeline: every action of every update, virtualized, keyboard first. */
export const Timeline = memo(function Timeline({
  model,
  rows,
  selection,
  onSelect,
  filterInput,
  pinned = null,
  onPin,
}: TimelineProps) {
  const [filter, setFilter] = useState<RowFilter>(NO_FILTER)
  // The input follows each keystroke at once; the list follows in a deferred render
  // (filterRows scans a per-log index, rows.ts rowIndex).
  const deferredFilter = useDeferredValue(filter)
  const shown = useMemo(() => filterRows(model, rows, deferredFilter), [model, rows, deferredFilter])
  const stop = useMemo(() => model.stopIndex(), [model])
  const items = useMemo<Item[]>(() => {
    const out: Item[] = []
    for (let j = 0; j < shown.length; j++) {
      const r = shown[j]!
      out.push({ type: 'row', row: r })
      if (r.k === stop && shown[j + 1]?.k !== stop) out.push({ type: 'stop', k: stop })
    }
    return out
  }, [shown, stop])
  // every item is ROW_H tall except the stop notice (two rows)
  const stopPos = useMemo(() => items.findIndex((it) => it.type === 'stop'), [items])
  // item index of each row, and the row items in order (O(1) lookups while stepping)
  const { indexOf, rowItems } = useMemo(() => {
    const indexOf = new Map<string, number>()
    const rowItems: number[] = []
    items.forEach((it, n) => {
      if (it.type !== 'row') return
      indexOf.set(`${it.row.k}:${it.row.i}`, rowItems.length)
      rowItems.push(n)
    })
    return { indexOf, rowItems }
  }, [items])
  const selPos = selection ? (indexOf.get(`${selection.k}:${selection.i}`) ?? -1) : -1
  const selIndex = selPos >= 0 ? rowItems[selPos]! : -1
  const viewport = useRef<HTMLDivElement>(null)
  const [scrollTop, setScrollTop] = useState(0)
  const [height, setHeight] = useState(600)

  useEffect(() => {
    const el = viewport.current
    if (!el) return
    const ro = new ResizeObserver(() => setHeight(el.clientHeight))
    ro.observe(el)
    setHeight(el.clientHeight)
    return () => ro.disconnect()
  }, [])

  // Keep the selected row in view. The check uses the tracked scroll position and
  // height (no layout read per step); only a row out of view writes scrollTop.
  const view = useRef({ scrollTop, height })
  view.current = { scrollTop, height }
  useEffect(() => {
    const el = viewport.current
    if (!el || selIndex < 0) return
    const next = scrollFor(selIndex, stopPos, view.current)
    if (next !== null) {
      el.scrollTop = next
      setScrollTop(next)
    }
  }, [selIndex, stopPos])

  const move = (delta: Move) => {
    if (rowItems.length === 0) return
    let pos = selPos
    if (delta === 'home') pos = 0
    else if (delta === 'end') pos = rowItems.length - 1
    else if (delta === 'prev-update' || delta === 'next-update') pos = stepUpdate(shown, pos, delta)
    else pos = pos < 0 ? 0 : Math.min(Math.max(pos + delta, 0), rowItems.length - 1)
    const it = items[rowItems[pos]!]!
    if (it.type !== 'row') return
    // Scroll here, while the layout is still the painted frame's: the same write after the
    // commit (the effect above) would force a layout of the whole changed page first.
    const el = viewport.current
    const next = el ? scrollFor(rowItems[pos]!, stopPos, view.current) : null
    if (el && next !== null) {
      el.scrollTop = next
      setScrollTop(next)
    }
    onSelect(it.row)
  }
  const moveRef = useRef(move)
  moveRef.current = move
  const pin = (r: Row) => onPin?.(pinned && pinned.k === r.k && pinned.i === r.i ? null : r)
  // A row's click, one identity for the log's life: rows are memoized and re-render only
  // when their own props change (a step re-renders the two rows whose selection changed).
  const pickRef = useRef<(r: Row, shift: boolean) => void>(() => undefined)
  pickRef.current = (r, shift) => {
    // Shift-click pins the row as the Diff tab's base and keeps the selection.
    if (shift && onPin) pin(r)
    else onSelect(r)
    viewport.current?.focus()
  }
  const onPick = useCallback((r: Row, shift: boolean) => pickRef.current(r, shift), [])
  const pinRef = useRef<() => void>(() => undefined)
  pinRef.current = () => {
    if (selection) pin(selection)
  }

  // The timeline's keys (src/app/ui/keymap.ts): the one window listener calls these.
  const rowsPerPage = () => Math.max(1, Math.floor((viewport.current?.clientHeight ?? 300) / ROW_H) - 1)
  useKeys({
    'timeline.filter': () => filterInput.current?.focus(),
    'timeline.leave-filter': (e) => {
      if (e.target !== filterInput.current) return false
      filterInput.current?.blur()
      viewport.current?.focus()
    },
    'timeline.pin': () => {
      if (!onPin) return false
      pinRef.current()
    },
    'timeline.action': (e) => moveRef.current(e.key === 'ArrowDown' || e.key === 'j' ? 1 : -1),
    'timeline.update': (e) => moveRef.current(e.key === 'ArrowRight' ? 'next-update' : 'prev-update'),
    'timeline.page': (e) => moveRef.current(e.key === 'PageDown' ? rowsPerPage() : -rowsPerPage()),
    // A focused button keeps Home and End (the step's tabs take them themselves).
    'timeline.ends': (e) => {
      if (typeof HTMLButtonElement !== 'undefined' && e.target instanceof HTMLButtonElement) return false
      moveRef.current(e.key === 'Home' ? 'home' : 'end')
    },
  })

  const topOf = (n: number) => n * ROW_H + (stopPos >= 0 && n > stopPos ? ROW_H : 0)
  const first = Math.max(0, Math.floor(scrollTop / ROW_H) - OVERSCAN)
  const last = Math.min(items.length, Math.ceil((scrollTop + height) / ROW_H) + OVERSCAN)
  const visible = items.slice(first, last)
  const selected = selIndex >= 0 ? items[selIndex] : undefined

  return (
    // data-filter: the filter text the list shows (the deferred render has committed it).
    <section className="timeline" aria-labelledby="timeline-title" data-filter={deferredFilter.text}>
      <TimelineHead
        filtering={isFiltering(deferredFilter)}
        shown={shown.length}
        rows={rows.length}
        updates={model.steps.length}
      />
      <TimelineFilters filter={filter} setFilter={setFilter} filterInput={filterInput} />
      <div className="tl-colhead" aria-hidden="true">
        <span>seq</span>
        <span />
        <span>action</span>
        <span>names</span>
        <span>signers</span>
        <span>client time</span>
      </div>
      <div
        ref={viewport}
        className="tl-viewport"
        role="listbox"
        tabIndex={0}
        aria-label="Updates and their actions (Up/Down or j/k: actions, Left/Right: updates, Home/End; shift-click or b: pin as the diff base)"
        aria-activedescendant={selected?.type === 'row' ? rowId(selected.row) : undefined}
        onScroll={(e) => setScrollTop(e.currentTarget.scrollTop)}
      >
        <div style={{ height: items.length * ROW_H + (stopPos >= 0 ? ROW_H : 0), position: 'relative' }}>
          {visible.map((it, j) => {
            const n = first + j
            const top = topOf(n)
            if (it.type === 'stop') {
              const s = model.steps[it.k]!
              const later = model.steps.length - it.k - 1
              return (
                <div
                  key={`stop-${it.k}`}
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
            const isPin = pinned !== null && pinned.k === it.row.k && pinned.i === it.row.i
            return (
              <TimelineRow
                key={rowId(it.row)}
                model={model}
                row={it.row}
                top={top}
                selected={n === selIndex}
                pinned={isPin}
                onPick={onPick}
              />
            )
          })}
        </div>
      </div>
      {items.length === 0 && <p className="empty">No action matches the filter.</p>}
      <TimeSlider model={model} rows={rows} selection={selection} onSelect={onSelect} />
    </section>
  )
})
