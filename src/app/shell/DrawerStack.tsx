/**
 * The drawer stack: renders the open drawers of the registry (./drawers.tsx), the newest
 * last (on top), each in its frame: the frame takes the focus when the drawer opens, keeps
 * Tab inside it, and gives the focus back when it closes (ui/drawer-focus.ts). With no log
 * open, the Open drawer is the page itself (inline, not closable), but for the first moment
 * of a gallery example the app opens by itself: the page waits for it. They sit in one layer
 * (`display: contents`, so each frame is laid out as a child of the page), which carries
 * the header's height (--topbar-h, written by the header).
 */
import { type ReactNode, type RefObject, Suspense, useMemo } from 'react'
import { is } from '../ui/keymap'
import { type OwnBinding, useKeyBindings, useKeys } from '../ui/useKeys'
import type { DrawerContext } from './drawer-context'
import { type DrawerSpec, DRAWERS } from './drawers'
import { DRAWER_IDS, type DrawerId, type ShellView, topDrawer } from './view-state'
import { ErrorBoundary } from '../ui/ErrorBoundary'
import { useDrawerFocus } from '../ui/drawer-focus'
import { PanelHead } from '../ui/PanelHead'

type Registry = Readonly<Record<DrawerId, DrawerSpec>>

/** A modal dialog (Settings, the `?` list, a confirmation) is open: the page under it takes no keys. */
const modalOpen = (): boolean => document.querySelector('dialog[open], [aria-modal="true"]') !== null

/** Whether drawer `d` is shown as a drawer now (what Escape may close). */
function shownAsDrawer(registry: Registry, d: DrawerId, loaded: boolean): boolean {
  return loaded || !(registry[d].needsLog || d === 'open')
}

/**
 * The drawers to render, bottom first: the open ones in the order they opened; with no log
 * (and none loading, nor the first moment of a gallery example the app opens by itself:
 * `waiting`), the Open panel.
 */
function drawersToRender(registry: Registry, view: ShellView, loaded: boolean, waiting: boolean): DrawerId[] {
  const list = view.drawers.filter((d) => loaded || !registry[d].needsLog)
  if (!loaded && !waiting && !list.includes('open')) list.push('open')
  return list
}

/** A drawer's name as a heading says it: its header button's title without the ellipsis ("Signers"). */
const nameOf = (spec: DrawerSpec): string => spec.title.replace(/…$/, '')
/** A drawer's label inside a sentence ("the signers panel"). */
const inSentence = (label: string): string => label.replace(/^The /, 'the ')

/**
 * What a drawer's frame shows while its chunk loads (opened before the idle prefetch had
 * it, or on a slow network): a line that fades in after a moment, so a chunk that is
 * nearly there shows nothing, and screen readers hear it as a status.
 */
function DrawerLoading({ label }: { label: string }) {
  return (
    <p className="drawer-loading muted" role="status">
      {`Loading ${inSentence(label)}…`}
    </p>
  )
}

function DrawerFrame({
  spec,
  id,
  ctx,
  inline,
}: {
  spec: DrawerSpec
  id: DrawerId
  ctx: Omit<DrawerContext, 'close'>
  inline: boolean
}) {
  useDrawerFocus(!inline, id)
  const Component = spec.component
  const close = () => ctx.dispatch({ type: 'close', drawer: id })
  // A drawer that failed (its chunk did not load, its view threw) keeps its heading and Close.
  const frame = (failure: ReactNode) => (
    <section className="drawer-failed" aria-labelledby={`drawer-${id}-title`}>
      <PanelHead
        id={`drawer-${id}-title`}
        title={nameOf(spec)}
        closeLabel={`Close ${inSentence(spec.label)}`}
        onClose={inline ? undefined : close}
      />
      {failure}
    </section>
  )
  return (
    <div className={inline ? 'drawer-inline' : spec.wide ? 'drawer drawer-wide' : 'drawer'} data-drawer={id}>
      <ErrorBoundary label={spec.label} frame={frame}>
        {/* A lazy drawer (./drawers.tsx) is prefetched once the page is idle; opened before its chunk is here, it says so. */}
        <Suspense fallback={<DrawerLoading label={spec.label} />}>
          <Component {...ctx} close={close} />
        </Suspense>
      </ErrorBoundary>
    </div>
  )
}

/**
 * The stack. Escape (ui/keymap.ts `shell.escape`) closes the newest drawer shown; with none,
 * `onEscape` gets it (presenter mode leaves) and says whether it acted.
 */
export function DrawerStack({
  ctx,
  onEscape,
  registry = DRAWERS,
  layer,
}: {
  ctx: Omit<DrawerContext, 'close'>
  onEscape: () => boolean
  registry?: Registry
  /** The layer element, for the header to write its height on. */
  layer?: RefObject<HTMLDivElement | null>
}) {
  const { view, dispatch } = ctx
  const loaded = !!ctx.session.ins.loaded
  const toggle = ctx.session.toggleDrawer
  // Each drawer's key, from the registry: it opens and closes the drawer as its header button does.
  const bindings = useMemo(
    (): OwnBinding[] =>
      DRAWER_IDS.map((d) => ({
        id: `drawer.${d}`,
        group: 'Drawers',
        keys: registry[d].key,
        help: `${nameOf(registry[d])}: open or close${registry[d].needsLog ? ' (with a log open)' : ''}`,
        match: is(registry[d].key),
        run: () => {
          if ((registry[d].needsLog && !loaded) || modalOpen()) return false
          toggle(d)
        },
      })),
    [registry, loaded, toggle],
  )
  useKeyBindings(bindings)
  useKeys({
    'shell.escape': () => {
      const top = topDrawer(view, (d) => shownAsDrawer(registry, d, loaded))
      if (top) dispatch({ type: 'close', drawer: top })
      else return onEscape()
    },
  })
  const waiting = ctx.session.ins.busy !== null || ctx.session.page.waitingForExample
  return (
    <div className="drawer-layer" ref={layer}>
      {drawersToRender(registry, view, loaded, waiting).map((id) => (
        <DrawerFrame key={id} spec={registry[id]} id={id} ctx={ctx} inline={id === 'open' && !loaded} />
      ))}
    </div>
  )
}
