/**
 * The drawer stack: renders the open drawers of the registry (./drawers.tsx), the newest
 * last (on top), each in its frame: the frame takes the focus when the drawer opens, keeps
 * Tab inside it, and gives the focus back when it closes (ui/drawer-focus.ts). With no log
 * open, the Open drawer is the page itself (inline, not closable).
 */
import type { DrawerId, ViewState } from './view-state'
import { type DrawerContext, DRAWERS } from './drawers'
import { ErrorBoundary } from '../ui/ErrorBoundary'
import { useDrawerFocus } from '../ui/drawer-focus'

/** Whether drawer `d` is shown as a drawer now (what Escape may close). */
export function shownAsDrawer(d: DrawerId, loaded: boolean): boolean {
  return loaded || !(DRAWERS[d].needsLog || d === 'open')
}

/** The drawers to render, bottom first: the open ones in the order they opened; with no log (and none loading), the Open panel. */
export function drawersToRender(view: ViewState, loaded: boolean, busy: boolean): DrawerId[] {
  const list = view.drawers.filter((d) => loaded || !DRAWERS[d].needsLog)
  if (!loaded && !busy && !list.includes('open')) list.push('open')
  return list
}

function DrawerFrame({ id, ctx, inline }: { id: DrawerId; ctx: Omit<DrawerContext, 'close'>; inline: boolean }) {
  useDrawerFocus(!inline, id)
  const spec = DRAWERS[id]
  const Component = spec.component
  return (
    <div className={inline ? 'drawer-inline' : spec.wide ? 'drawer drawer-wide' : 'drawer'} data-drawer={id}>
      <ErrorBoundary label={spec.label}>
        <Component {...ctx} close={() => ctx.dispatch({ type: 'close', drawer: id })} />
      </ErrorBoundary>
    </div>
  )
}

export function DrawerStack({ ctx }: { ctx: Omit<DrawerContext, 'close'> }) {
  const { loaded, busy } = ctx.session.ins
  return (
    <>
      {drawersToRender(ctx.view, !!loaded, busy !== null).map((id) => (
        <DrawerFrame key={id} id={id} ctx={ctx} inline={id === 'open' && !loaded} />
      ))}
    </>
  )
}
