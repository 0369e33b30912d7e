/**
 * The `?` overlay: every key of the app, generated from the keymap (./keymap.ts). `?`
 * (outside a text field) opens it, Escape or the Close button closes it and gives focus
 * back; Tab stays inside.
 */
import { useEffect, useMemo, useRef, useState } from 'react'
import { helpGroups } from './keymap'
import { useKeymap, useKeys } from './useKeys'

export function KeysHelp() {
  const [open, setOpen] = useState(false)
  const keymap = useKeymap()
  const groups = useMemo(() => helpGroups(keymap), [keymap])
  const close = useRef<HTMLButtonElement>(null)
  const back = useRef<Element | null>(null)
  useKeys({
    'help.toggle': () => {
      back.current = document.activeElement
      setOpen((o) => !o)
    },
  })
  useKeys(
    {
      'help.close': () => setOpen(false),
      // A modal list: Tab stays on its one control (Close) instead of wandering behind the backdrop.
      'help.trap': () => close.current?.focus(),
    },
    open,
  )
  useEffect(() => {
    if (open) close.current?.focus()
    else if (back.current instanceof HTMLElement) back.current.focus()
  }, [open])
  if (!open) return null
  return (
    <div className="keys-backdrop">
      <div className="keys-help" role="dialog" aria-modal="true" aria-labelledby="keys-title">
        <h2 id="keys-title">Keyboard</h2>
        {groups.map((g) => (
          <div key={g.group}>
            <h3 className="keys-group">{g.group}</h3>
            <dl className="kv">
              {g.keys.map(([k, what]) => (
                <div key={`${k} ${what}`} className="kv-row">
                  <dt>
                    <kbd>{k}</kbd>
                  </dt>
                  <dd>{what}</dd>
                </div>
              ))}
            </dl>
          </div>
        ))}
        <button type="button" ref={close} onClick={() => setOpen(false)}>
          Close
        </button>
      </div>
    </div>
  )
}
