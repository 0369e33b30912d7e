/**
 * The node's request log: one record per call on any transport (gRPC, gRPC-web, Connect,
 * the HTTP gateway), kept in a bounded ring for the app's "Node traffic" panel and, with
 * `--log-requests`, written as one line on stderr.
 *
 *   GET /inspector/v1/traffic?after=<id>   the calls with id > after still in the ring
 *   GET /inspector/v1/traffic/stream       Server-Sent Events, one call per event, `id:` the
 *                                          call id; Last-Event-ID resumes after it
 *
 * Every field is bounded (message 500 characters, subject 200, an update's hex 64 KiB of
 * bytes), so the ring's memory is bounded by its capacity. The traffic endpoints are not
 * logged themselves. CORS is open to any origin: the app reads them from another origin.
 */
import type { IncomingMessage, ServerResponse } from 'node:http'
import { bytesToHex } from '../crypto/bytes'

export const TRAFFIC_PATH = '/inspector/v1/traffic'
export const TRAFFIC_STREAM_PATH = '/inspector/v1/traffic/stream'

export type Transport = 'grpc' | 'grpc-web' | 'connect' | 'gateway'
export type SubjectKind = 'inbox' | 'identifier' | 'installation' | 'topic'
export type Outcome = 'ok' | 'refused' | 'error'

export interface Subject {
  readonly kind: SubjectKind
  readonly value: string
}

export interface CallUpdate {
  readonly inbox_id: string
  readonly sequence_id: string | null
  readonly update_hex: string | null
  readonly truncated: boolean
}

/** One call, as served at /inspector/v1/traffic (snake_case: the wire shape). */
export interface TrafficCall {
  readonly id: number
  readonly time: string
  readonly transport: Transport
  readonly method: string
  readonly subject: Subject | null
  readonly outcome: Outcome
  readonly code: string
  readonly rule: string | null
  readonly message: string
  readonly ms: number
  readonly update: CallUpdate | null
}

/** What a handler learns about its call while serving it (filled in as it goes). */
export interface CallNote {
  subject?: Subject | null
  update?: { inboxId: string; sequenceId: bigint | null; bytes: Uint8Array | null }
  rule?: string | null
}

export const MAX_MESSAGE_CHARS = 500
const MAX_SUBJECT_CHARS = 200
const MAX_METHOD_CHARS = 200
export const MAX_UPDATE_BYTES = 64 * 1024
export const DEFAULT_TRAFFIC_CAPACITY = 1000
export const DEFAULT_MAX_TRAFFIC_STREAMS = 16
const MAX_STREAM_BACKLOG_BYTES = 1024 * 1024

const clip = (s: string, n: number): string => (s.length <= n ? s : `${s.slice(0, n - 1)}…`)

/** A subject with its value bounded. */
export function subject(kind: SubjectKind, value: string): Subject {
  return { kind, value: clip(value, MAX_SUBJECT_CHARS) }
}

function updateOf(u: NonNullable<CallNote['update']>): CallUpdate {
  const big = u.bytes !== null && u.bytes.length > MAX_UPDATE_BYTES
  return {
    inbox_id: clip(u.inboxId, MAX_SUBJECT_CHARS),
    sequence_id: u.sequenceId === null ? null : u.sequenceId.toString(),
    update_hex: u.bytes === null || big ? null : bytesToHex(u.bytes),
    truncated: big,
  }
}

export interface FinishedCall {
  /** Date.now() at the start of the call. */
  readonly startedAt: number
  /** performance.now() at the start of the call. */
  readonly startedPerf: number
  readonly transport: Transport
  readonly method: string
  readonly note: CallNote
  readonly outcome: Outcome
  readonly code: string
  readonly message: string
}

/** The ring of recent calls, its SSE readers and the optional stderr line. */
export class TrafficLog {
  private readonly ring: TrafficCall[] = []
  private nextId = 1
  private readonly streams = new Set<ServerResponse>()

  constructor(
    readonly capacity: number = DEFAULT_TRAFFIC_CAPACITY,
    private readonly line: ((text: string) => void) | null = null,
    readonly maxStreams: number = DEFAULT_MAX_TRAFFIC_STREAMS,
  ) {}

