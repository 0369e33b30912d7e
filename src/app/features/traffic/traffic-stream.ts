/**
 * The live connection to a node's traffic log: the SSE stream
 * (`/inspector/v1/traffic/stream?after=<id>`, resumed by the browser with Last-Event-ID
 * after a drop), with a `GET /inspector/v1/traffic?after=<id>` beside it to tell a node
 * that is down (reconnect, with backoff) from one that answers wrongly (stop and say
 * what is wrong), and to notice a node that restarted (its ids start again from 1:
 * `next` below the last id seen), which is then read from its start.
 */
import { parseEventData, parsePage, TrafficShapeError, type TrafficCall } from './traffic-model'

export type StreamStatus = 'connecting' | 'live' | 'reconnecting' | 'stopped'

export interface TrafficHandlers {
  readonly onCalls: (calls: readonly TrafficCall[]) => void
  readonly onStatus: (status: StreamStatus, detail: string | null) => void
  /** The node restarted: what follows is numbered from 1 again. */
  readonly onRestart: () => void
  /** A call that did not fit the traffic shape (left out; the stream goes on). */
  readonly onProblem: (message: string) => void
  readonly onDropped?: (dropped: number) => void
}

export interface TrafficDeps {
  readonly EventSource?: typeof EventSource
  readonly fetch?: typeof fetch
  /** Backoff before reconnecting, by attempt (ms). */
  readonly backoff?: (attempt: number) => number
  readonly setTimeout?: (f: () => void, ms: number) => unknown
  readonly clearTimeout?: (t: unknown) => void
}

const defaultBackoff = (n: number) => Math.min(8000, 500 * 2 ** Math.min(n, 4))

function trafficUrls(nodeUrl: string) {
  const base = nodeUrl.replace(/\/+$/, '')
  return {
    page: (after: number) => `${base}/inspector/v1/traffic?after=${after}`,
    stream: (after: number) => `${base}/inspector/v1/traffic/stream?after=${after}`,
  }
}

/** Connects; returns the function that closes the connection. `last()` is the newest id the caller holds. */
export function connectTraffic(
  nodeUrl: string,
  last: () => number,
  h: TrafficHandlers,
  deps: TrafficDeps = {},
): () => void {
  const ES = deps.EventSource ?? globalThis.EventSource
  const doFetch = deps.fetch ?? ((i: RequestInfo | URL, init?: RequestInit) => globalThis.fetch(i, init))
  const backoff = deps.backoff ?? defaultBackoff
  const later = deps.setTimeout ?? ((f: () => void, ms: number) => globalThis.setTimeout(f, ms))
  const cancelLater = deps.clearTimeout ?? ((t: unknown) => globalThis.clearTimeout(t as number))
  const urls = trafficUrls(nodeUrl)
  let es: EventSource | null = null
  let closed = false
  let attempt = 0
  let timer: unknown = null
  let everLive = false

  /** One GET: the calls since `last()`, or why not (a node that does not answer: what the fetch said). */
  const check = async (): Promise<'ok' | { readonly down: string } | 'stop'> => {
    let res: Response
    try {
      res = await doFetch(urls.page(last()), { cache: 'no-store' })
    } catch (e) {
      return { down: e instanceof Error ? e.message : String(e) }
    }
    if (!res.ok) {
      h.onStatus(
        'stopped',
        res.status === 404
          ? `${nodeUrl} serves no traffic log (HTTP 404 at /inspector/v1/traffic): is it this project's local node?`
          : `${nodeUrl} answered the traffic log with HTTP ${res.status}`,
      )
      return 'stop'
    }
    try {
      const page = parsePage(await res.json())
      if (page.next < last()) h.onRestart()
      if (page.dropped > 0) h.onDropped?.(page.dropped)
      h.onCalls(page.calls)
      return 'ok'
    } catch (e) {
      h.onStatus(
        'stopped',
        `${nodeUrl} answered the traffic log with something that is not a traffic page: ${e instanceof TrafficShapeError ? e.message : e instanceof Error ? e.message : String(e)}`,
      )
      return 'stop'
    }
  }

  /** Tries again after the backoff; `down`: why the node did not answer, said until it does. */
  const retry = (down: string | null) => {
    if (closed) return
    const wait = backoff(attempt++)
    h.onStatus(
      everLive ? 'reconnecting' : 'connecting',
      down === null
        ? null
        : `no answer from the node (${down}): is it running? Trying again in ${(wait / 1000).toLocaleString('en', { maximumFractionDigits: 1 })} s.`,
    )
    timer = later(() => {
      timer = null
      void start()
    }, wait)
  }

  const start = async () => {
    if (closed) return
    // Read what is there first (and learn whether the node restarted), then follow.
    const c = await check()
    if (closed) return
    if (typeof c === 'object') return retry(c.down)
    if (c === 'stop') return
    const source = new ES(urls.stream(last()))
    es = source
    source.onopen = () => {
      attempt = 0
      everLive = true
      h.onStatus('live', null)
    }
    source.onmessage = (ev: MessageEvent<string>) => {
      try {
        h.onCalls([parseEventData(ev.data)])
      } catch (e) {
        h.onProblem(`a call from the node was left out: ${e instanceof Error ? e.message : String(e)}`)
      }
    }
    source.onerror = () => {
      if (closed) return
      // The browser would resume by Last-Event-ID by itself, but a restarted node numbers
      // from 1 again: close, and start over through the check.
      source.close()
      if (es === source) es = null
      retry(null)
    }
  }

  h.onStatus('connecting', null)
  void start()
  return () => {
    closed = true
    if (timer !== null) cancelLater(timer)
    es?.close()
    es = null
    h.onStatus('stopped', null)
  }
}
