/** The timeline's top: its title and counts, and the filter controls. */
import { memo, type RefObject } from 'react'
import { KIND_LABEL, plural, STATUS_LABEL } from '../../ui/format'
import type { RowFilter } from './rows'

/** The timeline's title and counts; memoized, so a step does not re-render it. */
export const TimelineHead = memo(function TimelineHead({
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
export const TimelineFilters = memo(function TimelineFilters({
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
