/**
 * The `?` overlay: every key of the inspector and of presenter mode. `?` (outside a text field)
 * opens it, Escape or the Close button closes it and gives focus back; Tab stays inside.
 */
import { useEffect, useRef, useState } from 'react'

type Keys = readonly (readonly [string, string])[]

const INSPECTOR: Keys = [
  ['↑ ↓  j k', 'previous / next action'],
  ['← →', 'previous / next update'],
  ['Home  End', 'first / last row'],
  ['PageUp  PageDown', 'a page of rows'],
  ['/', 'focus the filter (Escape leaves it)'],
  ['Shift-click  b', 'pin the row (b: the selected one) as the Diff tab’s base; again to unpin'],
  ['← →  Home  End', 'on the step’s tabs: previous / next / first / last view'],
  ['Time slider', 'arrows step through updates, Home / End the first and last'],
  ['Escape', 'close the drawer on top (Open, Signers, Sign) or this list'],
  ['Tab', 'first stop: skip to the selected step'],
  ['?', 'this list'],
]

/** Presenter mode (the header's Present button, or `&present` in the address). */
const PRESENTER: Keys = [
  ['→ ↓  Space  PageDown', 'next step'],
  ['← ↑  Shift+Space  PageUp', 'previous step'],
  ['Home  End', 'first / last step'],
  ['Escape', 'back to the inspector, at the same step'],
]

function KeyList({ keys }: { keys: Keys }) {
  return (
    <dl className="kv">
      {keys.map(([k, what]) => (
        <div key={k} className="kv-row">
          <dt>
            <kbd>{k}</kbd>
          </dt>
          <dd>{what}</dd>
        </div>
      ))}
    </dl>
  )
}

function isEditable(t: EventTarget | null): boolean {
  return t instanceof HTMLElement && (t.isContentEditable || /^(INPUT|TEXTAREA|SELECT)$/.test(t.tagName))
}

export function KeysHelp() {
  const [open, setOpen] = useState(false)
  const close = useRef<HTMLButtonElement>(null)
  const back = useRef<Element | null>(null)
  useEffect(() => {
    const onKey = (e: KeyboardEvent) => {
      if (e.key === '?' && !isEditable(e.target) && !e.ctrlKey && !e.metaKey && !e.altKey) {
        e.preventDefault()
        back.current = document.activeElement
        setOpen((o) => !o)
      } else if (e.key === 'Escape' && open) {
        e.preventDefault()
        e.stopPropagation()
        setOpen(false)
      } else if (e.key === 'Tab' && open) {
        // A modal list: Tab stays on its one control (Close) instead of wandering behind the backdrop.
        e.preventDefault()
        close.current?.focus()
      }
    }
    // Capture: Escape closes this list before anything under it (a drawer) sees the key.
    window.addEventListener('keydown', onKey, true)
    return () => window.removeEventListener('keydown', onKey, true)
  }, [open])
  useEffect(() => {
    if (open) close.current?.focus()
    else if (back.current instanceof HTMLElement) back.current.focus()
  }, [open])
  if (!open) return null
  return (
    <div className="keys-backdrop">
      <div className="keys-help" role="dialog" aria-modal="true" aria-labelledby="keys-title">
        <h2 id="keys-title">Keyboard</h2>
        <h3 className="keys-group">Inspector</h3>
        <KeyList keys={INSPECTOR} />
        <h3 className="keys-group">Presenter mode</h3>
        <KeyList keys={PRESENTER} />
        <button type="button" ref={close} onClick={() => setOpen(false)}>
          Close
        </button>
      </div>
    </div>
  )
}