  /** Records a finished call: the ring, the SSE readers, the stderr line. */
  record(c: FinishedCall): TrafficCall {
    const call: TrafficCall = {
      id: this.nextId++,
      time: new Date(c.startedAt).toISOString(),
      transport: c.transport,
      method: clip(c.method, MAX_METHOD_CHARS),
      subject: c.note.subject ?? null,
      outcome: c.outcome,
      code: c.code,
      rule: c.note.rule ?? null,
      message: clip(c.message.replace(/\s+/g, ' '), MAX_MESSAGE_CHARS),
      ms: Math.round((performance.now() - c.startedPerf) * 10) / 10,
      update: c.note.update ? updateOf(c.note.update) : null,
    }
    this.ring.push(call)
    if (this.ring.length > this.capacity) this.ring.shift()
    if (this.line) this.line(formatLine(call))
    const event = sse(call)
    for (const res of this.streams) {
      // A reader that does not keep up is closed, not buffered for: it resumes by Last-Event-ID.
      if (res.writableLength > MAX_STREAM_BACKLOG_BYTES) {
        this.streams.delete(res)
        res.destroy()
      } else res.write(event)
    }
    return call
  }

  /** The calls after `after`, oldest first; `dropped`: calls after `after` no longer held. */
  page(after: number): { calls: TrafficCall[]; next: number; dropped: number; capacity: number } {
    const oldest = this.ring[0]?.id ?? this.nextId
    const calls = this.ring.filter((c) => c.id > after)
    const dropped = Math.max(0, oldest - 1 - Math.max(after, 0))
    return { calls, next: this.nextId - 1, dropped, capacity: this.capacity }
  }

  /** Answers GET /inspector/v1/traffic and /inspector/v1/traffic/stream; false for another path. */
  serve(req: IncomingMessage, res: ServerResponse): boolean {
    const url = new URL(req.url ?? '/', 'http://node')
    if (url.pathname !== TRAFFIC_PATH && url.pathname !== TRAFFIC_STREAM_PATH) return false
    const cors = { 'Access-Control-Allow-Origin': '*', 'Cache-Control': 'no-store' }
    const fail = (status: number, code: string, message: string) => {
      res.writeHead(status, { ...cors, 'Content-Type': 'application/json' })
      res.end(JSON.stringify({ code, message, rule: null }))
    }
    if (req.method === 'OPTIONS') {
      res.writeHead(204, {
        ...cors,
        'Access-Control-Allow-Methods': 'GET, OPTIONS',
        'Access-Control-Allow-Headers': String(req.headers['access-control-request-headers'] ?? 'Last-Event-ID'),
        'Access-Control-Max-Age': '600',
      })
      res.end()
      return true
    }
    if (req.method !== 'GET') {
      res.setHeader('Allow', 'GET, OPTIONS')
      fail(405, 'method_not_allowed', `${req.method} is not allowed on ${url.pathname}; use GET`)
      return true
    }
    const afterText =
      url.pathname === TRAFFIC_STREAM_PATH
        ? (header(req, 'last-event-id') ?? url.searchParams.get('after') ?? '0')
        : (url.searchParams.get('after') ?? '0')
    if (!/^[0-9]{1,15}$/.test(afterText)) {
      fail(400, 'malformed_request', `after ${JSON.stringify(clip(afterText, 40))} is not a non-negative integer`)
      return true
    }
    const after = Number(afterText)
    if (url.pathname === TRAFFIC_PATH) {
      res.writeHead(200, { ...cors, 'Content-Type': 'application/json' })
      res.end(JSON.stringify(this.page(after)))
      return true
    }
    if (this.streams.size >= this.maxStreams) {
      fail(
        503,
        'too_many_streams',
        `this node serves at most ${this.maxStreams} traffic streams at once; close one or poll ${TRAFFIC_PATH}`,
      )
      return true
    }
    res.writeHead(200, { ...cors, 'Content-Type': 'text/event-stream', Connection: 'keep-alive' })
    res.write(': node traffic\n\n')
    for (const c of this.page(after).calls) res.write(sse(c))
    this.streams.add(res)
    const done = () => this.streams.delete(res)
    res.on('close', done)
    req.on('close', done)
    return true
  }

  /** Ends every SSE reader (the node is closing). */
  close(): void {
    for (const res of this.streams) res.end()
    this.streams.clear()
  }
}

function header(req: IncomingMessage, name: string): string | undefined {
  const v = req.headers[name]
  return Array.isArray(v) ? v[0] : v
}

const sse = (c: TrafficCall): string => `id: ${c.id}\ndata: ${JSON.stringify(c)}\n\n`

/** The stderr line of a call: time, transport, method, subject, outcome (code, rule), ms. */
export function formatLine(c: TrafficCall): string {
  const who = c.subject ? ` ${c.subject.kind}=${c.subject.value}` : ''
  const rule = c.rule ? ` ${c.rule}` : ''
  const msg = c.outcome === 'ok' ? '' : ` ${JSON.stringify(c.message)}`
  return `${c.time} ${c.transport} ${c.method}${who} ${c.outcome} ${c.code}${rule}${msg} ${c.ms}ms`
}
