/**
 * One line of an audit report (`inbox-inspector audit --json`, ../shared/contracts/cli.md
 * `audit`): JSON Lines, one object per inbox log, then `{"summary": {…}}` last.
 *
 * A report is a file someone hands over: every line is parsed on its own, checked
 * against the contract's shape, and a line that does not fit is a `LineError` naming its
 * line number and what is wrong; it never stops the rest of the report. Strings are
 * bounded (an inbox id of a megabyte is cut, and said to be), so a hostile report
 * costs memory linear in what is shown.
 */

export type Verdict = 'ok' | 'rejected' | 'pending' | 'unreadable'
export const VERDICTS: readonly Verdict[] = ['ok', 'rejected', 'pending', 'unreadable']

interface FirstFailure {
  readonly sequenceId: string | null
  readonly status: Exclude<Verdict, 'ok'>
  /** A spec rule id (IDENT-0xx), or null (an unreadable file names none). */
  readonly rule: string | null
  readonly actionIndex: number | null
  readonly message: string
}

export interface AuditRow {
  /** The report's line number (1-based). */
  readonly line: number
  readonly source: string
  /** Null for a file that could not be read as a log at all (its row is `unreadable`). */
  readonly inboxId: string | null
  readonly ok: boolean
  readonly verdict: Verdict
  readonly updates: number
  readonly head: string | null
  readonly failure: FirstFailure | null
  readonly members: number | null
  readonly stateDigest: string | null
  /** What a later run saw change since the last one (the report's optional `changed`); null when absent. */
  readonly changed: readonly string[] | null
  /** The report's optional `gap` (sequence ids missing from the log), as text; null when absent. */
  readonly gap: string | null
}

export interface AuditSummary {
  readonly line: number
  readonly inboxes: number | null
  readonly ok: number | null
  readonly rejected: number | null
  readonly pending: number | null
  readonly unreadable: number | null
  readonly updates: number | null
  readonly seconds: number | null
  /** `--node`: holes in the node's sequence ids (updates it skipped or withholds), as text, bounded. */
  readonly gaps: readonly string[]
}

export interface LineError {
  readonly line: number
  readonly message: string
}

export type ParsedLine =
  | { readonly kind: 'row'; readonly row: AuditRow }
  | { readonly kind: 'summary'; readonly summary: AuditSummary }
  | { readonly kind: 'error'; readonly error: LineError }
  | { readonly kind: 'blank' }

/** Bounds on what one line may hold. */
export const LIMITS = {
  /** A longer line is refused unread: no real report line comes near it. */
  line: 256 * 1024,
  inboxId: 256,
  source: 1024,
  message: 2000,
  digest: 256,
  changed: 32,
} as const

const RULE = /^IDENT-\d{3}$/
const SEQUENCE_ID = /^\d{1,20}$/

/** `s` cut to `max` characters, with an ellipsis saying it was cut. */
function bounded(s: string, max: number): string {
  return s.length <= max ? s : `${s.slice(0, max)}… (${s.length - max} more characters)`
}

class ShapeError extends Error {}

function isObject(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v)
}

function describeValue(v: unknown): string {
  if (v === null) return 'null'
  if (Array.isArray(v)) return 'an array'
  if (typeof v === 'string') return `the string ${JSON.stringify(bounded(v, 40))}`
  return typeof v === 'object' ? 'an object' : `${typeof v} ${String(v)}`
}

function str(o: Record<string, unknown>, key: string, max: number, where = key): string {
  const v = o[key]
  if (typeof v !== 'string') throw new ShapeError(`"${where}" should be a string, found ${describeValue(v)}`)
  return bounded(v, max)
}

function count(o: Record<string, unknown>, key: string, where = key): number {
  const v = o[key]
  if (typeof v !== 'number' || !Number.isSafeInteger(v) || v < 0)
    throw new ShapeError(`"${where}" should be a whole number of at least 0, found ${describeValue(v)}`)
  return v
}

function sequenceIdOrNull(o: Record<string, unknown>, key: string, where = key): string | null {
  const v = o[key]
  if (v === null || v === undefined) return null
  const s = typeof v === 'number' && Number.isSafeInteger(v) && v >= 0 ? String(v) : v
  if (typeof s !== 'string' || !SEQUENCE_ID.test(s))
    throw new ShapeError(`"${where}" should be a sequence id (decimal digits) or null, found ${describeValue(v)}`)
  return s
}

function ruleOrNull(o: Record<string, unknown>, key: string, where: string): string | null {
  const v = o[key]
  if (v === null || v === undefined) return null
  if (typeof v !== 'string' || !RULE.test(v))
    throw new ShapeError(`"${where}" should be a rule id like IDENT-040 or null, found ${describeValue(v)}`)
  return v
}

