/**
 * The network feature's state, held by the app shell so that its three views share it:
 * the profile list (edited in the Settings dialog), the fetch (started from the Open
 * drawer's "From a node" section or by the page address) and its result (the call-out
 * above the workspace: provenance, second read, comparison).
 */
import { useCallback, useMemo, useRef, useState } from 'react'
import type { Target } from '../../../network/remote'
import { useChainRoutesContext } from '../../model/app-context'
import {
  builtInProfiles,
  type FetchAddress,
  loadCustomProfiles,
  type Profile,
  profileForAddress,
  saveCustomProfiles,
} from './profiles'
import type { RemoteResult } from './remote-fetch'

export interface NetworkProfiles {
  readonly profiles: readonly Profile[]
  /** The profile fetches use (the Open drawer's choice, or the one a page address matched). */
  readonly chosen: Profile
  readonly choose: (id: string) => void
  /** Adds a custom profile, or replaces the one with its id. */
  readonly save: (p: Profile) => void
  readonly remove: (id: string) => void
  /** Chooses the profile of a page-address fetch, adding one for this page when no profile has its endpoint. */
  readonly chooseFor: (a: FetchAddress) => void
}

/** The profiles: the built-ins (the local one at `localUrl`, the app's node setting) and the custom ones (localStorage). */
export function useNetworkProfiles(localUrl: string): NetworkProfiles {
  const [custom, setCustom] = useState<Profile[]>(() => loadCustomProfiles())
  // The endpoint a page-address fetch used when no profile has it (kept for this page only).
  const [fromAddress, setFromAddress] = useState<Profile | null>(null)
  const profiles = useMemo(
    () => [...builtInProfiles(localUrl), ...custom, ...(fromAddress ? [fromAddress] : [])],
    [localUrl, custom, fromAddress],
  )
  const [chosenId, setChosenId] = useState('local')
  const chosen = profiles.find((p) => p.id === chosenId) ?? profiles[0]!
  const save = useCallback((p: Profile) => {
    setCustom((list) => {
      const next = list.some((c) => c.id === p.id) ? list.map((c) => (c.id === p.id ? p : c)) : [...list, p]
      saveCustomProfiles(next)
      return next
    })
  }, [])
  const remove = useCallback((id: string) => {
    setCustom((list) => {
      const next = list.filter((c) => c.id !== id)
      saveCustomProfiles(next)
      return next
    })
    setChosenId((c) => (c === id ? 'local' : c))
  }, [])
  const chooseFor = useCallback(
    (a: FetchAddress) => {
      const used = profileForAddress(profiles, a)
      if (!profiles.includes(used)) setFromAddress(used)
      setChosenId(used.id)
    },
    [profiles],
  )
  return { profiles, chosen, choose: setChosenId, save, remove, chooseFor }
}

type FetchStatus =
  | { readonly kind: 'idle' }
  | { readonly kind: 'fetching'; readonly what: string }
  | { readonly kind: 'error'; readonly message: string }
  | { readonly kind: 'refused'; readonly result: RemoteResult }
  | { readonly kind: 'done'; readonly result: RemoteResult }

export interface NodeFetch {
  readonly status: FetchStatus
  /** What the last fetch asked for (the "From a node" fields start from it). */
  readonly lastTarget: Target | null
  /** Fetches, then hands the log to `onOpen` unless the node's handle answer is refused (IDENT-085). */
  readonly run: (address: FetchAddress) => Promise<void>
  /** Forgets the result (the call-out's Dismiss). */
  readonly dismiss: () => void
}

/**
 * One fetch at a time: a new one aborts the one before. `onOpen` gets the result to open
 * in the inspector. A fetched log's smart-wallet signatures are judged on the app's chain
 * routes (the providers layer's verifier) when there are any.
 */
export function useNodeFetch(onOpen: (r: RemoteResult) => void): NodeFetch {
  const { routes, verifier } = useChainRoutesContext()
  const verify = useMemo(() => (routes.length > 0 ? { smartWallets: verifier } : undefined), [routes.length, verifier])
  const [status, setStatus] = useState<FetchStatus>({ kind: 'idle' })
  const [lastTarget, setLastTarget] = useState<Target | null>(null)
  const abort = useRef<AbortController | null>(null)
  const open = useRef(onOpen)
  open.current = onOpen
  const verifyRef = useRef(verify)
  verifyRef.current = verify
  const run = useCallback(async (address: FetchAddress) => {
    abort.current?.abort()
    const ac = new AbortController()
    abort.current = ac
    setLastTarget(address.target)
    setStatus({ kind: 'fetching', what: `${address.target.kind} ${address.target.value} from ${address.url}` })
    // The network client loads with the first fetch (its own chunk), under the fetching status.
    let explain = (e: unknown) => `the network code did not load: ${e instanceof Error ? e.message : String(e)}`
    try {
      const remote = await import('./remote-fetch')
      explain = remote.describeRemoteError
      const result = await remote.fetchRemote(address, {
        signal: ac.signal,
        ...(verifyRef.current ? { verify: verifyRef.current } : {}),
      })
      if (ac.signal.aborted) return
      if (result.handleCheck && !result.handleCheck.accepted) {
        setStatus({ kind: 'refused', result })
        return
      }
      setStatus({ kind: 'done', result })
      open.current(result)
    } catch (e) {
      if (ac.signal.aborted) return
      setStatus({ kind: 'error', message: explain(e) })
    }
  }, [])
  const dismiss = useCallback(() => {
    abort.current?.abort()
    setStatus({ kind: 'idle' })
  }, [])
  return { status, lastTarget, run, dismiss }
}
