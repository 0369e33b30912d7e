/**
 * The header: the open log (its label, the edited mark, the log of a multi-inbox input,
 * its verdict and health), the replay's progress, and the actions: a button per drawer of
 * the registry (those that need a log once one is open), Present, the permalink, Settings
 * and the theme. On a phone it is one row: Open log…, the theme and a More menu with the
 * rest. Its height is kept in --topbar-h on the drawers' layer (DrawerStack), under which the
 * drawers sit: set there, not on the root, a change of height (the replay's progress bar
 * comes and goes) restyles the drawers only, not the whole page.
 */
import { type Dispatch, type ReactNode, type RefObject, useEffect, useRef } from 'react'
import { HealthChip } from '../features/compose/flows/HealthChip'
import { EditedBadge } from '../features/edit/components/EditedBadge'
import type { useEditSession } from '../features/edit/useEditSession'
import { ThemeToggle } from '../features/settings/ThemeToggle'
import { CopyButton } from '../ui/CopyButton'
import { shortId } from '../ui/format'
import { DRAWERS } from './drawers'
import { AutoLoadStatus, BusyBar, LogVerdict } from './HeaderStatus'
import type { MenuAction } from './menu-action'
import { OverflowMenu } from './OverflowMenu'
import type { LogSession } from './useLogSession'
import { DRAWER_IDS, type DrawerId, type ShellView, type ViewAction } from './view-state'

/** A header button that opens and closes a drawer or panel: pressed-looking while it is open. */
function DrawerToggle({ open, onClick, children }: { open: boolean; onClick: () => void; children: ReactNode }) {
  return (
    <button type="button" className={open ? 'active' : ''} aria-expanded={open} onClick={onClick}>
      {children}
    </button>
  )
}

