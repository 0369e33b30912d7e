/**
 * The `?` overlay: every key of the app, generated from the keymap (./keymap.ts). `?`
 * (outside a text field) opens it, Escape or the Close button closes it and gives focus
 * back; Tab stays inside. The list itself (./KeysHelpDialog.tsx) is a lazy chunk,
 * prefetched once the page is idle after the first log shows (src/app/shell/prefetch.ts).
 */
import { Suspense, useEffect, useRef, useState } from 'react'
import { importAgain } from '../../worker/import-again'
import { lazyView } from './lazy-view'
import { useKeymap, useKeys } from './useKeys'

// Tried again after a failure by a URL of its own (../../worker/import-again.ts), as every lazy chunk with a retry.
const importDialog = importAgain(() => import('./KeysHelpDialog'))
const Dialog = lazyView(() => importDialog().then((m) => m.KeysHelpDialog))

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
