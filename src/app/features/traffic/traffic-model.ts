/**
 * The local node's traffic log as the app reads it (src/devnode's
 * `GET /inspector/v1/traffic?after=<id>` and the SSE stream `/inspector/v1/traffic/stream`):
 * the parser that checks every call's shape, and the bounded store the panel shows.
 *
 * Everything in a call came from some client of the node (an inbox id, a message, an
 * update's bytes): it is untrusted. Each field is checked for its type and bounded in
 * length here; a call that does not fit is refused with the path of what is wrong
 * (`TrafficShapeError`), and React escapes what is shown.
 */

const TRANSPORTS = ['grpc', 'grpc-web', 'connect', 'gateway'] as const
type Transport = (typeof TRANSPORTS)[number]
export const OUTCOMES = ['ok', 'refused', 'error'] as const
type Outcome = (typeof OUTCOMES)[number]
const SUBJECT_KINDS = ['inbox', 'identifier', 'installation', 'topic'] as const
type SubjectKind = (typeof SUBJECT_KINDS)[number]

export interface TrafficCall {
  readonly id: number
  readonly time: string
  readonly transport: Transport
  readonly method: string
  readonly subject: { readonly kind: SubjectKind; readonly value: string } | null
  readonly outcome: Outcome
  readonly code: string
  readonly rule: string | null
  readonly message: string
  readonly ms: number
  readonly update: {
    readonly inboxId: string
    readonly sequenceId: bigint | null
    readonly updateHex: string | null
    readonly truncated: boolean
  } | null
}

export interface TrafficPage {
  readonly calls: readonly TrafficCall[]
  readonly next: number
  readonly dropped: number
  readonly capacity: number
}

/** Bounds on a call's fields (the node's own are tighter; these hold against any server). */
const MAX = { time: 40, method: 256, subject: 256, code: 80, message: 1000, hexChars: 2 * 64 * 1024 + 2 } as const

export class TrafficShapeError extends Error {
  override readonly name = 'TrafficShapeError'
  constructor(
    readonly path: string,
    detail: string,
  ) {
    super(`${path}: ${detail}`)
  }
}

type Obj = Record<string, unknown>
const isObj = (v: unknown): v is Obj => typeof v === 'object' && v !== null && !Array.isArray(v)
const kindOf = (v: unknown): string => (v === null ? 'null' : Array.isArray(v) ? 'an array' : typeof v)

function obj(v: unknown, path: string): Obj {
  if (!isObj(v)) throw new TrafficShapeError(path, `expected an object, found ${kindOf(v)}`)
  return v
}

function text(o: Obj, key: string, path: string, max: number): string {
  const v = o[key]
  if (typeof v !== 'string') throw new TrafficShapeError(`${path}.${key}`, `expected a string, found ${kindOf(v)}`)
  if (v.length > max) throw new TrafficShapeError(`${path}.${key}`, `${v.length} characters, at most ${max}`)
  return v
}

function wholeNumber(o: Obj, key: string, path: string, min = 0): number {
  const v = o[key]
  if (typeof v !== 'number' || !Number.isSafeInteger(v) || v < min)
    throw new TrafficShapeError(
      `${path}.${key}`,
      `expected a whole number of at least ${min}, found ${JSON.stringify(v) ?? kindOf(v)}`,
    )
  return v
}

function oneOf<T extends string>(o: Obj, key: string, path: string, allowed: readonly T[]): T {
  const v = o[key]
  if (typeof v !== 'string' || !(allowed as readonly string[]).includes(v))
    throw new TrafficShapeError(
      `${path}.${key}`,
      `expected one of ${allowed.join(', ')}, found ${JSON.stringify(v)?.slice(0, 40) ?? kindOf(v)}`,
    )
  return v as T
}

function updateOf(v: unknown, path: string): TrafficCall['update'] {
  if (v === null) return null
  const u = obj(v, path)
  const seq = u.sequence_id
  if (seq !== null && (typeof seq !== 'string' || !/^\d{1,20}$/.test(seq)))
    throw new TrafficShapeError(`${path}.sequence_id`, 'expected a sequence id (decimal digits) or null')
  const hex = u.update_hex
  if (hex !== null) {
    if (typeof hex !== 'string' || hex.length > MAX.hexChars || !/^(?:[0-9a-fA-F]{2})*$/.test(hex))
      throw new TrafficShapeError(`${path}.update_hex`, 'expected bytes in hex (an even number of hex digits) or null')
  }
  if (typeof u.truncated !== 'boolean')
    throw new TrafficShapeError(`${path}.truncated`, `expected true or false, found ${kindOf(u.truncated)}`)
  return {
    inboxId: text(u, 'inbox_id', path, MAX.subject),
    sequenceId: seq === null ? null : BigInt(seq),
    updateHex: hex === null ? null : hex.toLowerCase(),
    truncated: u.truncated,
  }
}

