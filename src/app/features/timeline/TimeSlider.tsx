/**
 * The time slider: an <input type=range> over the log's updates that moves the
 * selection to the update under it (its first action). The range's own keys step it:
 * arrows one update, PageUp/PageDown a tenth, Home/End the first and last.
 */
import { useMemo } from 'react'
import type { Row, Selection, TraceModel } from '../../trace/trace-model'
import { clientTime } from '../../ui/format'

export function TimeSlider({
  model,
  rows,
  selection,
  onSelect,
}: {
  model: TraceModel
  rows: readonly Row[]
  selection: Selection | null
  onSelect: (s: Selection) => void
}) {
  // The first row of each update, for O(1) moves while the slider is dragged.
  const firstRow = useMemo(() => {
    const out: Row[] = []
    for (const r of rows) out[r.k] ??= r
    return out
  }, [rows])
  const n = model.steps.length
  if (n < 2) return null
  const k = selection?.k ?? 0
  const step = model.steps[k]!
  const time = step.update ? ` · ${clientTime(step.update.clientTimestampNs)}` : ''
  return (
    <div className="tl-slider">
      <label htmlFor="time-slider">Time</label>
      <input
        id="time-slider"
        type="range"
        min={0}
        max={n - 1}
        step={1}
        value={k}
        aria-valuetext={`sequence id ${step.sequenceId}, update ${k + 1} of ${n}${time}`}
        onChange={(e) => {
          const r = firstRow[Number(e.target.value)]
          if (r) onSelect(r)
        }}
      />
      <output htmlFor="time-slider" className="muted small">
        seq {step.sequenceId.toString()} · {k + 1}/{n}
      </output>
    </div>
  )
}
