/**
 * The shell composes and holds no feature logic: view state and its address (shell/view-state.ts, view-url.ts),
 * the log session (shell/useLogSession.ts), drawers as a registry (shell/drawers.tsx), every shortcut in
 * ui/keymap.ts, the node's calls as one service (model/node-service.ts). */
import { lazy, type ReactNode, Suspense, useCallback, useRef, useState } from 'react'
import { useLogLimit } from './features/compose/flows/useLogLimit'
import { useEditSession } from './features/edit/useEditSession'
import { InputErrorView } from './features/log-input/components/InputError'
import { NodeServiceProvider } from './features/network/NodeServiceProvider'
import { fetchAddressQuery } from './features/network/profiles'
import { Presenter } from './features/presenter/components/Presenter'
import type { InspectRequest } from './model/inspect-request'
import type { Selection, TraceModel } from './trace/trace-model'
import { diffStates } from './model/state-diff'
import { DrawerStack } from './shell/DrawerStack'
import { Header } from './shell/Header'
import { useLogSession } from './shell/useLogSession'
import { initialView } from './shell/view-state'
import { useSelection, useShellView, ViewStore, ViewStoreProvider } from './shell/view-store'
import { readView } from './shell/view-url'
import { Workspace } from './shell/Workspace'
import { ErrorBoundary } from './ui/ErrorBoundary'
import { KeysHelp } from './ui/KeysHelp'
// Lazy chunks, loaded when shown: Follow (a log read from a node is open), the settings, the fetch call-out.
const FollowBar = lazy(() => import('./features/follow/components/FollowBar').then((m) => ({ default: m.FollowBar })))
const Settings = lazy(() => import('./shell/Settings').then((m) => ({ default: m.Settings })))
const FetchCallout = lazy(() =>
  import('./features/network/components/FetchCallout').then((m) => ({ default: m.FetchCallout })),
)

/** Renders `children` with the selection: the one part of a view here that changes on each step. */
function WithSelection({
  model,
  children,
}: {
  model: TraceModel
  children: (selection: Selection | null) => ReactNode
}) {
  return children(useSelection(model))
}

export function App() {
  // The view lives in a store: the shell renders the view without its selection, so a step
  // re-renders only the views that show the selection (shell/view-store.ts).
  const [store] = useState(() => new ViewStore(initialView(readView(location.search, location.hash))))
  const view = useShellView(store)
  const dispatch = store.dispatch
  const session = useLogSession(view, store)
  const { ins, nodeFetch } = session
  const { loaded, busy, problem } = ins
  const [logLimit, setLogLimit] = useLogLimit()
  // Edit mode (features/edit): edited copies of the open log, replayed like any log.
  const edit = useEditSession({ loaded, open: session.openByUser, openExample: session.page.openExample })
  // Presenter mode (workshops): one step per screen instead of the workspace; leaving returns the focus to Present.
  const presentButton = useRef<HTMLButtonElement>(null)
  const present = useCallback(
    (on: boolean) => {
      dispatch({ type: 'present', on })
      if (!on) presentButton.current?.focus()
    },
    [dispatch],
  )
  // Presenter mode's "what changed": the same diff as the Diff tab.
  const diffOf = useCallback(
    (k: number, i: number) => {
      const v = loaded?.model.actionView(k, i)
      return v ? diffStates(v.before, v.after, v.touched) : diffStates(null, null)
    },
    [loaded],
  )
  const openSettings = useCallback(() => dispatch({ type: 'settings', open: true }), [dispatch])
  const fetched = nodeFetch.status.kind === 'done' ? nodeFetch.status.result : null
  const openRequest = session.openRequest
  const openFollowed = useCallback((r: InspectRequest) => openRequest(r, false), [openRequest])
  const setFollow = useCallback((on: boolean) => dispatch({ type: 'follow', on }), [dispatch])

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
          />
          <KeysHelp />
          {loaded?.source.kind === 'node' && loaded.source.fetch && (
            <ErrorBoundary label="Follow">
              <Suspense fallback={null}>
                <WithSelection model={loaded.model}>
                  {(selection) => (
                    <FollowBar
                      loaded={loaded}
                      selection={selection}
                      busy={busy !== null}
                      presenting={view.presenting}
                      on={view.follow}
                      onFollow={setFollow}
                      onOpen={openFollowed}
                      onSelect={session.userSelect}
                    />
                  )}
                </WithSelection>
              </Suspense>
            </ErrorBoundary>
          )}
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
          {fetched &&
            !view.presenting &&
            loaded?.source.kind === 'node' &&
            loaded.source.fetch === fetchAddressQuery(fetched.address) && (
              <ErrorBoundary label="The fetch call-out">
                <Suspense fallback={null}>
                  <FetchCallout result={fetched} profiles={session.net.profiles} onDismiss={nodeFetch.dismiss} />
                </Suspense>
              </ErrorBoundary>
            )}
          {ins.notice && (
            <p className="notice" role="status">
              {ins.notice}{' '}
              <button type="button" className="link" onClick={() => ins.setNotice(null)} aria-label="Dismiss notice">
                dismiss
              </button>
            </p>
          )}
          {problem && (
            <div className="problem-wrap">
              <InputErrorView {...problem} json={problem.json ?? false} />
              <button type="button" onClick={() => ins.setProblem(null)} aria-label="Dismiss the error">
                Dismiss
              </button>
            </div>
          )}
          {/* Escape closes the newest drawer, then leaves presenter mode. */}
          <DrawerStack
            ctx={{ session, view, dispatch, openSettings, edit, logLimit }}
            onEscape={() => {
              if (!view.presenting) return false
              present(false)
              return true
            }}
          />
          {loaded && view.presenting && (
            <ErrorBoundary label="Presenter mode" resetKey={loaded.loadId}>
              <WithSelection model={loaded.model}>
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
            </ErrorBoundary>
          )}
          {loaded && !view.presenting && (
            <Workspace session={session} view={view} dispatch={dispatch} retrying={busy !== null} />
          )}
        </div>
      </NodeServiceProvider>
    </ViewStoreProvider>
  )
}
