/**
 * The edit session (issue #16): the original log, the operations made on it so far, and
 * the last failure. Every edit is applied to the original's entries with the core's
 * applyEdits, and the result opens as a bundle through the inspector's own `open` (the
 * worker replays it like any log), marked as an edited copy. A failed edit changes
 * nothing: the edited log shown before stays open and the failure is shown inline.
 * The edit code (decoding, applyEdits, encoding) loads with the first edit, not with the page.
 */
import { useCallback, useEffect, useRef, useState } from 'react'
import type { EditOp } from '../../../core/encode/edit'
import type { Loaded, OpenOptions, Source } from '../../trace/useInspector'

export interface EditSessionOptions {
  readonly loaded: Loaded | null
  readonly open: (source: Source, options?: OpenOptions) => Promise<boolean>
  /** Opens a gallery example by name (the original after a permalink reload). */
  readonly openExample: (name: string) => void
}

interface SessionState {
  /** The log the operations apply to: the original (or, after a reload, the edited copy the link held). */
  readonly root: Loaded
  readonly ops: readonly EditOp[]
  /** What the user did, one line per edit (a break-it or a form), with its operations. */
  readonly edits: readonly { readonly what: string; readonly ops: readonly EditOp[] }[]
}

export interface EditResult {
  readonly ok: boolean
}

export function useEditSession({ loaded, open, openExample }: EditSessionOptions) {
  const [session, setSession] = useState<SessionState | null>(null)
  const [error, setError] = useState<string | null>(null)
  const [working, setWorking] = useState<string | null>(null)
  const sessionRef = useRef(session)
  sessionRef.current = session
  const loadedRef = useRef(loaded)
  loadedRef.current = loaded

  // Another log opened (not an edited copy of this session's): the session ends.
  useEffect(() => {
    if (!loaded) return
    if (!loaded.source.edited) {
      setSession(null)
      setError(null)
    }
  }, [loaded])

  const replace = useCallback(
    async (root: Loaded, edits: SessionState['edits'], what: string, focus?: bigint): Promise<EditResult> => {
      const ops = edits.flatMap((e) => e.ops)
      let source: Source
      try {
        source = (await import('./session')).editedSource(root, ops)
      } catch (e) {
        // The core's reason, or the edit code's chunk that did not load.
        const session = await import('./session').catch(() => null)
        setError(session ? session.editFailure(what, e) : `${what}: ${e instanceof Error ? e.message : String(e)}`)
        return { ok: false }
      }
      setWorking(what)
      try {
        const ok = await open(source, focus !== undefined ? { step: { sequenceId: focus, action: 0 } } : {})
        if (!ok) {
          setError(
            `${what}: the edited log could not be replayed (see the error above the timeline); the log shown before is still open`,
          )
          return { ok: false }
        }
        setSession({ root, ops, edits })
        setError(null)
        return { ok: true }
      } finally {
        setWorking(null)
      }
    },
    [open],
  )

  /** Adds an edit (one or more operations) to the session and opens the result. */
  const apply = useCallback(
    (what: string, ops: readonly EditOp[], focus?: bigint): Promise<EditResult> => {
      const cur = sessionRef.current
      const root = cur?.root ?? loadedRef.current
      if (!root) return Promise.resolve({ ok: false })
      return replace(root, [...(cur?.edits ?? []), { what, ops }], what, focus)
    },
    [replace],
  )

  /** Takes the last edit back (the first one back is the original itself). */
  const undo = useCallback(async (): Promise<EditResult> => {
    const cur = sessionRef.current
    if (!cur || cur.edits.length === 0) return { ok: false }
    if (cur.edits.length === 1 && !cur.root.source.edited) {
      const ok = await open(cur.root.source)
      return { ok }
    }
    return replace(cur.root, cur.edits.slice(0, -1), `Undo ${cur.edits.at(-1)!.what}`)
  }, [open, replace])

  /** Whether the original can be opened again, and how. */
  const mark = loaded?.source.edited
  const restorable: string | null = !mark
    ? 'this log is not an edited copy'
    : mark.original || mark.originalExample
      ? null
      : 'the original is not in this page or the link (only a gallery example can be reopened after a reload)'

  const restore = useCallback(async (): Promise<boolean> => {
    const m = loadedRef.current?.source.edited
    if (!m) return false
    setError(null)
    if (m.original) return open(m.original)
    if (m.originalExample) {
      openExample(m.originalExample)
      return true
    }
    return false
  }, [open, openExample])

  return {
    /** The log the session's edits apply to (the original, when this page opened it). */
    root: session?.root ?? null,
    edits: session?.edits ?? [],
    error,
    clearError: useCallback(() => setError(null), []),
    fail: setError as (message: string) => void,
    working,
    apply,
    undo,
    restore,
    restorable,
  }
}

export type EditSession = ReturnType<typeof useEditSession>
