/**
 * Opening what the page address names (issue #12: URL and permalink handling belong to
 * the log-input feature): at first load, and when a permalink is pasted into the
 * address bar of an open page (`hashchange`). The address names a gallery example
 * (`#example=…`), a log carried in the fragment (`#log=…`, maybe an edited copy), a log
 * at a URL (`?url=…`) or a fetch from a node (`?node=…&inbox=…`, which the network
 * feature makes: it comes in as `fetchAddress`), each with the step to select.
 *
 * What the user started always wins over what the app started by itself (design.md): what
 * the address names at first load is the app's own load, tagged by the StartGuard
 * (./start-guard.ts), and gives way to anything the user does while it loads; a new
 * address on an open page is the user's own act.
 *
 * Plain classes over injected functions, so the rules are tested without a browser;
 * useAddressOpening.ts wires them to React and the window.
 */
import type { Row } from '../../trace/trace-model'
import type { Loaded, OpenOptions, Source, StepWish } from '../../trace/useInspector'
import type { Example } from './gallery'
import { DEFAULT_EXAMPLE, findExample } from './gallery'
import { FetchLogError } from './fetch-url'
import { decompressLog, type Fragment, PermalinkError, parseFragment } from './permalink'
import type { AutoLoad, StartGuard, UserIntent } from './start-guard'

export interface OpenerDeps<A> {
  readonly open: (source: Source, options?: OpenOptions) => Promise<boolean>
  readonly problem: (p: { readonly label: string; readonly message: string }) => void
  /** Shows (true) or hides the Open drawer: a failed open shows it, a user's open of an example hides it. */
  readonly openPanel: (open: boolean) => void
  readonly loadExample: (ex: Example) => Promise<string>
  /** `signal` aborts the fetch (the user acted while the app's own fetch ran). */
  readonly fetchLog: (url: string, signal?: AbortSignal) => Promise<Uint8Array>
  /** The network feature's part: reads `?node=…` from the query and starts that fetch. */
  readonly fetchAddress: {
    readonly read: (search: string) => A | { readonly error: string } | null
    /** `load`: the app's own fetch at first load (ended when its result is claimed or it fails), null for the user's. */
    readonly start: (address: A, load: AutoLoad | null) => void
  }
}

/** What the hash-change handling needs of the page now. */
export interface PageNow {
  readonly loaded: Loaded | null
  /** The open log as it stands compressed in the fragment, if it does. */
  readonly compressed: string | null
  readonly select: (r: Row) => void
  readonly setTab: (tab: string | undefined) => void
  readonly setPresenting: (on: boolean) => void
}

function exampleSource(ex: Example, text: string): Source {
  return {
    kind: 'example',
    label: `example ${ex.name}`,
    name: ex.file,
    input: text,
    example: ex.name,
    verifier: ex.verifier,
  }
}

const messageOf = (e: unknown): string => (e instanceof Error ? e.message : String(e))

/** Who started an open: the app (its tagged automatic load) or the user (what they did). */
export type Starter = AutoLoad | UserIntent

/** What an automatic load of the address is called while it loads (the header's status). */
function autoLabel(f: Fragment, search: URLSearchParams): string {
  const url = search.get('url')
  if (url) return `the log at ${url}`
  if (f.log) return f.edited ? `the edited copy of ${f.edited.label}` : 'the log in the page address'
  const node = search.get('node')
  if (node && f.example === undefined) return `the log the page address names on ${node}`
  return `example ${f.example ?? DEFAULT_EXAMPLE}`
}

/** Whether the address opens a gallery example (as autoLabel reads it: a node's fetch is not one). */
function opensExample(f: Fragment, search: URLSearchParams): boolean {
  return !search.get('url') && !f.log && (f.example !== undefined || !search.get('node'))
}

export class AddressOpener<A> {
  private booted = false

  constructor(
    readonly guard: StartGuard,
    /** Replaced at each render (the latest callbacks). */
    public deps: OpenerDeps<A>,
  ) {}

  /** Opens `source` as the app's automatic load (it gives way to the user) or as the user's. */
  private openSource(source: Source, options: OpenOptions, who: Starter): Promise<boolean> {
    const open = this.deps.open
    return typeof who === 'object'
      ? this.guard.autoOpen(who, (wanted) => open(source, { ...options, wanted }))
      : this.guard.userOpen(who, () => open(source, options))
  }

  /** True when `who` is an automatic load the user has overtaken: its result and its failure are dropped. */
  private stale(who: Starter): boolean {
    return typeof who === 'object' && !this.guard.wanted(who)
  }

  /** A failed open shows the Open drawer and says why, unless the user has moved on. */
  private fail(who: Starter, p: { readonly label: string; readonly message: string }): void {
    if (this.stale(who)) return
    this.deps.openPanel(true)
    this.deps.problem(p)
  }

  /** Opens a gallery example: the user's (`who` an intent: the Open drawer closes) or the app's own load. */
  async openExample(ex: Example, step?: StepWish, who: Starter = 'example'): Promise<void> {
    const d = this.deps
    if (typeof who !== 'object') this.guard.userActed(who)
    try {
      const text = await d.loadExample(ex)
      if (this.stale(who)) return
      if ((await this.openSource(exampleSource(ex, text), step ? { step } : {}, who)) && typeof who !== 'object')
        d.openPanel(false)
    } catch (e) {
      this.fail(who, { label: `example ${ex.name}`, message: messageOf(e) })
    } finally {
      if (typeof who === 'object') this.guard.end(who)
    }
  }

