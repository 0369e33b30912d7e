/**
 * The inspector's state: the open log (its source, the logs it holds, the replayed
 * trace model), what is being read or replayed (with progress), the last input
 * problem, and the selected step. A thin hook over the ReplayClient.
 */
import { startTransition, useCallback, useEffect, useRef, useState } from 'react'
import type { ChainRouteWire, InputProblem, LogSummary, Verifier } from '../../worker/protocol'
import { looksLikeJson } from '../model/input-kind'
import { appendToBundle } from './append'
import { phaseSwitch, READ_MARK } from './phase-switch'
import { ReplayCancelled, ReplayClient } from './replay-client'
import { allRows, TraceModel, type Row, type Selection } from './trace-model'
import { useChainRoutesContext } from '../model/app-context'

export interface Source {
  readonly kind: 'example' | 'paste' | 'file' | 'url' | 'permalink' | 'node'
  /** Shown in the header: "example valid-full-life", "file log.pb", … */
  readonly label: string
  /** The `file` of the report. */
  readonly name: string
  readonly input: string | Uint8Array
  readonly example?: string
  readonly url?: string
  /** A log fetched from a node: the query string that fetches it again (`?node=…&api=…&inbox=…`). */
  readonly fetch?: string
  readonly verifier: Verifier
  /** Set on an edited copy of a log (features/edit): the badge, the export names and the restore read it. */
  readonly edited?: EditedMark
}

/** What marks a log as an edited copy, and the way back to its original. */
export interface EditedMark {
  /** The original's label, shown beside the badge ("edited copy of example valid-full-life"). */
  readonly originalLabel: string
  /** The original's gallery example, when it is one: a permalink names it, so the restore works after a reload. */
  readonly originalExample?: string
  /** The original source itself (absent after a permalink reload). */
  readonly original?: Source
  /** How many edit operations made the copy. */
  readonly edits: number
}

export interface Loaded {
  readonly loadId: number
  readonly source: Source
  readonly logs: readonly LogSummary[]
  readonly logIndex: number
  readonly model: TraceModel
  readonly rows: readonly Row[]
  /** The command line's report (`replay --json`), which the worker sends after the answer. */
  readonly report: Promise<string>
  readonly ok: boolean
  readonly inboxId: string | null
  readonly replayMs: number
  /** The selection the log opened with (the view store takes it in the commit that shows the log). */
  readonly initial: Selection | null
}

export interface Busy {
  readonly phase: 'reading' | 'replaying'
  readonly label: string
  readonly total: number
}

/**
 * Replay progress outside React state: only the progress bar subscribes to it
 * (useSyncExternalStore), so a progress tick never re-renders the rest of the app.
 */
export class ProgressStore {
  private value = { done: 0, total: 0 }
  private readonly listeners = new Set<() => void>()
  readonly get = () => this.value
  readonly subscribe = (l: () => void) => {
    this.listeners.add(l)
    return () => {
      this.listeners.delete(l)
    }
  }
  set(done: number, total: number): void {
    this.value = { done, total }
    for (const l of this.listeners) l()
  }
}

export type Problem =
  | {
      readonly label: string
      readonly problem: InputProblem
      readonly message?: undefined
      /** The input is clearly JSON: its JSON failure leads (features/log-input attempts.ts). */
      readonly json?: boolean
    }
  | { readonly label: string; readonly message: string; readonly problem?: undefined; readonly json?: undefined }

export interface StepWish {
  readonly sequenceId: bigint
  readonly action: number
}

export interface OpenOptions {
  readonly logIndex?: number
  readonly step?: StepWish
  /** With no wished step: open at the head (the newest update) instead of the first (a log fetched from a node). */
  readonly at?: 'first' | 'head'
  /**
   * An automatic open's check (features/log-input/start-guard.ts), asked before anything is
   * shown: false drops the open quietly (the user did something since it began).
   */
  readonly wanted?: () => boolean
}

