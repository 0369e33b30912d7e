/**
 * The overflow menu's open list (./OverflowMenu.tsx holds the button and whether it is
 * open): the role=menu of items, its keys (↓/↑, Home/End, type-ahead, Enter or Space,
 * Escape or Tab) and the press outside that closes it. A lazy chunk, prefetched once the
 * page is idle after the first log shows (./prefetch.ts).
 */
import { type KeyboardEvent, type RefObject, useEffect, useRef } from 'react'
import type { MenuAction } from './menu-action'

export function OverflowItems({
  id,
  label,
  actions,
  current,
  setActive,
  button,
  onDismiss,
  onClose,
  onPick,
}: {
  id: string
  label: string
  actions: readonly MenuAction[]
  /** The active item (the focus is on it). */
  current: number
  setActive: (at: number) => void
  button: RefObject<HTMLButtonElement | null>
  /** Closes the menu, the focus staying where a press put it. */
  onDismiss: () => void
  /** Closes the menu and gives the focus back to the button. */
  onClose: () => void
  onPick: (a: MenuAction) => void
}) {
  const menu = useRef<HTMLDivElement>(null)

  // The active item has the focus while the menu is open.
  useEffect(() => {
    menu.current?.querySelectorAll<HTMLElement>('[role^="menuitem"]')[current]?.focus()
  }, [current])

  // A press outside closes the menu (the focus stays where the press put it).
  useEffect(() => {
    const onDown = (e: PointerEvent) => {
      const t = e.target as Node
      if (!menu.current?.contains(t) && !button.current?.contains(t)) onDismiss()
    }
    document.addEventListener('pointerdown', onDown)
    return () => document.removeEventListener('pointerdown', onDown)
  }, [button, onDismiss])

  const onMenuKey = (e: KeyboardEvent) => {
    const n = actions.length
    const move: Record<string, number> = {
      ArrowDown: (current + 1) % n,
      ArrowUp: (current - 1 + n) % n,
      Home: 0,
      End: n - 1,
    }
    if (e.key in move) setActive(move[e.key]!)
    else if (e.key === 'Escape' || e.key === 'Tab') onClose()
    else if (e.key === 'Enter' || e.key === ' ') onPick(actions[current]!)
    else if (e.key.length === 1 && /\S/.test(e.key)) {
      // Type-ahead: the next item whose label starts with the letter.
      const k = e.key.toLowerCase()
      for (let j = 1; j <= n; j++) {
        const at = (current + j) % n
        if (actions[at]!.label.toLowerCase().startsWith(k)) {
          setActive(at)
          break
        }
      }
    } else return
    e.preventDefault()
    e.stopPropagation()
  }

  return (
    <div role="menu" id={id} ref={menu} aria-label={label} className="overflow-items" onKeyDown={onMenuKey}>
      {actions.map((a, i) => (
        <button
          key={a.id}
          type="button"
          role={a.checked === undefined ? 'menuitem' : 'menuitemcheckbox'}
          aria-checked={a.checked}
          tabIndex={i === current ? 0 : -1}
          onClick={() => onPick(a)}
          onPointerMove={() => i !== current && setActive(i)}
        >
          <span className="overflow-check" aria-hidden="true">
            {a.checked ? '✓' : ''}
          </span>
          {a.label}
        </button>
      ))}
    </div>
  )
}
