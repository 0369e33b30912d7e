/**
 * The header's overflow menu (a phone's header keeps one row: the actions that do not fit
 * are here). The WAI-ARIA menu button: a button with aria-haspopup and aria-expanded opens
 * a role=menu of items; ↓/↑ (and Home/End) move between them, Enter or Space picks one,
 * Escape or Tab closes the menu, and the focus goes back to the button. The keys are the
 * menu's own (it marks them handled), so the page's keymap (ui/keymap.ts: Escape closes the
 * newest drawer) does not act on them as well.
 */
import { type KeyboardEvent, useEffect, useId, useRef, useState } from 'react'

export interface MenuAction {
  readonly id: string
  readonly label: string
  /** A toggle (a drawer, presenter mode): shown checked while on. */
  readonly checked?: boolean
  readonly onSelect: () => void
}

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
  const menu = useRef<HTMLDivElement>(null)
  const id = useId()
  // The actions may shrink while the menu is open (a log closes): stay on the last one.
  const current = Math.min(active, actions.length - 1)

  // The active item has the focus while the menu is open.
  useEffect(() => {
    if (open) menu.current?.querySelectorAll<HTMLElement>('[role^="menuitem"]')[current]?.focus()
  }, [open, current])

  // A press outside closes the menu (the focus stays where the press put it).
  useEffect(() => {
    if (!open) return
    const onDown = (e: PointerEvent) => {
      const t = e.target as Node
      if (!menu.current?.contains(t) && !button.current?.contains(t)) setOpen(false)
    }
    document.addEventListener('pointerdown', onDown)
    return () => document.removeEventListener('pointerdown', onDown)
  }, [open])

  const show = (at: number) => {
    setActive(at)
    setOpen(true)
  }
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
  const onMenuKey = (e: KeyboardEvent) => {
    const n = actions.length
    const move: Record<string, number> = {
      ArrowDown: (current + 1) % n,
      ArrowUp: (current - 1 + n) % n,
      Home: 0,
      End: n - 1,
    }
    if (e.key in move) setActive(move[e.key]!)
    else if (e.key === 'Escape' || e.key === 'Tab') close()
    else if (e.key === 'Enter' || e.key === ' ') pick(actions[current]!)
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
        <div role="menu" id={id} ref={menu} aria-label={label} className="overflow-items" onKeyDown={onMenuKey}>
          {actions.map((a, i) => (
            <button
              key={a.id}
              type="button"
              role={a.checked === undefined ? 'menuitem' : 'menuitemcheckbox'}
              aria-checked={a.checked}
              tabIndex={i === current ? 0 : -1}
              onClick={() => pick(a)}
              onPointerMove={() => i !== current && setActive(i)}
            >
              <span className="overflow-check" aria-hidden="true">
                {a.checked ? '✓' : ''}
              </span>
              {a.label}
            </button>
          ))}
        </div>
      )}
    </div>
  )
}