/**
 * The row to select first: the wished step, else where the log stops, else the first row
 * (or, `at: 'head'`, the last row: the state a node's answer is about).
 */
function initialSelection(
  model: TraceModel,
  rows: readonly Row[],
  wish?: StepWish,
  at: 'first' | 'head' = 'first',
): Selection | null {
  if (rows.length === 0) return null
  if (wish) {
    const k = model.steps.findIndex((s) => s.sequenceId === wish.sequenceId)
    if (k >= 0) {
      const r = rows.find((x) => x.k === k && x.i === wish.action) ?? rows.find((x) => x.k === k)
      if (r) return r
    }
  }
  const stop = model.stopIndex()
  if (stop >= 0) {
    const failing = model.steps[stop]!.actionIndex
    return rows.find((x) => x.k === stop && (failing === null || x.i === failing)) ?? rows.find((x) => x.k === stop)!
  }
  return at === 'head' ? rows[rows.length - 1]! : rows[0]!
}

/**
 * The verifier a replay uses: a source that names none ('none') is judged on the app's
 * chain routes when there are any (ChainVerifier in the worker; a chain with no route
 * stays pending, IDENT-061); 'fixture-fake' examples keep their fake wallet.
 */
function verifierOf(verifier: Verifier, chainRoutes: readonly ChainRouteWire[]): Verifier {
  return verifier === 'none' && chainRoutes.length > 0
    ? { kind: 'chain', routes: chainRoutes.map((r) => ({ chainId: r.chainId, url: r.url })) }
    : verifier
}

/**
 * The user-timing mark set when the open log's state checkpoints are all built (its detail:
 * the log's loadId); DevTools shows it, and e2e/replay-perf.spec.ts waits for it before timing steps.
 */
const CHECKPOINTS_MARK = 'inspector: checkpoints'

function markCheckpoints(loadId: number): void {
  const perf = globalThis.performance
  if (typeof perf?.mark !== 'function') return
  perf.clearMarks(CHECKPOINTS_MARK)
  perf.mark(CHECKPOINTS_MARK, { detail: { loadId } })
}

/** Whether the page address names a log to open at load (`?url=…`, `#log=…`; not the gallery's small examples). */
export function addressNamesLog(where: { readonly search: string; readonly hash: string }): boolean {
  return new URLSearchParams(where.search).has('url') || /^#(?:.*&)?log=/.test(where.hash)
}

/**
 * The open log and its loading. The selection is the view state's (src/app/shell/view-state.ts):
 * a log opens with its first selection (Loaded.initial, which the shell gives the view
 * store) and a retry reads the selection to keep the same step.
 */
