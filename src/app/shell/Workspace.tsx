/**
 * The workbench's two panes: the timeline (with the time slider) on the left, the
 * selected step on the right (its tabs, then the exports). The selection, the tab and the
 * Diff tab's base (pinned from the timeline, shift-click or `b`, or chosen in the Diff tab)
 * are the view state's; this pane reads the selection from the view store (./view-store.ts).
 */
import { type Dispatch, useCallback, useRef } from 'react'
import { Exports } from '../features/exports/Exports'
import { Timeline } from '../features/timeline/Timeline'
import type { Row } from '../trace/trace-model'
import type { Source } from '../trace/useInspector'
import { ErrorBoundary } from '../ui/ErrorBoundary'
import { StepDetails } from './StepDetails'
import type { TabId } from './step-tabs'
import type { LogSession } from './useLogSession'
import { baseIn, type ShellView, type ViewAction } from './view-state'
import { useSelection } from './view-store'

function baseName(s: Source): string {
  return (s.example ?? s.name).replace(/\.[a-z0-9]+$/i, '').replace(/[^a-zA-Z0-9._-]+/g, '-') || 'log'
}

export function Workspace({
  session,
  view,
  dispatch,
  retrying,
}: {
  session: LogSession
  view: ShellView
  dispatch: Dispatch<ViewAction>
  retrying: boolean
}) {
  const { ins } = session
  const loaded = ins.loaded!
  const { tab } = view
  // The selection from the view store: a step re-renders this pane, not the shell around it.
  const selection = useSelection(loaded)
  const filterInput = useRef<HTMLInputElement>(null)
  const onSelect = session.userSelect
  const onTab = useCallback((t: TabId) => dispatch({ type: 'tab', tab: t }), [dispatch])
  const retry = ins.retry
  const onRetry = useCallback(() => void retry(), [retry])
  // The base belongs to the log it was pinned in: a newly opened log starts from the previous step.
  const base = baseIn(view, loaded.loadId, loaded.model.steps.length)
  const loadId = loaded.loadId
  const onBase = useCallback((row: Row | null) => dispatch({ type: 'pin', loadId, row }), [dispatch, loadId])
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