  /** Opens the gallery example named `name` as the user's (an edited copy's original); an unknown name opens nothing. */
  async openExampleNamed(name: string): Promise<void> {
    let ex: Example | undefined
    try {
      ex = await findExample(name)
    } catch (e) {
      this.fail('example', { label: `example ${name}`, message: messageOf(e) })
      return
    }
    if (ex) await this.openExample(ex)
  }

  /** Opens what a fragment and query name, started by `who`. */
  async openFragment(f: Fragment, search: URLSearchParams, who: Starter): Promise<void> {
    const d = this.deps
    const url = search.get('url')
    const step = f.step
    const opts = { ...(step ? { step } : {}), ...(f.inbox !== undefined ? { logIndex: f.inbox } : {}) }
    const auto = typeof who === 'object' ? who : null
    if (url) {
      try {
        const bytes = await d.fetchLog(url, auto?.signal)
        if (this.stale(who)) return
        const source: Source = { kind: 'url', label: `URL ${url}`, name: url, input: bytes, url, verifier: 'none' }
        await this.openSource(source, opts, who)
      } catch (e) {
        this.fail(who, {
          label: `URL ${url}`,
          message: e instanceof FetchLogError ? e.message : `could not open ${url}: ${messageOf(e)}`,
        })
      } finally {
        if (auto) this.guard.end(auto)
      }
      return
    }
    if (f.log) {
      try {
        const bytes = await decompressLog(f.log)
        if (this.stale(who)) return
        const ed = f.edited
        const source: Source = ed
          ? {
              kind: 'permalink',
              label: `edited copy of ${ed.label}`,
              name: `${ed.example ?? 'permalink'}-edited`,
              input: bytes,
              verifier: 'none',
              edited: {
                originalLabel: ed.label,
                edits: ed.edits,
                ...(ed.example ? { originalExample: ed.example } : {}),
              },
            }
          : { kind: 'permalink', label: 'the permalink', name: 'permalink', input: bytes, verifier: 'none' }
        if (!(await this.openSource(source, opts, who)) && !this.stale(who)) d.openPanel(true)
      } catch (e) {
        this.fail(who, { label: 'The permalink', message: e instanceof PermalinkError ? e.message : String(e) })
      } finally {
        if (auto) this.guard.end(auto)
      }
      return
    }
    const address = f.example === undefined ? d.fetchAddress.read(search.toString()) : null
    if (address !== null) {
      if (typeof address === 'object' && 'error' in address) {
        if (auto) this.guard.end(auto)
        this.fail(who, {
          label: 'The page address',
          message: `the page address asks for a fetch that cannot be made: ${address.error}`,
        })
        return
      }
      // The network feature runs the fetch; its result asks the guard whose it is (and ends `auto`).
      this.guard.addressFetchStarted(auto, step)
      d.fetchAddress.start(address, auto)
      return
    }
    const name = f.example ?? DEFAULT_EXAMPLE
    let ex: Example | undefined
    try {
      // The demo at once; another example once the gallery's index (a chunk) is there.
      const found = findExample(name)
      ex = found instanceof Promise ? await found : found
    } catch (e) {
      if (auto) this.guard.end(auto)
      this.fail(who, { label: `example ${name}`, message: messageOf(e) })
      return
    }
    if (!ex) {
      if (auto) this.guard.end(auto)
      this.fail(who, {
        label: `example ${name}`,
        message: `there is no built-in example named ${JSON.stringify(name)}; pick one from the gallery`,
      })
      return
    }
    await this.openExample(ex, step, who)
  }

  /** First load: the address bar says what to open (the default example when it names nothing), as the app's own load. */
  boot(hash: string, search: string): Promise<void> {
    this.booted = true
    const f = parseFragment(hash)
    const q = new URLSearchParams(search)
    return this.openFragment(f, q, this.guard.begin(autoLabel(f, q), opensExample(f, q)))
  }

  /**
   * Before `boot` (the first render): the label of the gallery example it will open, or
   * null. From `boot` on, the guard says it (StartGuard.openingExample).
   */
  bootExample(hash: string, search: string): string | null {
    if (this.booted) return null
    const f = parseFragment(hash)
    const q = new URLSearchParams(search)
    return opensExample(f, q) ? autoLabel(f, q) : null
  }

  /**
   * A new fragment on an open page (a permalink pasted into the address bar): the same
   * log moves to the step it names; another log opens, as the user's own act.
   */
  hashChanged(hash: string, search: string, page: PageNow): Promise<void> {
    this.guard.userActed('address')
    const f = parseFragment(hash)
    page.setTab(f.tab)
    page.setPresenting(f.present === true)
    const cur = page.loaded
    const sameLog =
      !!cur &&
      ((!!f.example && f.example === cur.source.example) ||
        (!!f.log && page.compressed === f.log) ||
        (!f.example && !f.log && (cur.source.kind === 'url' || cur.source.kind === 'node')))
    if (sameLog) {
      if (f.step && cur) {
        const k = cur.model.steps.findIndex((s) => s.sequenceId === f.step!.sequenceId)
        const r = cur.rows.find((x) => x.k === k && x.i === f.step!.action) ?? cur.rows.find((x) => x.k === k)
        if (r) page.select(r)
      }
      return Promise.resolve()
    }
    return this.openFragment(f, new URLSearchParams(search), 'address')
  }
}