function failureOf(v: unknown): FirstFailure | null {
  if (v === null || v === undefined) return null
  if (!isObject(v)) throw new ShapeError(`"first_failure" should be an object or null, found ${describeValue(v)}`)
  const status = v.status
  if (status !== 'rejected' && status !== 'pending' && status !== 'unreadable')
    throw new ShapeError(
      `"first_failure.status" should be "rejected", "pending" or "unreadable", found ${describeValue(status)}`,
    )
  const ai = v.action_index
  if (ai !== null && ai !== undefined && (typeof ai !== 'number' || !Number.isSafeInteger(ai) || ai < 0))
    throw new ShapeError(`"first_failure.action_index" should be a whole number or null, found ${describeValue(ai)}`)
  const message = v.message === undefined ? '' : str(v, 'message', LIMITS.message, 'first_failure.message')
  return {
    sequenceId: sequenceIdOrNull(v, 'sequence_id', 'first_failure.sequence_id'),
    status,
    rule: ruleOrNull(v, 'rule', 'first_failure.rule'),
    actionIndex: typeof ai === 'number' ? ai : null,
    message,
  }
}

function changedOf(v: unknown): string[] | null {
  if (v === undefined || v === null) return null
  if (typeof v === 'boolean') return v ? ['changed'] : []
  if (!Array.isArray(v)) throw new ShapeError(`"changed" should be a list, found ${describeValue(v)}`)
  return v
    .slice(0, LIMITS.changed)
    .map((x) => bounded(typeof x === 'string' ? x : (JSON.stringify(x) ?? String(x)), 120))
}

function rowOf(o: Record<string, unknown>, line: number): AuditRow {
  const okv = o.ok
  if (typeof okv !== 'boolean') throw new ShapeError(`"ok" should be true or false, found ${describeValue(okv)}`)
  const failure = failureOf(o.first_failure)
  if (okv && failure) throw new ShapeError('"ok" is true but "first_failure" names a failure')
  if (!okv && !failure) throw new ShapeError('"ok" is false but "first_failure" is null')
  const members = o.members === undefined || o.members === null ? null : count(o, 'members')
  const digest = o.state_digest
  if (digest !== undefined && digest !== null && typeof digest !== 'string')
    throw new ShapeError(`"state_digest" should be a string, found ${describeValue(digest)}`)
  return {
    line,
    source: str(o, 'source', LIMITS.source),
    inboxId: o.inbox_id === null ? null : str(o, 'inbox_id', LIMITS.inboxId),
    ok: okv,
    verdict: failure ? failure.status : 'ok',
    updates: count(o, 'updates'),
    head: sequenceIdOrNull(o, 'head'),
    failure,
    members,
    stateDigest: typeof digest === 'string' ? bounded(digest, LIMITS.digest) : null,
    changed: changedOf(o.changed),
    gap: o.gap === undefined || o.gap === null ? null : bounded(JSON.stringify(o.gap) ?? String(o.gap), 200),
  }
}

function optionalCount(o: Record<string, unknown>, key: string): number | null {
  return o[key] === undefined ? null : count(o, key, `summary.${key}`)
}

function gapsOf(v: unknown): string[] {
  if (v === undefined || v === null) return []
  if (!Array.isArray(v)) throw new ShapeError(`"summary.sequence_gaps" should be a list, found ${describeValue(v)}`)
  return v.slice(0, 20).map((g) => {
    if (!isObject(g)) return bounded(JSON.stringify(g) ?? String(g), 120)
    const part = (k: string) => (typeof g[k] === 'string' || typeof g[k] === 'number' ? String(g[k]).slice(0, 24) : '?')
    return `after ${part('after')}, before ${part('before')}: ${part('missing')} missing`
  })
}

function summaryOf(s: unknown, line: number): AuditSummary {
  if (!isObject(s)) throw new ShapeError(`"summary" should be an object, found ${describeValue(s)}`)
  const seconds = s.seconds
  if (seconds !== undefined && (typeof seconds !== 'number' || !Number.isFinite(seconds) || seconds < 0))
    throw new ShapeError(`"summary.seconds" should be a number of at least 0, found ${describeValue(seconds)}`)
  return {
    line,
    inboxes: optionalCount(s, 'inboxes'),
    ok: optionalCount(s, 'ok'),
    rejected: optionalCount(s, 'rejected'),
    pending: optionalCount(s, 'pending'),
    unreadable: optionalCount(s, 'unreadable'),
    updates: optionalCount(s, 'updates'),
    seconds: typeof seconds === 'number' ? seconds : null,
    gaps: gapsOf(s.sequence_gaps),
  }
}

/** Parses line number `line` (1-based) of a report. Never throws. */
export function parseAuditLine(text: string, line: number): ParsedLine {
  const t = text.trim()
  if (t === '') return { kind: 'blank' }
  if (t.length > LIMITS.line)
    return {
      kind: 'error',
      error: { line, message: `the line is ${t.length} characters long (at most ${LIMITS.line})` },
    }
  let v: unknown
  try {
    v = JSON.parse(t)
  } catch (e) {
    const why = e instanceof Error ? e.message : String(e)
    return { kind: 'error', error: { line, message: `not JSON: ${bounded(why, 200)}` } }
  }
  if (!isObject(v))
    return { kind: 'error', error: { line, message: `expected a JSON object, found ${describeValue(v)}` } }
  try {
    if ('summary' in v) return { kind: 'summary', summary: summaryOf(v.summary, line) }
    return { kind: 'row', row: rowOf(v, line) }
  } catch (e) {
    if (e instanceof ShapeError) return { kind: 'error', error: { line, message: e.message } }
    throw e
  }
}
