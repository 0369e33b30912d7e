/**
 * Whose load wins (design.md: what the user started always wins over what the app started
 * by itself). The app starts three loads on its own: the demo log on a first visit (or the
 * `#example=` the address names), a fetch the address names (`?url=`, `?node=…&inbox=…`)
 * and the log a reload restores from the address (`#log=`). Each is tagged as automatic
 * when it begins (`begin`: an AutoLoad carrying the session's generation) and is applied
 * only while no user intent came after it: opening the Open panel, a paste, a file, a
 * selection, a fetch or an open the user asked for each move the generation on (`userActed`).
 *
 * - A user's intent drops every automatic load begun before it: its fetch is aborted (the
 *   load's `signal`), its result is never applied (`wanted`, asked again right before the
 *   inspector shows it), and one already replaying in the inspector is cancelled quietly.
 * - A user-started load cancels earlier automatic ones (it moves the generation on first).
 * - An automatic load never cancels a user one: while a user's load runs, an automatic one
 *   is not started (`autoOpen` returns false).
 *
 * A plain class, so the rules are tested without a browser; the session (src/app/shell/
 * useLogSession.ts) makes one per page and the header shows `pending()` while it loads.
 * `openingExample()` says when it opens a gallery example (one chunk of the app's own
 * origin, then the inspector's reading): for a moment the page waits for it in place of the
 * Open panel (useAddressOpening.ts).
 */
import type { StepWish } from '../../trace/useInspector'

/** What the user did that makes the app's own loads give way. */
export type UserIntent =
  /** Opened the Open panel (the header button or its key). */
  | 'panel'
  | 'paste'
  | 'file'
  /** Opened a log at a URL, from the Open panel. */
  | 'url'
  /** Picked a gallery example (or the edit mode's original). */
  | 'example'
  /** Asked a node for a log (the Open panel's From a node). */
  | 'fetch'
  /** Moved the selection (the timeline, the time slider, presenter mode, Follow's jump). */
  | 'select'
  /** Pasted a new address into the address bar of an open page. */
  | 'address'
  /** Opened a log from a live view (the audit, the node traffic, an inbox task) or picked another log of the input. */
  | 'log'

/** An automatic load, tagged as it begins. */
export interface AutoLoad {
  readonly id: number
  /** What is loading, as the header says it ("example valid-full-life"). */
  readonly label: string
  /** The session's generation when it began: any user intent since moves it on. */
  readonly generation: number
  /** Aborted when the user acts: a fetch the load makes stops there. */
  readonly signal: AbortSignal
  /** It opens a gallery example (not a URL, a node's log or a log the address carries). */
  readonly example: boolean
}

/** What the result of a node fetch may do when it arrives. */
export type FetchClaim =
  /** The user's fetch (or the address of an open page the user changed): open it, at `step` if given. */
  | { readonly kind: 'user'; readonly step?: StepWish | undefined }
  /** The fetch the address named at first load, nothing the user did since: open it as `load`. */
  | { readonly kind: 'auto'; readonly load: AutoLoad; readonly step: StepWish | undefined }
  /** The address's fetch, but the user did something since: drop it. */
  | { readonly kind: 'stale' }

type Listener = () => void

export class StartGuard {
  private generation = 0
  private controller = new AbortController()
  /** Whether an automatic load holds the current controller's signal (so a user's act must abort it). */
  private signalGiven = false
  private nextId = 1
  /** Automatic loads still fetching or reading (shown in the header); one in the inspector shows there instead. */
  private readonly waiting = new Map<number, AutoLoad>()
  private snapshot: readonly AutoLoad[] = []
  /** The label of an automatic load of a gallery example waiting or in the inspector. */
  private exampleSnapshot: string | null = null
  private readonly listeners = new Set<Listener>()
  /** The automatic load the inspector is opening, if any (cancelled when the user acts). */
  private inInspector: AutoLoad | null = null
  /** The user's loads running in the inspector. */
  private userLoads = 0
  private addressFetch: { readonly load: AutoLoad | null; readonly step: StepWish | undefined } | null = null
  /** The last intent, for tests and diagnostics. */
  lastIntent: UserIntent | null = null

  /** `cancelOpen` stops what the inspector is opening (useInspector's cancel). */
  constructor(private readonly cancelOpen: () => void = () => {}) {}