export function Header({
  session,
  view,
  dispatch,
  edit,
  logLimit,
  presentButton,
  onPresent,
  drawerLayer,
}: {
  session: LogSession
  view: ShellView
  dispatch: Dispatch<ViewAction>
  edit: ReturnType<typeof useEditSession>
  logLimit: number
  presentButton: RefObject<HTMLButtonElement | null>
  onPresent: (on: boolean) => void
  /** The drawers' layer (DrawerStack's `layer`), where the header's height is written. */
  drawerLayer: RefObject<HTMLElement | null>
}) {
  const { ins, page, openByUser } = session
  const { loaded, busy } = ins
  const topbar = useRef<HTMLElement>(null)
  useEffect(() => {
    const el = topbar.current
    if (!el) return
    const set = () => drawerLayer.current?.style.setProperty('--topbar-h', `${el.offsetHeight}px`)
    const ro = new ResizeObserver(set)
    ro.observe(el)
    set()
    return () => ro.disconnect()
  }, [drawerLayer])
  const toggle = (d: DrawerId) => (
    <DrawerToggle
      key={d}
      // With no log open, the Open panel is the page: its button shows it pressed.
      open={view.drawers.includes(d) || (d === 'open' && !loaded && !busy)}
      onClick={() => session.toggleDrawer(d)}
    >
      {DRAWERS[d].title}
    </DrawerToggle>
  )
  const { fragment, compressed: z } = page
  // Built when asked for: the hash names the selected step, which a step changes without rendering the header.
  const link = () => (fragment ? `${location.origin}${location.pathname}${fragment.search}${fragment.hash()}` : '')
  // A phone's More menu: the same actions as the buttons it hides, in the same order.
  const drawerAction = (d: DrawerId): MenuAction => ({
    id: d,
    label: DRAWERS[d].title,
    checked: view.drawers.includes(d),
    onSelect: () => session.toggleDrawer(d),
  })
  const more: MenuAction[] = [
    ...DRAWER_IDS.filter((d) => d !== 'open' && !DRAWERS[d].needsLog).map(drawerAction),
    ...(loaded
      ? [
          { id: 'present', label: 'Present', checked: view.presenting, onSelect: () => onPresent(!view.presenting) },
          ...DRAWER_IDS.filter((d) => DRAWERS[d].needsLog).map(drawerAction),
        ]
      : []),
    ...(loaded && fragment?.linkable
      ? [
          {
            id: 'copy-link',
            label: 'Copy link',
            onSelect: () => {
              const refused = () => ins.setNotice('The link could not be copied: the browser refused the clipboard.')
              if (!navigator.clipboard) return refused()
              navigator.clipboard
                .writeText(link())
                .then(() => ins.setNotice('The link to this step was copied.'), refused)
            },
          },
        ]
      : []),
    ...(loaded?.source.edited && edit.restorable === null
      ? [{ id: 'restore', label: 'Restore original', onSelect: () => void edit.restore() }]
      : []),
    { id: 'settings', label: 'Settings…', onSelect: () => dispatch({ type: 'settings', open: true }) },
  ]
  return (
    <header className="topbar" ref={topbar}>
      <div className="topbar-id">
        <h1>Inbox Inspector</h1>
        {loaded && (
          <div className={loaded.source.edited ? 'source edited' : 'source'} aria-label="Open log">
            <span className="muted source-label" title={loaded.source.label}>
              {loaded.source.label}
            </span>
            {loaded.source.edited && (
              <EditedBadge
                mark={loaded.source.edited}
                restorable={edit.restorable}
                onRestore={() => void edit.restore()}
              />
            )}
            {loaded.logs.length > 1 && (
              <select
                aria-label="Inbox log of the input"
                value={loaded.logIndex}
                onChange={(e) => void openByUser(loaded.source, { logIndex: Number(e.target.value) })}
              >
                {loaded.logs.map((l) => (
                  <option key={l.index} value={l.index}>
                    {`log ${l.index + 1} of ${loaded.logs.length}: inbox ${l.inboxId ? shortId(l.inboxId) : '?'} (${l.entries} update${l.entries === 1 ? '' : 's'})`}
                  </option>
                ))}
              </select>
            )}
            <LogVerdict loaded={loaded} />
            <HealthChip
              entries={loaded.model.steps.length}
              limit={logLimit}
              onOpen={() => dispatch({ type: 'flow', flow: 'health' })}
            />
          </div>
        )}
      </div>
      {busy && <BusyBar busy={busy} progress={ins.progress} onCancel={ins.cancel} />}
      {!busy && session.pendingAuto.length > 0 && <AutoLoadStatus loads={session.pendingAuto} />}
      {/* On a phone the header is one row: Open log…, the theme and More (the rest, ./OverflowMenu.tsx). */}
      <div className="topbar-actions" role="group" aria-label="Inspector actions">
        {toggle('open')}
        <div className="topbar-rest">
          {DRAWER_IDS.filter((d) => d !== 'open' && !DRAWERS[d].needsLog).map(toggle)}
          {loaded && (
            <button
              type="button"
              ref={presentButton}
              className={view.presenting ? 'active' : ''}
              aria-pressed={view.presenting}
              title="Presenter mode: one step per screen, in large type"
              onClick={() => onPresent(!view.presenting)}
            >
              Present
            </button>
          )}
          {loaded && DRAWER_IDS.filter((d) => DRAWERS[d].needsLog).map(toggle)}
          {loaded &&
            fragment &&
            (fragment.linkable ? (
              <CopyButton text={link} what="permalink to this step" label="Copy link" />
            ) : (
              <span className="muted small" title={z?.why ?? 'preparing the link'}>
                no permalink
              </span>
            ))}
          <button
            type="button"
            className={view.settings ? 'active' : ''}
            aria-haspopup="dialog"
            onClick={() => dispatch({ type: 'settings', open: true })}
          >
            Settings…
          </button>
        </div>
        <ThemeToggle />
        <OverflowMenu label="More" className="topbar-more" actions={more} />
      </div>
    </header>
  )
}
