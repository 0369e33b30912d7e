import { useEffect, useState } from 'react'

/** How a promise settled: its value, or its error's message. */
export type Settled<T> = { readonly ok: true; readonly value: T } | { readonly ok: false; readonly error: string }

/**
 * What `p` settled to: null while it is pending, and for no promise. A new promise starts
 * pending again; one replaced before it settles is ignored.
 */
export function useSettled<T>(p: Promise<T> | null): Settled<T> | null {
  const [settled, setSettled] = useState<{ readonly p: Promise<T>; readonly s: Settled<T> } | null>(null)
  useEffect(() => {
    if (!p) return
    let live = true
    p.then(
      (value) => live && setSettled({ p, s: { ok: true, value } }),
      (e: unknown) => live && setSettled({ p, s: { ok: false, error: e instanceof Error ? e.message : String(e) } }),
    )
    return () => {
      live = false
    }
  }, [p])
  return p && settled?.p === p ? settled.s : null
}
