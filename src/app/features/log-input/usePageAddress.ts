/**
 * The open log's address, kept in the address bar (issue #12: URL and permalink handling
 * belong to the log-input feature, not the shell). A gallery example, a fetched log
 * (`?node=…&api=…&inbox=…`) and a log from a URL are named by where they came from; a
 * pasted, dropped or permalinked log travels in the fragment, compressed (./permalink.ts).
 * The view the shell gives (the selected step, the open tab, presenter mode, the open
 * drawers and inbox task) and an edited copy's mark follow. The
 * bar is updated with replaceState (no history entry per key press) in an idle moment
 * after the frame that shows the view (100 ms at most), so a reload right after a change
 * reopens what was on screen; a step
 * alone is written once stepping pauses (STEP_SETTLE_MS; LARGE_STEP_SETTLE_MS and an idle
 * moment for an address that carries a log), and a burst of changes is paced (AddressWriter).
 */
import { useEffect, useLayoutEffect, useMemo, useRef, useState } from 'react'
import { utf8 } from '../../../crypto/bytes'
import type { Loaded } from '../../trace/useInspector'
import { whenIdle } from '../../ui/idle'
import { compressLog, type Fragment, formatFragment, MAX_FRAGMENT, type StepRef } from './permalink'

/** The log of the open source, compressed for a fragment, or why it cannot be carried. */
interface CompressedLog {
  readonly loadId: number
  readonly value: string | null
  readonly why?: string
}

export interface PageAddress {
  /**
   * The fragment and query of the open log; `linkable` is false when no link can carry it.
   * `hash()` reads the selected step when called: a step does not re-render what holds this.
   */
  readonly fragment: {
    readonly hash: () => string
    readonly search: string
    readonly linkable: boolean
    /** The log the address carries is still being compressed: nothing is written meanwhile. */
    readonly pending: boolean
  } | null
  readonly compressed: CompressedLog | null
}

/**
 * Chromium ignores history state updates past about 200 in 10 seconds (and says so on the
 * console), so the page keeps well under: a change is written at once while the page made
 * fewer than BUDGET writes in the last WINDOW_MS, and past that only the last change of a
 * burst is written, PACE_MS after it.
 */
const BUDGET = 50
const WINDOW_MS = 10_000
const PACE_MS = 250
/** A change of the selected step alone is written once no other step follows for this long. */
const STEP_SETTLE_MS = 150
/**
 * An address of LARGE_ADDRESS characters or more (a log in the fragment) costs Chromium
 * tens of ms to replace (83–90 ms for 74 KB, with the browser process's own work after
 * it): a step alone writes it only this long after the last step, in an idle period, so
 * the write never lands in the frame of a key press that follows.
 */
const LARGE_ADDRESS = 4096
const LARGE_STEP_SETTLE_MS = 1000

export class AddressWriter {
  private readonly recent: number[] = []
  private pending: ReturnType<typeof setTimeout> | null = null

  constructor(
    private readonly write: (address: string) => void,
    private readonly now: () => number = () => performance.now(),
    private readonly timers: {
      set(f: () => void, ms: number): ReturnType<typeof setTimeout>
      clear(t: ReturnType<typeof setTimeout>): void
    } = { set: (f, ms) => setTimeout(f, ms), clear: (t) => clearTimeout(t) },
  ) {}

  /** The address to show now. */
  set(address: string): void {
    this.cancel()
    const t = this.now()
    while (this.recent.length > 0 && this.recent[0]! <= t - WINDOW_MS) this.recent.shift()
    if (this.recent.length < BUDGET) this.commit(address, t)
    else
      this.pending = this.timers.set(() => {
        this.pending = null
        this.commit(address, this.now())
      }, PACE_MS)
  }

  /** Drops a paced write not yet made (the page is going away). */
  cancel(): void {
    if (this.pending !== null) this.timers.clear(this.pending)
    this.pending = null
  }

  private commit(address: string, at: number): void {
    this.recent.push(at)
    this.write(address)
  }
}

/**
 * The longest a change's address write waits for an idle moment: replaceState, even of a
 * short address, took 0.3–12 ms (more on a busy page), which in the commit that shows a
 * change delayed its paint, and right after that frame delayed the next task (a key press).
 */
const WRITE_IDLE_MS = 100

function isText(b: Uint8Array): boolean {
  try {
    new TextDecoder('utf-8', { fatal: true }).decode(b.subarray(0, 4096))
    return true
  } catch {
    return false
  }
}

/** The selected step as the address names it, read when the address is written; `subscribe` says when it may have changed. */
interface StepSource {
  readonly get: () => StepRef | undefined
  readonly subscribe: (onChange: () => void) => () => void
}

/** The view's part of the address (the shell's view state, src/app/shell/view-url.ts). */
export interface ViewPart {
  readonly fragment: Pick<Fragment, 'tab' | 'present'>
  /** The query string with the source's parameters and the view's after them. */
  readonly search: (sourceSearch: string) => string
  /** The selected step: kept out of `fragment`, so a step re-renders no more than the views that show it. */
  readonly step: StepSource
}

const stepKey = (r: StepRef | undefined): string => (r ? `${r.sequenceId}.${r.action}` : '')

