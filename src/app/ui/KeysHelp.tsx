/**
 * The `?` overlay: every key of the app, generated from the keymap (./keymap.ts). `?`
 * (outside a text field) opens it, Escape or the Close button closes it and gives focus
 * back; Tab stays inside. The list itself (./KeysHelpDialog.tsx) is a lazy chunk,
 * prefetched once the page is idle after the first log shows (src/app/shell/prefetch.ts).
 */
import { Suspense, useEffect, useRef, useState } from 'react'
import { lazyView } from './lazy-view'
import { useKeymap, useKeys } from './useKeys'

const Dialog = lazyView(
  () => import('./KeysHelpDialog'),
  (m) => m.KeysHelpDialog,
)

/** Loads the list's chunk (src/app/shell/prefetch.ts). */
export const preloadKeysHelp = Dialog.preload

export function KeysHelp() {
  const [open, setOpen] = useState(false)
  const keymap = useKeymap()
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
    if (!open && back.current instanceof HTMLElement) back.current.focus()
  }, [open])
  if (!open) return null
  return (
    <Suspense fallback={null}>
      <Dialog.View keymap={keymap} closeRef={close} onClose={() => setOpen(false)} />
    </Suspense>
  )
}
