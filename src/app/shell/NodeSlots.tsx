/**
 * What the shell shows for a log read from a node, each a lazy chunk loaded when shown:
 * Follow (new updates of the open inbox) and the call-out of the fetch that opened it.
 */
import { type Dispatch, Suspense, useCallback } from 'react'
import { lazyModule } from '../ui/lazy-again'
import { fetchAddressQuery } from '../features/network/profiles'
import type { InspectRequest } from '../model/inspect-request'
import { ErrorBoundary } from '../ui/ErrorBoundary'
import type { LogSession } from './useLogSession'
import type { ShellView, ViewAction } from './view-state'
import { WithSelection } from './WithSelection'

const FollowBar = lazyModule(
  () => import('../features/follow/components/FollowBar'),
  (m) => m.FollowBar,
)
const FetchCallout = lazyModule(
  () => import('../features/network/components/FetchCallout'),
  (m) => m.FetchCallout,
)

type SlotProps = { session: LogSession; view: ShellView; dispatch: Dispatch<ViewAction> }

export function FollowSlot({ session, view, dispatch }: SlotProps) {
  const { loaded, busy } = session.ins
  const openRequest = session.openRequest
  const openFollowed = useCallback((r: InspectRequest) => openRequest(r, false), [openRequest])
  const setFollow = useCallback((on: boolean) => dispatch({ type: 'follow', on }), [dispatch])
  if (loaded?.source.kind !== 'node' || !loaded.source.fetch) return null
  return (
    <ErrorBoundary label="Follow">
      <Suspense fallback={null}>
        <WithSelection loaded={loaded}>
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
  )
}

/** The fetch call-out, while the open log is the one that fetch read. */
export function FetchCalloutSlot({ session, view }: Omit<SlotProps, 'dispatch'>) {
  const { loaded } = session.ins
  const { nodeFetch } = session
  const fetched = nodeFetch.status.kind === 'done' ? nodeFetch.status.result : null
  if (!fetched || view.presenting || loaded?.source.kind !== 'node') return null
  if (loaded.source.fetch !== fetchAddressQuery(fetched.address)) return null
  return (
    <ErrorBoundary label="The fetch call-out">
      <Suspense fallback={null}>
        <FetchCallout result={fetched} profiles={session.net.profiles} onDismiss={nodeFetch.dismiss} />
      </Suspense>
    </ErrorBoundary>
  )
}