export function useInspector({
  selection,
}: {
  /** The selection now (read when a retry starts; a step does not re-render the inspector's owner). */
  selection: () => Selection | null
}) {
  // The app's chain routes (the providers layer's); read at each replay, so a Retry uses the routes of the moment.
  const chainRoutes = useRef<readonly ChainRouteWire[]>([])
  chainRoutes.current = useChainRoutesContext().routes
  const client = useRef<ReplayClient | null>(null)
  const [loaded, setLoaded] = useState<Loaded | null>(null)
  const [busy, setBusy] = useState<Busy | null>(null)
  const [problem, setProblem] = useState<Problem | null>(null)
  const [notice, setNotice] = useState<string | null>(null)
  const loadCount = useRef(0)
  const progress = useRef(new ProgressStore()).current
  const run = useRef(0)
  // The open log for callbacks that must keep one identity across loads: `open` once
  // depended on `loaded`, so every load gave it (and the network panel's onOpenLog, an
  // effect dependency) a new identity and a fetched log re-opened itself forever.
  const loadedRef = useRef<Loaded | null>(null)
  loadedRef.current = loaded

  // Build state checkpoints in idle time after a load, so any step is a short rebuild away.
  // When they are all built, a user-timing mark (CHECKPOINTS_MARK) says so.
  useEffect(() => {
    if (!loaded) return
    let handle = 0
    const ric = (cb: () => void) =>
      typeof requestIdleCallback === 'function' ? requestIdleCallback(cb, { timeout: 500 }) : window.setTimeout(cb, 16)
    const cancel = typeof cancelIdleCallback === 'function' ? cancelIdleCallback : window.clearTimeout
    const tick = () => {
      if (loaded.model.warm(8)) handle = ric(tick)
      else markCheckpoints(loaded.loadId)
    }
    handle = ric(tick)
    return () => cancel(handle)
  }, [loaded])

  useEffect(() => {
    client.current = new ReplayClient()
    // A log the address names (?url=, #log=) comes with the load: its verification pool starts now.
    client.current.warm({ pool: addressNamesLog(window.location) })
    // Key presses and clicks (stepping) hold back the worker's writes after an answer.
    const active = () => client.current?.activity()
    const opts = { capture: true, passive: true } as const
    window.addEventListener('keydown', active, opts)
    window.addEventListener('pointerdown', active, opts)
    // A page being hidden or unloaded asks the worker to write now: hidden, it lives on and
    // writes; unloaded (a reload, a closed tab), the browser ends it within milliseconds, in
    // which the log's record is put (src/worker/replay.worker.ts writeAfterAnswer).
    const leaving = () => {
      if (document.visibilityState === 'hidden') client.current?.flushWrites()
    }
    const unloading = () => client.current?.flushWrites()
    document.addEventListener('visibilitychange', leaving)
    window.addEventListener('pagehide', unloading)
    return () => {
      window.removeEventListener('keydown', active, opts)
      window.removeEventListener('pointerdown', active, opts)
      document.removeEventListener('visibilitychange', leaving)
      window.removeEventListener('pagehide', unloading)
      client.current?.dispose()
    }
  }, [])

  const open = useCallback(
    async (source: Source, options: OpenOptions = {}): Promise<boolean> => {
      const c = (client.current ??= new ReplayClient())
      c.cancel()
      const mine = ++run.current
      const dropped = () => mine !== run.current || options.wanted?.() === false
      setNotice(null)
      progress.set(0, 0)
      setBusy({ phase: 'reading', label: source.label, total: 0 })
      let shown = false
      // "Replaying n of N" from the first progress message or a moment after the read (./phase-switch.ts).
      const phase = phaseSwitch((total) => {
        if (mine === run.current) setBusy({ phase: 'replaying', label: source.label, total })
      })
      try {
        // One message: the worker answers the open, then replays the log (clamped alike).
        const asked = c.openAndReplay(source.input, source.name, {
          logIndex: options.logIndex ?? 0,
          file: source.name,
          verifier: verifierOf(source.verifier, chainRoutes.current),
          onProgress: (done, total) => {
            if (mine !== run.current) return
            progress.set(done, total)
            phase.progress(total)
          },
        })
        const opened = await asked.opened
        if (dropped()) return false
        if ('problem' in opened) {
          setProblem({ label: source.label, problem: opened.problem, json: looksLikeJson(source.input) })
          return false
        }
        const logIndex = Math.min(Math.max(options.logIndex ?? 0, 0), opened.logs.length - 1)
        const total = opened.logs[logIndex]!.entries
        progress.set(0, total)
        performance.mark(READ_MARK)
        phase.read(total)
        const r = await asked.replayed
        if (dropped()) return false
        if ('problem' in r) {
          setProblem({ label: source.label, problem: r.problem })
          return false
        }
        const model = new TraceModel(r.steps)
        const rows = allRows(r.steps)
        // A transition: React renders the new log in time slices, so mounting a large
        // timeline and its panels never blocks the page in one long task.
        const loadId = ++loadCount.current
        shown = true
        startTransition(() => {
          // Busy ends in the same commit as the log shows: ending it first would render a
          // page with no log and nothing loading (the Open panel) for one commit.
          setBusy(null)
          setLoaded({
            loadId,
            source,
            logs: opened.logs,
            logIndex,
            model,
            rows,
            report: r.report,
            ok: r.ok,
            inboxId: r.inboxId,
            replayMs: r.replayMs,
            // Not set in the view store here: the store's readers re-render at once, and
            // would show the log still on screen with this log's selection.
            initial: initialSelection(model, rows, options.step, options.at),
          })
          setProblem(null)
        })
        return true
      } catch (e) {
        if (dropped()) return false
        if (e instanceof ReplayCancelled)
          setNotice(
            `Stopped reading ${source.label}.${loadedRef.current ? ' The log shown before is still open.' : ''}`,
          )
        else setProblem({ label: source.label, message: e instanceof Error ? e.message : String(e) })
        return false
      } finally {
        phase.stop()
        if (mine === run.current && !shown) setBusy(null)
      }
    },
    [progress],
  )

  const cancel = useCallback(() => {
    client.current?.cancel()
  }, [])

  // The signing playground: a signed update appended to the open log (or a new log).
  /**
   * Appends `bytes` to the open log as a bundle with every earlier update's exact bytes
   * and the new one at the next sequence id (appendToBundle), replays it in the worker and
   * selects the new step. `newLog`: the bytes open a log of their own (a CreateInbox).
   */
  const append = useCallback(
    async (
      bytes: Uint8Array,
      options: { readonly newLog?: boolean; readonly inboxId?: string } = {},
    ): Promise<{ ok: true; sequenceId: bigint } | { ok: false; message: string }> => {
      const cur = options.newLog ? null : loadedRef.current
      let log
      try {
        log = appendToBundle(cur?.model.steps ?? [], cur?.inboxId ?? options.inboxId ?? null, bytes)
      } catch (e) {
        return { ok: false, message: e instanceof Error ? e.message : String(e) }
      }
      const source: Source = {
        kind: 'paste',
        label: `composed log (${log.entries} update${log.entries === 1 ? '' : 's'})`,
        name: 'composed',
        input: log.bundle,
        verifier: cur?.source.verifier ?? 'none',
      }
      const ok = await open(source, { step: { sequenceId: log.sequenceId, action: 0 } })
      return ok
        ? { ok: true, sequenceId: log.sequenceId }
        : {
            ok: false,
            message: 'the log with the new update could not be replayed (see the error shown above the timeline)',
          }
    },
    [open],
  )

  /** The newest applied sequence id of the open log when it is inbox `inboxId`'s (the playground's local IDENT-072 read). */
  const newestApplied = useCallback((inboxId: string): bigint | null => {
    const cur = loadedRef.current
    if (!cur || cur.inboxId !== inboxId) return null
    let k = cur.model.steps.length - 1
    while (k >= 0 && cur.model.steps[k]!.status !== 'applied') k--
    return k >= 0 ? cur.model.steps[k]!.sequenceId : null
  }, [])

  /**
   * Replays the open log again, keeping the selected step: after a pending update
   * (IDENT-061) the chain may now answer (a route added or fixed, a node started).
   */
  const retry = useCallback(async (): Promise<boolean> => {
    const cur = loadedRef.current
    if (!cur) return false
    const sel = selection()
    const step = sel ? cur.model.steps[sel.k] : undefined
    return open(cur.source, {
      logIndex: cur.logIndex,
      ...(step && sel ? { step: { sequenceId: step.sequenceId, action: sel.i } } : {}),
    })
  }, [open, selection])

  /** The id of the newest log given to React to show (Loaded.loadId once it has committed). */
  const lastLoadId = useCallback(() => loadCount.current, [])

  return {
    loaded,
    lastLoadId,
    busy,
    progress,
    problem,
    notice,
    open,
    cancel,
    setProblem,
    setNotice,
    append,
    newestApplied,
    retry,
  }
}
