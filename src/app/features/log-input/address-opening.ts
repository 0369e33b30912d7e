/**
 * Opening what the page address names (issue #12: URL and permalink handling belong to
 * the log-input feature): at first load, and when a permalink is pasted into the
 * address bar of an open page (`hashchange`). The address names a gallery example
 * (`#example=…`), a log carried in the fragment (`#log=…`, maybe an edited copy), a log
 * at a URL (`?url=…`) or a fetch from a node (`?node=…&inbox=…`, which the network
 * feature makes: it comes in as `fetchAddress`), each with the step to select.
 *
 * What the user started always wins over what the app started by itself (design.md):
 * StartGuard counts the user's actions, and an open the app started (the demo log at
 * first load, the address's fetch) gives way when the count moved while it loaded.
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

/** What the boot fetch's result may do when it arrives. */
export type FetchClaim =
  /** Not the app's own fetch: the user started it; open it. */
  | { readonly kind: 'user' }
  /** The fetch the page address named, with its step; nothing the user did since. */
  | { readonly kind: 'boot'; readonly step: StepWish | undefined }
  /** The page address's fetch, but the user did something since: drop it. */
  | { readonly kind: 'stale' }

/** The user's actions against what the app started on its own. */
export class StartGuard {
  private acts = 0
  private bootFetch: { acts: number; step: StepWish | undefined } | null = null

  /** The user did something (opened, pasted, picked a log): what the app started before gives way. */
  readonly userActed = (): void => {
    this.acts++
  }

  /** A mark to take when the app starts something by itself. */
  mark(): number {
    return this.acts
  }

  /** True when the user acted after `mark` was taken. */
  overtaken(mark: number): boolean {
    return mark !== this.acts
  }

  /** The page address started a fetch (wishing `step`). */
  bootFetchStarted(mark: number, step: StepWish | undefined): void {
    this.bootFetch = { acts: mark, step }
  }

  /** The user started a fetch: it is theirs, not the address's. */
  userFetchStarted(): void {
    this.acts++
    this.bootFetch = null
  }

  /** A fetch's result arrived: whose it is (asked once per result). */
  claimFetch(): FetchClaim {
    const boot = this.bootFetch
    this.bootFetch = null
    if (!boot) return { kind: 'user' }
    return this.overtaken(boot.acts) ? { kind: 'stale' } : { kind: 'boot', step: boot.step }
  }
}

export interface OpenerDeps<A> {
  readonly open: (source: Source, options?: OpenOptions) => Promise<boolean>
  readonly problem: (p: { readonly label: string; readonly message: string }) => void
  /** Shows (true) or hides the Open drawer: a failed open shows it, a user's open of an example hides it. */
  readonly openPanel: (open: boolean) => void
  readonly loadExample: (ex: Example) => Promise<string>
  readonly fetchLog: (url: string) => Promise<Uint8Array>
  /** The network feature's part: reads `?node=…` from the query and starts that fetch. */
  readonly fetchAddress: {
    readonly read: (search: string) => A | { readonly error: string } | null
    readonly start: (address: A) => void
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

export class AddressOpener<A> {
  constructor(
    readonly guard: StartGuard,
    /** Replaced at each render (the latest callbacks). */
    public deps: OpenerDeps<A>,
  ) {}

  /**
   * Opens a gallery example. `auto` is the guard's mark when the app started it (it then
   * gives way to anything the user did since); a user's open hides the Open drawer.
   */
  async openExample(ex: Example, step?: StepWish, auto?: number): Promise<void> {
    const d = this.deps
    try {
      const text = await d.loadExample(ex)
      if (auto !== undefined && this.guard.overtaken(auto)) return
      if ((await d.open(exampleSource(ex, text), step ? { step } : {})) && auto === undefined) d.openPanel(false)
    } catch (e) {
      d.problem({ label: `example ${ex.name}`, message: messageOf(e) })
    }
  }

  /** Opens what a fragment and query name; `auto` as for openExample. */
  async openFragment(f: Fragment, search: URLSearchParams, auto?: number): Promise<void> {
    const d = this.deps
    const url = search.get('url')
    const step = f.step
    const opts = { ...(step ? { step } : {}), ...(f.inbox !== undefined ? { logIndex: f.inbox } : {}) }
    const stale = () => auto !== undefined && this.guard.overtaken(auto)
    if (url) {
      try {
        const bytes = await d.fetchLog(url)
        if (stale()) return
        await d.open({ kind: 'url', label: `URL ${url}`, name: url, input: bytes, url, verifier: 'none' }, opts)
      } catch (e) {
        d.openPanel(true)
        d.problem({
          label: `URL ${url}`,
          message: e instanceof FetchLogError ? e.message : `could not open ${url}: ${messageOf(e)}`,
        })
      }
      return
    }
    if (f.log) {
      try {
        const bytes = await decompressLog(f.log)
        if (stale()) return
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
        if (!(await d.open(source, opts))) d.openPanel(true)
      } catch (e) {
        d.openPanel(true)
        d.problem({ label: 'The permalink', message: e instanceof PermalinkError ? e.message : String(e) })
      }
      return
    }
    const address = f.example === undefined ? d.fetchAddress.read(search.toString()) : null
    if (address !== null) {
      if (typeof address === 'object' && 'error' in address) {
        d.openPanel(true)
        d.problem({
          label: 'The page address',
          message: `the page address asks for a fetch that cannot be made: ${address.error}`,
        })
        return
      }
      this.guard.bootFetchStarted(auto ?? this.guard.mark(), step)
      d.fetchAddress.start(address)
      return
    }
    const name = f.example ?? DEFAULT_EXAMPLE
    const ex = findExample(name)
    if (!ex) {
      d.openPanel(true)
      d.problem({
        label: `example ${name}`,
        message: `there is no built-in example named ${JSON.stringify(name)}; pick one from the gallery`,
      })
      return
    }
    await this.openExample(ex, step, auto)
  }

  /** First load: the address bar says what to open (the default example when it names nothing). */
  boot(hash: string, search: string): Promise<void> {
    return this.openFragment(parseFragment(hash), new URLSearchParams(search), this.guard.mark())
  }

  /**
   * A new fragment on an open page (a permalink pasted into the address bar): the same
   * log moves to the step it names; another log opens, as the user's own act.
   */
  hashChanged(hash: string, search: string, page: PageNow): Promise<void> {
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
    return this.openFragment(f, new URLSearchParams(search))
  }
}
