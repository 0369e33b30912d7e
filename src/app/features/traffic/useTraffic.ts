/**
 * The node traffic panel's state: the calls (newest first, bounded), the connection's
 * status, and what went wrong. A thin hook over connectTraffic and TrafficStore.
 */
import { useEffect, useRef, useState } from 'react'
import { connectTraffic, type StreamStatus, type TrafficDeps } from './traffic-stream'
import { TrafficStore, type Keyed } from './traffic-model'

export interface TrafficState {
  readonly calls: readonly Keyed[]
  readonly status: StreamStatus
  readonly detail: string | null
  /** The newest few calls that were left out, and why. */
  readonly problems: readonly string[]
  /** Calls the node no longer held when the panel asked (its ring is bounded). */
  readonly dropped: number
  readonly restarts: number
}

const INITIAL: TrafficState = { calls: [], status: 'connecting', detail: null, problems: [], dropped: 0, restarts: 0 }

export function useTraffic(nodeUrl: string, deps?: TrafficDeps): TrafficState {
  const [state, setState] = useState<TrafficState>(INITIAL)
  const depsRef = useRef(deps)
  useEffect(() => {
    const store = new TrafficStore()
    setState(INITIAL)
    const stop = connectTraffic(
      nodeUrl,
      () => store.last,
      {
        onCalls: (calls) => {
          if (store.add(calls)) setState((s) => ({ ...s, calls: store.calls() }))
        },
        onStatus: (status, detail) => setState((s) => ({ ...s, status, detail })),
        onRestart: () => {
          store.restart()
          setState((s) => ({ ...s, restarts: s.restarts + 1 }))
        },
        onProblem: (m) => setState((s) => ({ ...s, problems: [m, ...s.problems].slice(0, 5) })),
        onDropped: (n) => setState((s) => ({ ...s, dropped: s.dropped + n })),
      },
      depsRef.current,
    )
    return stop
  }, [nodeUrl])
  return state
}
