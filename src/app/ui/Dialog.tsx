/**
 * A modal dialog over the whole app: the native <dialog> opened with showModal (the
 * page behind is inert), Tab kept inside it, Escape or the Close button closes it, and
 * focus goes back to what had it before (the button that opened it).
 */
import { useEffect, useId, useRef, type KeyboardEvent, type ReactNode } from 'react'

export interface DialogProps {
  readonly title: string
  readonly onClose: () => void
  readonly className?: string
  readonly children: ReactNode
}

const FOCUSABLE =
  'a[href], button:not([disabled]), input:not([disabled]), select:not([disabled]), textarea:not([disabled]), summary, [tabindex]:not([tabindex="-1"])'

export function Dialog({ title, onClose, className, children }: DialogProps) {
  const ref = useRef<HTMLDialogElement>(null)
  const titleId = useId()
  useEffect(() => {
    const d = ref.current
    const back = document.activeElement
    if (d && !d.open) d.showModal()
    return () => {
      if (d?.open) d.close()
      if (back instanceof HTMLElement && back.isConnected) back.focus()
    }
  }, [])
  const onKeyDown = (e: KeyboardEvent<HTMLDialogElement>) => {
    if (e.key === 'Escape') {
      // Handled here (not by the native cancel) so that nothing under the dialog sees it.
      e.preventDefault()
      e.stopPropagation()
      onClose()
      return
    }
    if (e.key !== 'Tab' || !ref.current) return
    const all = [...ref.current.querySelectorAll<HTMLElement>(FOCUSABLE)].filter((el) => el.offsetParent !== null)
    if (all.length === 0) return
    const first = all[0]!
    const last = all[all.length - 1]!
    if (e.shiftKey && document.activeElement === first) {
      e.preventDefault()
      last.focus()
    } else if (!e.shiftKey && document.activeElement === last) {
      e.preventDefault()
      first.focus()
    }
  }
  return (
    <dialog
      ref={ref}
      className={`app-dialog${className ? ` ${className}` : ''}`}
      aria-labelledby={titleId}
      onKeyDown={onKeyDown}
      onCancel={(e) => {
        e.preventDefault()
        onClose()
      }}
    >
      <div className="app-dialog-head">
        <h2 id={titleId}>{title}</h2>
        <button type="button" onClick={onClose} aria-label={`Close ${title}`}>
          Close
        </button>
      </div>
      <div className="app-dialog-body">{children}</div>
    </dialog>
  )
}
