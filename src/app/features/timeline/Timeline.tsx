import { memo, useCallback, useDeferredValue, useEffect, useMemo, useRef, useState, type RefObject } from 'react'
import type { Row, Selection, TraceModel } from '../../trace/trace-model'
import { useKeys } from '../../ui/useKeys'
import { filterRows, isFiltering, NO_FILTER, type RowFilter } from './rows'
import { stepUpdate } from './step-update'
import { TimelineFilters, TimelineHead } from './TimelineHead'
import { ROW_H, rowId, scrollFor, StopNotice, TimelineRow, topOf } from './TimelineRow'
import { TimeSlider } from './TimeSlider'

const OVERSCAN = 12

type Move = number | 'home' | 'end' | 'prev-update' | 'next-update'

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
      {/* The focus ring is the sibling's (.focus-ring): drawn on the list itself, Chromium repaints
          the whole list at every step, not only the two rows whose selection changed. */}
      <div className="tl-frame">
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
              const top = topOf(n, stopPos)
              if (it.type === 'stop') return <StopNotice key={`stop-${it.k}`} model={model} k={it.k} top={top} />
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
        <div className="focus-ring" aria-hidden="true" />
      </div>
      {items.length === 0 && <p className="empty">No action matches the filter.</p>}
      <TimeSlider model={model} rows={rows} selection={selection} onSelect={onSelect} />
    </section>
  )
})