  /** The user did something: every automatic load begun before gives way, now. */
  readonly userActed = (intent: UserIntent): void => {
    this.generation++
    this.lastIntent = intent
    // Every step of the timeline is an act: abort only when a load holds the signal (an
    // abort runs the listeners a finished fetch left on it, about 0.3 ms a press).
    if (this.signalGiven) {
      this.controller.abort()
      this.controller = new AbortController()
      this.signalGiven = false
    }
    const inspectorExample = this.inInspector?.example === true
    if (this.inInspector) {
      this.inInspector = null
      this.cancelOpen()
    }
    if (this.waiting.size > 0 || inspectorExample) {
      this.waiting.clear()
      this.changed()
    }
  }

  /** Tags an automatic load as it begins (`example`: it opens a gallery example). */
  begin(label: string, example = false): AutoLoad {
    const load: AutoLoad = {
      id: this.nextId++,
      label,
      generation: this.generation,
      signal: this.controller.signal,
      example,
    }
    this.signalGiven = true
    this.waiting.set(load.id, load)
    this.changed()
    return load
  }

  /** Whether an automatic load may still be applied: no user intent since it began. */
  wanted(load: AutoLoad): boolean {
    return load.generation === this.generation
  }

  /** The automatic load is over (applied, failed or dropped). */
  end(load: AutoLoad): void {
    if (this.waiting.delete(load.id)) this.changed()
  }

  /**
   * Opens an automatic load in the inspector: `open` is given the check to ask before
   * anything is shown. Not started (false) when the user acted since it began or a user's
   * load is running; the load is over when this settles.
   */
  async autoOpen(load: AutoLoad, open: (wanted: () => boolean) => Promise<boolean>): Promise<boolean> {
    if (!this.wanted(load) || this.userLoads > 0) {
      this.end(load)
      return false
    }
    // In the inspector, its progress shows there (the header's busy bar); an example stays
    // `openingExample()` from the one to the other.
    this.inInspector = load
    if (this.waiting.delete(load.id)) this.changed()
    try {
      return await open(() => this.wanted(load))
    } finally {
      const mine = this.inInspector?.id === load.id
      if (mine) this.inInspector = null
      if (this.waiting.delete(load.id) || (mine && load.example)) this.changed()
    }
  }

  /** Opens the user's load: the app's own loads begun before give way first (`intent`). */
  async userOpen(intent: UserIntent, open: () => Promise<boolean>): Promise<boolean> {
    this.userActed(intent)
    this.userLoads++
    try {
      return await open()
    } finally {
      this.userLoads--
    }
  }

  /** The address names a node fetch; `load` is null when the user changed the address (a user's fetch). */
  addressFetchStarted(load: AutoLoad | null, step: StepWish | undefined): void {
    this.addressFetch = { load, step }
  }

  /** The user started a fetch from the Open panel: it is theirs, not the address's. */
  userFetchStarted(): void {
    this.userActed('fetch')
    this.addressFetch = null
  }

  /** A node fetch's result arrived: whose it is (asked once per result). */
  claimFetch(): FetchClaim {
    const a = this.addressFetch
    this.addressFetch = null
    if (!a) return { kind: 'user' }
    if (!a.load) return { kind: 'user', step: a.step }
    if (!this.wanted(a.load)) {
      this.end(a.load)
      return { kind: 'stale' }
    }
    return { kind: 'auto', load: a.load, step: a.step }
  }

  /** The automatic loads still fetching or reading, oldest first (a stable array between changes). */
  readonly pending = (): readonly AutoLoad[] => this.snapshot

  /** The automatic load of a gallery example under way (fetching its chunk or in the inspector): its label, or null. */
  readonly openingExample = (): string | null => this.exampleSnapshot

  /** Calls `listener` when `pending()` or `openingExample()` changes; returns the unsubscribe. */
  readonly subscribe = (listener: Listener): (() => void) => {
    this.listeners.add(listener)
    return () => this.listeners.delete(listener)
  }

  private changed(): void {
    this.snapshot = [...this.waiting.values()]
    const example = this.snapshot.find((l) => l.example) ?? (this.inInspector?.example ? this.inInspector : undefined)
    this.exampleSnapshot = example?.label ?? null
    for (const l of this.listeners) l()
  }
}
