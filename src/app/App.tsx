/**
 * The shell composes and holds no feature logic: view state and its address (shell/view-state.ts, view-url.ts),
 * the log session (shell/useLogSession.ts), drawers as a registry (shell/drawers.tsx), every shortcut in
 * ui/keymap.ts, the node's calls as one service (model/node-service.ts). */
import { Suspense, useCallback, useRef, useState } from 'react'
import { lazyModule } from './ui/lazy-again'
import { useLogLimit } from './features/compose/flows/useLogLimit'
import { useEditSession } from './features/edit/useEditSession'
import { NodeServiceProvider } from './features/network/NodeServiceProvider'
import { DrawerStack } from './shell/DrawerStack'
import { Header } from './shell/Header'
import { FetchCalloutSlot, FollowSlot } from './shell/NodeSlots'
import { Notices } from './shell/Notices'
import { usePrefetchWhenIdle } from './shell/prefetch'
import { useLogSession } from './shell/useLogSession'
import { usePresenter } from './shell/usePresenter'
import { initialView } from './shell/view-state'
import { useShellView, ViewStore, ViewStoreProvider } from './shell/view-store'
import { readView } from './shell/view-url'
import { WithSelection } from './shell/WithSelection'
import { Workspace } from './shell/Workspace'
import { ErrorBoundary } from './ui/ErrorBoundary'
import { KeysHelp } from './ui/KeysHelp'
// The settings are a lazy chunk, loaded when shown (so are Follow and the fetch call-out: shell/NodeSlots.tsx).
const Settings = lazyModule(
  () => import('./shell/Settings'),
  (m) => m.Settings,
)
// Presenter mode (workshops) is a lazy chunk too, loaded when it starts.
const Presenter = lazyModule(
  () => import('./features/presenter/components/Presenter'),
  (m) => m.Presenter,
)

export function App() {
  // The view lives in a store: the shell renders the view without its selection, so a step
  // re-renders only the views that show the selection (shell/view-store.ts).
  const [store] = useState(() => new ViewStore(initialView(readView(location.search, location.hash))))
  const view = useShellView(store)
  const dispatch = store.dispatch
  const session = useLogSession(view, store)
  const { loaded, busy } = session.ins
  // The lazy chunks one click away load once the page is idle after the first log shows.
  usePrefetchWhenIdle(loaded !== null)
  const [logLimit, setLogLimit] = useLogLimit()
  // Edit mode (features/edit): edited copies of the open log, replayed like any log.
  const edit = useEditSession({ loaded, open: session.openByUser, openExample: session.page.openExample })
  // Presenter mode (workshops): one step per screen instead of the workspace.
  const { presentButton, present, diffOf } = usePresenter(loaded, dispatch)
  const openSettings = useCallback(() => dispatch({ type: 'settings', open: true }), [dispatch])
  // The drawers' layer: the header writes its height there (--topbar-h), for the drawers only.
  const drawerLayer = useRef<HTMLDivElement>(null)

  return (
    <ViewStoreProvider value={store}>
      <NodeServiceProvider url={session.nodeUrl}>
        <div className="app" onDragOver={(e) => e.preventDefault()} onDrop={session.actions.onDrop}>
          <a className="skip-link" href="#step-details">
            Skip to the selected step
          </a>
          <Header
            session={session}
            view={view}
            dispatch={dispatch}
            edit={edit}
            logLimit={logLimit}
            presentButton={presentButton}
            onPresent={present}
            drawerLayer={drawerLayer}
          />
          <KeysHelp />
          <FollowSlot session={session} view={view} dispatch={dispatch} />
          {view.settings && (
            <Suspense fallback={null}>
              <Settings
                session={session}
                logLimit={logLimit}
                onLogLimit={setLogLimit}
                onClose={() => dispatch({ type: 'settings', open: false })}
              />
            </Suspense>
          )}
          <FetchCalloutSlot session={session} view={view} />
          {/* Over a log, the Open drawer shows why an input failed itself (the page's banner would be under it). */}
          <Notices ins={session.ins} problemElsewhere={loaded !== null && view.drawers.includes('open')} />
          {/* Escape closes the newest drawer, then leaves presenter mode. */}
          <DrawerStack
            layer={drawerLayer}
            ctx={{ session, view, dispatch, openSettings, edit, logLimit }}
            onEscape={() => {
              if (!view.presenting) return false
              present(false)
              return true
            }}
          />
          {loaded && view.presenting && (
            <ErrorBoundary label="Presenter mode" resetKey={loaded.loadId}>
              <Suspense fallback={<p className="muted">Loading presenter mode…</p>}>
                <WithSelection loaded={loaded}>
                  {(selection) => (
                    <Presenter
                      model={loaded.model}
                      rows={loaded.rows}
                      selection={selection}
                      onSelect={session.userSelect}
                      diffOf={diffOf}
                      title={loaded.source.label}
                      onLeave={() => present(false)}
                    />
                  )}
                </WithSelection>
              </Suspense>
            </ErrorBoundary>
          )}
          {loaded && !view.presenting && (
            <Workspace session={session} view={view} dispatch={dispatch} retrying={busy !== null} />
          )}
          {/* The first log being read and validated (the Open panel, the page before it, has gone): said in the page too, not only in the header; shown after a moment, so a quick load does not flash it. */}
          {!loaded && busy && (
            <main className="workspace-pending">
              <p>
                {busy.phase === 'reading' ? 'Reading' : 'Validating'} {busy.label}…
              </p>
            </main>
          )}
        </div>
      </NodeServiceProvider>
    </ViewStoreProvider>
  )
}
