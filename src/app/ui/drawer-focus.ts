/**
 * Keyboard focus for the drawers (Open, Signers, Sign, Inbox tasks): a drawer that opens
 * takes the focus, so the next Tab is inside it rather than in the header and the panels
 * it covers; Tab and Shift+Tab go round the drawer's controls (the inspector beside it is
 * partly or, on a phone, wholly covered, so focus there would not be seen; Escape closes
 * the drawer); when it closes, a drawer opened from the keyboard gives the focus back to
 * what had it before (the header button that opened it), unless the user has since put it
 * somewhere else. After a click the focus is left on the page, as before, so the
 * timeline's Home/End still work at once (they are not taken from a focused button).
 */
import { useEffect } from 'react'

const FOCUSABLE =
  'a[href], button:not([disabled]), input:not([disabled]):not([type="hidden"]), select:not([disabled]), textarea:not([disabled]), summary, [tabindex]:not([tabindex="-1"])'

/** The drawer's controls that Tab reaches, in order (those in a closed <details> have no box). */
function controls(drawer: HTMLElement): HTMLElement[] {
  return [...drawer.querySelectorAll<HTMLElement>(FOCUSABLE)].filter((el) => el.getClientRects().length > 0)
}

/** `name` is the drawer's `data-drawer` attribute. */
export function useDrawerFocus(open: boolean, name: string): void {
  useEffect(() => {
    if (!open) return
    const at = document.activeElement
    const opener = at instanceof HTMLElement && at.matches(':focus-visible') ? at : null
    const drawer = document.querySelector<HTMLElement>(`[data-drawer="${name}"]`)
    // The drawer's named panel, so a screen reader says which drawer it is.
    const panel = () => drawer?.querySelector<HTMLElement>('section[aria-labelledby], [role="region"]') ?? null
    const take = (target: HTMLElement) => {
      if (!target.hasAttribute('tabindex')) target.tabIndex = -1
      target.focus({ preventScroll: true })
    }
    // A lazy drawer shows its loading line first: the frame takes the focus, and hands it
    // to the panel when the panel arrives, unless the user has moved it meanwhile.
    let waiting: MutationObserver | null = null
    if (drawer && !drawer.contains(document.activeElement)) {
      const now = panel()
      take(now ?? drawer)
      if (!now) {
        waiting = new MutationObserver(() => {
          const p = panel()
          if (!p) return
          waiting?.disconnect()
          if (document.activeElement === drawer) take(p)
        })
        waiting.observe(drawer, { childList: true, subtree: true })
      }
    }
    const onKey = (e: KeyboardEvent) => {
      if (e.key !== 'Tab' || e.defaultPrevented || !drawer) return
      // A dialog inside the drawer keeps its own focus order.
      if (e.target instanceof Element && e.target.closest('dialog, [role="dialog"], [role="alertdialog"]')) return
      const items = controls(drawer)
      if (items.length === 0) return
      const at = document.activeElement
      if (e.shiftKey && (at === items[0] || !items.includes(at as HTMLElement))) {
        e.preventDefault()
        items[items.length - 1]!.focus()
      } else if (!e.shiftKey && at === items[items.length - 1]) {
        e.preventDefault()
        items[0]!.focus()
      }
    }
    drawer?.addEventListener('keydown', onKey)
    return () => {
      waiting?.disconnect()
      drawer?.removeEventListener('keydown', onKey)
      // The drawer is gone: its focused control went with it, and the focus fell to the body.
      const lost = document.activeElement === null || document.activeElement === document.body
      if (lost && opener?.isConnected) opener.focus({ preventScroll: true })
    }
  }, [open, name])
}
