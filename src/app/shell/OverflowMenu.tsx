/**
 * The header's overflow menu (a phone's header keeps one row: the actions that do not fit
 * are here). The WAI-ARIA menu button: a button with aria-haspopup and aria-expanded opens
 * a role=menu of items; ↓/↑ (and Home/End) move between them, Enter or Space picks one,
 * Escape or Tab closes the menu, and the focus goes back to the button. The keys are the
 * menu's own (it marks them handled), so the page's keymap (ui/keymap.ts: Escape closes the
 * newest drawer) does not act on them as well. The open list is ./OverflowItems.tsx, a lazy
 * chunk prefetched once the page is idle (./prefetch.ts).
 */
import { type KeyboardEvent, Suspense, useCallback, useId, useRef, useState } from 'react'
import { lazyView } from '../ui/lazy-view'
import type { MenuAction } from './menu-action'

const Items = lazyView(
  () => import('./OverflowItems'),
  (m) => m.OverflowItems,
)

/** Loads the open list's chunk (./prefetch.ts). */
export const preloadOverflowItems = Items.preload

export function OverflowMenu({
  label,
  actions,
  className,
}: {
  /** The button's accessible name. */
  label: string
  actions: readonly MenuAction[]
  className?: string
}) {
  const [open, setOpen] = useState(false)
  const [active, setActive] = useState(0)
  const button = useRef<HTMLButtonElement>(null)
  const id = useId()
  // The actions may shrink while the menu is open (a log closes): stay on the last one.
  const current = Math.min(active, actions.length - 1)

  const show = (at: number) => {
    setActive(at)
    setOpen(true)
  }
  const dismiss = useCallback(() => setOpen(false), [])
  const close = () => {
    setOpen(false)
    button.current?.focus()
  }
  const pick = (a: MenuAction) => {
    close()
    a.onSelect()
  }

  const onButtonKey = (e: KeyboardEvent) => {
    if (e.key === 'ArrowDown' || e.key === 'ArrowUp') {
      e.preventDefault()
      show(e.key === 'ArrowDown' ? 0 : actions.length - 1)
    }
  }

  return (
    <div className={className ? `overflow-menu ${className}` : 'overflow-menu'}>
      <button
        type="button"
        ref={button}
        aria-haspopup="menu"
        aria-expanded={open}
        aria-controls={open ? id : undefined}
        className={open ? 'active' : ''}
        onClick={() => (open ? setOpen(false) : show(0))}
        onKeyDown={onButtonKey}
      >
        {label}
      </button>
      {open && (
        <Suspense fallback={null}>
          <Items.View
            id={id}
            label={label}
            actions={actions}
            current={current}
            setActive={setActive}
            button={button}
            onDismiss={dismiss}
            onClose={close}
            onPick={pick}
          />
        </Suspense>
      )}
    </div>
  )
}
