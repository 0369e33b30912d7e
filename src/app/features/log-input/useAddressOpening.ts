/**
 * The page address, both ways, for the shell to call once: what the address names is
 * opened at first load and on `hashchange` (./address-opening.ts), and the open log's
 * address is kept in the bar as the selection moves (./usePageAddress.ts).
 *
 * useStartGuard comes first (the network feature's fetch result asks it whose the fetch
 * was), then useAddressOpening with the inspector and the fetch it may start.
 */
import { useCallback, useEffect, useRef, useState, useSyncExternalStore } from 'react'
import type { Row } from '../../trace/trace-model'
import type { Loaded } from '../../trace/useInspector'
import { AddressOpener, type OpenerDeps } from './address-opening'
import { fetchLog } from './fetch-url'
import { type Example, loadExample } from './gallery'
import { type AutoLoad, StartGuard } from './start-guard'
import { type PageAddress, usePageAddress, type ViewPart } from './usePageAddress'

/**
 * The page's one StartGuard: what the user started wins over what the app started by
 * itself. `cancelOpen` stops the inspector's open (an automatic one the user overtook).
 */
export function useStartGuard(cancelOpen: () => void): StartGuard {
  return useState(() => new StartGuard(cancelOpen))[0]
}

/** The app's own loads still fetching or reading (for the header's status). */
export function usePendingAutoLoads(guard: StartGuard): readonly AutoLoad[] {
  return useSyncExternalStore(guard.subscribe, guard.pending, guard.pending)
}

export interface AddressOpeningOptions<A extends object>
  extends Pick<OpenerDeps<A>, 'open' | 'problem' | 'openPanel' | 'fetchAddress'> {
  readonly guard: StartGuard
  readonly loaded: Loaded | null
  readonly select: (r: Row) => void
  /** The view (the selected step, the tab, presenter mode, the drawers): kept in the address. */
  readonly view: ViewPart
  /** A new fragment names a tab (unchecked text) or presenter mode. */
  readonly setTab: (tab: string | undefined) => void
  readonly setPresenting: (on: boolean) => void
}

export interface AddressOpening extends PageAddress {
  /** The user opens a gallery example (by itself or by name, e.g. an edited copy's original). */
  readonly openExample: (ex: Example | string) => void
  /** The user opens a log at a URL: the address becomes `?url=…`. */
  readonly openUrl: (url: string) => void
  /**
   * The app is opening a gallery example by itself (from the first render on, for the one
   * the address names) and has been for less than a moment: the page waits for it in place
   * of the Open panel, which a quick load (one chunk of the app's own origin) then never
   * shows nor loads. Past that moment the panel is the page again, as for any other load.
   */
  readonly waitingForExample: boolean
}

/** How long the page waits for the example without the Open panel: the moment the page's pending line waits too (styles.css, .workspace-pending). */
const A_MOMENT_MS = 400

export function useAddressOpening<A extends object>(o: AddressOpeningOptions<A>): AddressOpening {
  const deps: OpenerDeps<A> = {
    open: o.open,
    problem: o.problem,
    openPanel: o.openPanel,
    fetchAddress: o.fetchAddress,
    loadExample,
    fetchLog: (url, signal) => fetchLog(url, signal),
  }
  const [opener] = useState(() => new AddressOpener<A>(o.guard, deps))
  opener.deps = deps

  const guarded = useSyncExternalStore(o.guard.subscribe, o.guard.openingExample, o.guard.openingExample)
  const opening = guarded ?? opener.bootExample(location.hash, location.search)
  const [long, setLong] = useState<string | null>(null)
  useEffect(() => {
    if (opening === null) return
    const t = setTimeout(() => setLong(opening), A_MOMENT_MS)
    return () => clearTimeout(t)
  }, [opening])
  const waitingForExample = opening !== null && long !== opening

  // The open log's address (the permalink): kept in the address bar as the selection moves.
  const address = usePageAddress({ loaded: o.loaded, view: o.view })

  // First load: the address bar says what to open (StrictMode runs effects twice: once).
  const booted = useRef(false)
  useEffect(() => {
    if (booted.current) return
    booted.current = true
    void opener.boot(location.hash, location.search)
  }, [opener])

  // A permalink pasted into the address bar of an open page.
  const now = useRef({ o, address })
  now.current = { o, address }
  useEffect(() => {
    const onHash = () => {
      const { o, address } = now.current
      const { fragment, compressed } = address
      // An in-page link (the skip link to #step-details) is no permalink: put the step's address back.
      if (/^#[A-Za-z][\w-]*$/.test(location.hash) && document.getElementById(location.hash.slice(1))) {
        if (fragment) history.replaceState(null, '', `${location.pathname}${fragment.search}${fragment.hash()}`)
        return
      }
      void opener.hashChanged(location.hash, location.search, {
        loaded: o.loaded,
        compressed: compressed?.value ?? null,
        select: o.select,
        setTab: o.setTab,
        setPresenting: o.setPresenting,
      })
    }
    window.addEventListener('hashchange', onHash)
    return () => window.removeEventListener('hashchange', onHash)
  }, [opener])

  const openExample = useCallback(
    (ex: Example | string) => void (typeof ex === 'string' ? opener.openExampleNamed(ex) : opener.openExample(ex)),
    [opener],
  )
  const openUrl = useCallback(
    (url: string) => {
      opener.guard.userActed('url')
      history.replaceState(null, '', `${location.pathname}?url=${encodeURIComponent(url)}`)
      void opener.openFragment({}, new URLSearchParams({ url }), 'url')
    },
    [opener],
  )
  return { ...address, openExample, openUrl, waitingForExample }
}