/** One call of the traffic log. @throws TrafficShapeError */
export function parseCall(v: unknown, path = 'call'): TrafficCall {
  const o = obj(v, path)
  const s = o.subject
  let subject: TrafficCall['subject'] = null
  if (s !== null) {
    const so = obj(s, `${path}.subject`)
    subject = {
      kind: oneOf(so, 'kind', `${path}.subject`, SUBJECT_KINDS),
      value: text(so, 'value', `${path}.subject`, MAX.subject),
    }
  }
  const rule = o.rule
  if (rule !== null && (typeof rule !== 'string' || !/^IDENT-\d{3}$/.test(rule)))
    throw new TrafficShapeError(`${path}.rule`, 'expected a rule id like IDENT-040 or null')
  const ms = o.ms
  if (typeof ms !== 'number' || !Number.isFinite(ms) || ms < 0)
    throw new TrafficShapeError(`${path}.ms`, `expected a duration in ms, found ${JSON.stringify(ms) ?? kindOf(ms)}`)
  const time = text(o, 'time', path, MAX.time)
  if (Number.isNaN(Date.parse(time))) throw new TrafficShapeError(`${path}.time`, 'expected an ISO 8601 time')
  return {
    id: wholeNumber(o, 'id', path, 1),
    time,
    transport: oneOf(o, 'transport', path, TRANSPORTS),
    method: text(o, 'method', path, MAX.method),
    subject,
    outcome: oneOf(o, 'outcome', path, OUTCOMES),
    code: text(o, 'code', path, MAX.code),
    rule,
    message: text(o, 'message', path, MAX.message),
    ms,
    update: updateOf(o.update, `${path}.update`),
  }
}

/** The answer of `GET /inspector/v1/traffic`. @throws TrafficShapeError */
export function parsePage(v: unknown): TrafficPage {
  const o = obj(v, 'answer')
  if (!Array.isArray(o.calls)) throw new TrafficShapeError('answer.calls', `expected a list, found ${kindOf(o.calls)}`)
  return {
    calls: o.calls.map((c, i) => parseCall(c, `answer.calls[${i}]`)),
    next: wholeNumber(o, 'next', 'answer'),
    dropped: wholeNumber(o, 'dropped', 'answer'),
    capacity: wholeNumber(o, 'capacity', 'answer'),
  }
}

/** An SSE event's data: one call as JSON. @throws TrafficShapeError */
export function parseEventData(data: string): TrafficCall {
  if (data.length > MAX.hexChars + 8192)
    throw new TrafficShapeError('event', `${data.length} characters, too long for one call`)
  let v: unknown
  try {
    v = JSON.parse(data)
  } catch (e) {
    throw new TrafficShapeError('event', `not JSON (${e instanceof Error ? e.message.slice(0, 120) : 'unreadable'})`)
  }
  return parseCall(v, 'event')
}

/** "xmtp.identity.api.v1.IdentityApi/PublishIdentityUpdate" → its method and its service's short name. */
export function shortMethod(method: string): { readonly name: string; readonly service: string } {
  const slash = method.lastIndexOf('/')
  if (slash < 0) return { name: method, service: '' }
  const service = method.slice(0, slash)
  return { name: method.slice(slash + 1), service: service.slice(service.lastIndexOf('.') + 1) }
}

/** What a call lets the user open in the inspector. */
export type CallTarget =
  | { readonly kind: 'stored'; readonly inboxId: string; readonly sequenceId: bigint }
  | { readonly kind: 'refused'; readonly inboxId: string; readonly updateHex: string }
  | { readonly kind: 'inbox'; readonly inboxId: string }
  | { readonly kind: 'none'; readonly why: string | null }

export function targetOf(c: TrafficCall): CallTarget {
  const u = c.update
  if (u) {
    if (c.outcome === 'ok' && u.sequenceId !== null)
      return { kind: 'stored', inboxId: u.inboxId, sequenceId: u.sequenceId }
    if (u.updateHex !== null) return { kind: 'refused', inboxId: u.inboxId, updateHex: u.updateHex }
    if (u.truncated) return { kind: 'none', why: 'the node kept no bytes of this update (it is over its 64 KiB limit)' }
  }
  if (c.subject?.kind === 'inbox' && c.outcome === 'ok') return { kind: 'inbox', inboxId: c.subject.value }
  return { kind: 'none', why: null }
}

export interface TrafficFilter {
  /** Part of the method name (any case), '' for all. */
  readonly method: string
  /** null: every outcome. */
  readonly outcome: Outcome | null
}

export function filterCalls(calls: readonly TrafficCall[], f: TrafficFilter): readonly TrafficCall[] {
  const m = f.method.trim().toLowerCase()
  if (m === '' && f.outcome === null) return calls
  return calls.filter(
    (c) => (f.outcome === null || c.outcome === f.outcome) && (m === '' || c.method.toLowerCase().includes(m)),
  )
}

/**
 * The calls the panel holds: newest first, each id once, at most `capacity` (the oldest
 * fall off). Ids only grow on one node run; `restart()` starts a new run's numbering
 * (the node restarted and counts from 1 again), keeping what was shown before.
 */
export class TrafficStore {
  private list: Keyed[] = []
  private lastId = 0
  private epoch = 0

  constructor(readonly capacity = 2000) {}

  /** Adds calls (any order); returns whether any was new. */
  add(calls: readonly TrafficCall[]): boolean {
    const fresh = calls.filter((c) => c.id > this.lastId).sort((a, b) => a.id - b.id)
    if (fresh.length === 0) return false
    const seen = new Set<number>()
    const unique = fresh.filter((c) => (seen.has(c.id) ? false : (seen.add(c.id), true)))
    this.lastId = unique[unique.length - 1]!.id
    const keyed = unique.map((c): Keyed => ({ ...c, key: `${this.epoch}:${c.id}` }))
    this.list = [...keyed.reverse(), ...this.list].slice(0, this.capacity)
    return true
  }

  /** The node restarted: its ids start again from 1. */
  restart(): void {
    this.lastId = 0
    this.epoch++
  }

  get last(): number {
    return this.lastId
  }

  /** Newest first; each call has a `key` unique across node restarts. */
  calls(): readonly Keyed[] {
    return this.list
  }
}

export type Keyed = TrafficCall & { readonly key: string }