export function usePageAddress({ loaded, view }: { loaded: Loaded | null; view: ViewPart }): PageAddress {
  const [z, setZ] = useState<CompressedLog | null>(null)

  // The compressed log for the permalink (pasted, file and permalink sources).
  useEffect(() => {
    if (!loaded) return
    const s = loaded.source
    if (s.kind === 'example' || s.kind === 'url' || s.kind === 'node') {
      setZ({ loadId: loaded.loadId, value: null })
      return
    }
    const bytes = typeof s.input === 'string' ? utf8(s.input) : s.input
    if (bytes.length > 8 * MAX_FRAGMENT) {
      setZ({ loadId: loaded.loadId, value: null, why: 'the log is too large to carry in a link' })
      return
    }
    let live = true
    // Not in the way of the log being shown: the compression, and the write of an address
    // of tens of KB that follows it (a replaceState of that length costs tens of ms), wait
    // until the page has painted the new log and is idle.
    const cancelIdle = whenIdle(() =>
      compressLog(bytes, MAX_FRAGMENT).then(
        (value) => {
          if (!live) return
          if (value === null)
            setZ({
              loadId: loaded.loadId,
              value: null,
              why: `the log is too large to carry in a link (over ${MAX_FRAGMENT / 1024} KiB compressed)`,
            })
          else setZ({ loadId: loaded.loadId, value })
        },
        () => live && setZ({ loadId: loaded.loadId, value: null, why: 'the log could not be compressed' }),
      ),
    )
    return () => {
      live = false
      cancelIdle()
    }
  }, [loaded])

  const { tab, present } = view.fragment
  const search = view.search
  const step = view.step
  const fragment = useMemo(() => {
    if (!loaded) return null
    const s = loaded.source
    const f: Fragment = {
      ...(s.kind === 'example' ? { example: s.example! } : {}),
      ...((s.kind === 'paste' || s.kind === 'file' || s.kind === 'permalink') && z?.loadId === loaded.loadId && z.value
        ? { log: z.value, binary: typeof s.input !== 'string' && !isText(s.input) }
        : {}),
      ...(loaded.logIndex > 0 ? { inbox: loaded.logIndex } : {}),
      ...(tab ? { tab } : {}),
      ...(present ? { present: true } : {}),
      ...(s.edited
        ? {
            edited: {
              edits: s.edited.edits,
              label: s.edited.originalLabel,
              ...(s.edited.originalExample ? { example: s.edited.originalExample } : {}),
            },
          }
        : {}),
    }
    const linkable = s.kind === 'example' || s.kind === 'url' || s.kind === 'node' || !!f.log
    // A log the address carries (pasted, a file, a permalink) while it is being compressed:
    // no address is written until it is, as one without the log would drop it (a permalink
    // just reloaded keeps its address meanwhile; a reload then would reopen it).
    const pending = (s.kind === 'paste' || s.kind === 'file' || s.kind === 'permalink') && z?.loadId !== loaded.loadId
    // The hash of the step last asked for (a log in the fragment makes it a long string).
    let last: { key: string; hash: string } | null = null
    const hash = (): string => {
      if (!linkable) return ''
      const ref = step.get()
      const key = stepKey(ref)
      if (last?.key !== key) last = { key, hash: formatFragment(ref ? { ...f, step: ref } : f) }
      return last.hash
    }
    return {
      hash,
      // A fetched log keeps the address of its fetch (?node=…&api=…&inbox=…): reloading fetches it again.
      search: search(
        s.kind === 'url' ? `?url=${encodeURIComponent(s.url!)}` : s.kind === 'node' ? (s.fetch ?? '') : '',
      ),
      linkable,
      pending,
    }
  }, [loaded, z, tab, present, search, step])

  // Keep the address bar in step. A change of the selected step alone is written once
  // stepping pauses (STEP_SETTLE_MS; a large address LARGE_STEP_SETTLE_MS after the last
  // step, when idle): replaceState costs milliseconds (tens with a log in the fragment),
  // which would sit in a key press's way to the next paint. Any other change is written
  // in an idle moment after the frame that shows it (with the step selected then).
  const writer = useRef<AddressWriter | null>(null)
  writer.current ??= new AddressWriter((next) => {
    if (next !== `${location.pathname}${location.search}${location.hash}`) history.replaceState(null, '', next)
  })
  // The step write waiting (a timer, then for a large address an idle callback): its cancel.
  const stepWrite = useRef<(() => void) | null>(null)
  const shown = useRef(fragment)
  const large = useRef(false)
  useLayoutEffect(() => {
    shown.current = fragment
    stepWrite.current?.()
    stepWrite.current = null
    if (!fragment || fragment.pending) return
    // In an idle moment after the frame that shows the change (WRITE_IDLE_MS at most).
    return whenIdle(() => {
      const address = `${location.pathname}${fragment.search}${fragment.hash()}`
      large.current = address.length >= LARGE_ADDRESS
      writer.current!.set(address)
    }, WRITE_IDLE_MS)
  }, [fragment])
  useEffect(() => {
    let at = stepKey(step.get())
    const write = () => {
      stepWrite.current = null
      const f = shown.current
      if (f && !f.pending) writer.current!.set(`${location.pathname}${f.search}${f.hash()}`)
    }
    return step.subscribe(() => {
      const key = stepKey(step.get())
      if (key === at) return
      at = key
      stepWrite.current?.()
      const slow = large.current
      const t = setTimeout(
        () => {
          if (slow) stepWrite.current = whenIdle(write)
          else write()
        },
        slow ? LARGE_STEP_SETTLE_MS : STEP_SETTLE_MS,
      )
      stepWrite.current = () => clearTimeout(t)
    })
  }, [step])
  useEffect(
    () => () => {
      stepWrite.current?.()
      writer.current?.cancel()
    },
    [],
  )

  return { fragment, compressed: z }
}
