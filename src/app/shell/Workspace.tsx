/**
 * The workbench's two panes: the timeline (with the time slider) on the left, the
 * selected step on the right (its tabs, then the exports). Holds the Diff tab's base, pinned
 * from the timeline (shift-click or `b`) or chosen in the Diff tab, for the open log.
 */
import { useCallback, useState, type RefObject } from 'react'
import { Exports } from '../features/exports/Exports'
import { Timeline } from '../features/timeline/Timeline'
import type { Row, Selection } from '../trace/trace-model'
import type { Loaded, Source } from '../trace/useInspector'
import { ErrorBoundary } from '../ui/ErrorBoundary'
import { StepDetails } from './StepDetails'
import type { TabId } from './step-tabs'

function baseName(s: Source): string {
  return (s.example ?? s.name).replace(/\.[a-z0-9]+$/i, '').replace(/[^a-zA-Z0-9._-]+/g, '-') || 'log'
}

export function Workspace({
  loaded,
  selection,
  onSelect,
  filterInput,
  onRetry,
  retrying,
  tab,
  onTab,
}: {
  loaded: Loaded
  selection: Selection | null
  onSelect: (r: Row) => void
  filterInput: RefObject<HTMLInputElement | null>
  onRetry: () => void
  retrying: boolean
  tab: TabId | null
  onTab: (t: TabId) => void
}) {
  // The base belongs to the log it was pinned in: a newly opened log starts from the previous step.
  const [pin, setPin] = useState<{ loadId: number; row: Row } | null>(null)
  const base = pin && pin.loadId === loaded.loadId && pin.row.k < loaded.model.steps.length ? pin.row : null
  const loadId = loaded.loadId
  const onBase = useCallback((row: Row | null) => setPin(row ? { loadId, row } : null), [loadId])
  const selectedStep = selection ? loaded.model.steps[selection.k]! : null
  return (
    <main className="workspace">
      <ErrorBoundary label="The timeline" resetKey={loaded.loadId}>
        <Timeline
          model={loaded.model}
          rows={loaded.rows}
          selection={selection}
          onSelect={onSelect}
          filterInput={filterInput}
          pinned={base}
          onPin={onBase}
        />
      </ErrorBoundary>
      <div className="details" id="step-details" tabIndex={-1}>
        {selection && selectedStep ? (
          <StepDetails
            loaded={loaded}
            k={selection.k}
            i={selection.i}
            onRetry={onRetry}
            retrying={retrying}
            tab={tab}
            onTab={onTab}
            base={base}
            onBase={onBase}
            onSelect={onSelect}
          />
        ) : (
          <p className="empty">The log has no updates.</p>
        )}
        {/* Below the step, so its views (the signature text at 1280×720) start above the fold. */}
        <Exports
          steps={loaded.model.steps}
          inboxId={loaded.inboxId}
          selected={selectedStep}
          report={loaded.report}
          base={baseName(loaded.source)}
        />
      </div>
    </main>
  )
}
