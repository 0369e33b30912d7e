/**
 * The `?` overlay's list (./KeysHelp.tsx opens and closes it): every key of the app,
 * generated from the keymap (./keymap.ts). A lazy chunk, prefetched once the page is idle.
 */
import { type RefObject, useEffect, useMemo } from 'react'
import { helpGroups, type KeyBinding } from './keymap'

export function KeysHelpDialog({
  keymap,
  closeRef,
  onClose,
}: {
  keymap: readonly KeyBinding[]
  closeRef: RefObject<HTMLButtonElement | null>
  onClose: () => void
}) {
  const groups = useMemo(() => helpGroups(keymap), [keymap])
  // The focus goes to Close when the list shows (./KeysHelp.tsx gives it back when it closes).
  useEffect(() => closeRef.current?.focus(), [closeRef])
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
        <button type="button" ref={closeRef} onClick={onClose}>
          Close
        </button>
      </div>
    </div>
  )
}
