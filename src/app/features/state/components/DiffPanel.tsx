import { memo, useId } from 'react'
import { DiffRows } from '../../../ui/DiffRows'
import type { StepDiff } from '../diff'

/** One choice of the "Compare with…" control: `value` is opaque to the panel. */
export interface CompareOption {
  readonly value: string
  readonly label: string
}

/** The options as a memoized list: a long log has one per update, and stepping must not rebuild them. */
const Options = memo(function Options({ options }: { options: readonly CompareOption[] }) {
  return options.map((o) => (
    <option key={o.value} value={o.value}>
      {o.label}
    </option>
  ))
})

/**
 * What changed between the selected step and its base: the step before it (the default)
 * or any other step, chosen here ("Compare with…") or pinned in the timeline.
 */
export function DiffPanel({
  diff,
  tentative,
  options,
  value,
  onCompare,
}: {
  diff: StepDiff
  tentative: string | null
  /** The bases to choose from, the default (the previous step) first. */
  options: readonly CompareOption[]
  value: string
  onCompare: (value: string) => void
}) {
  const id = useId()
  return (
    <section className="panel diff" aria-labelledby="diff-title">
      <div className="panel-head">
        <h2 id="diff-title">{diff.base === null ? 'Change from the previous step' : 'Change between two steps'}</h2>
        <label className="compare" htmlFor={id}>
          Compare with…{' '}
          <select id={id} value={value} onChange={(e) => onCompare(e.target.value)}>
            <Options options={options} />
          </select>
        </label>
      </div>
      <p className="caption">{diff.caption}</p>
      {tentative && <p className="note warn">{tentative}</p>}
      {diff.diff.empty ? (
        <p className="empty">No change to the association state.</p>
      ) : (
        <DiffRows diff={diff.diff} label="Changes" />
      )}
    </section>
  )
}
