/**
 * Log files in, `InboxLog[]` out, with the format detected from the content
 * (../shared/contracts/cli.md, "Log input formats"):
 *
 * 1. log bundle JSON `{"inbox_id"?, "updates": [{"sequence_id", "update_hex" | "update_base64"}]}`;
 * 2. binary `xmtp.identity.api.v1.GetIdentityUpdatesResponse`, one InboxLog per Response;
 * 3. its proto3 JSON form (camelCase or snake_case keys);
 * 4. a single IdentityUpdate, as raw bytes or as hex or base64 text (and a whole
 *    GetIdentityUpdatesResponse as hex or base64 text);
 * 5. a PostgreSQL CSV export (./pg-csv.ts), recognised by its header.
 *
 * An update that cannot be decoded (bad hex or base64, or any IDENT-001 failure) is an
 * entry whose `update` is `{ error: 'IDENT-001: …', actionIndex, bytes? }`, never a file
 * error. Input that is not a log at all is a `LogInputError` naming the format and the
 * byte offset or JSON path; auto-detection that finds no format lists every attempt.
 * Two entries of one InboxLog with the same sequence id are a LogInputError too (the
 * contract makes such a file unreadable). JSON is read by the strict reader in ./json.ts:
 * integers above 2^53 are read exactly (no JSON.parse rounding) and duplicate keys are
 * refused; a caller passing already-parsed JSON gets a clear error for a sequence id
 * that JSON.parse may have rounded (an unsafe integer number), never a silent one.
 *
 * Detection (`readLogs`), in this order:
 * - empty input (after a UTF-8 BOM and surrounding whitespace are stripped) → 'empty input';
 * - text that parses as a JSON object (strict reader, ./json.ts) is JSON, and only JSON:
 *   a bundle if it has `updates`, the gateway form if it has `responses`, a single proto3
 *   JSON IdentityUpdate if it has `actions`; a JSON scalar (e.g. all-digit hex) falls
 *   through to the text forms;
 * - text whose first line is a CSV header naming `identity_update_proto` is the CSV form;
 * - otherwise each candidate byte string is read both as a GetIdentityUpdatesResponse
 *   and as a single IdentityUpdate: the hex decoding of the text (whitespace removed,
 *   optional 0x), then its base64 decoding, then (for a Uint8Array input) the raw bytes.
 *   A raw IdentityUpdate can parse structurally as a GetIdentityUpdatesResponse (both
 *   start with a length-delimited field 1), so each reading gets a tier and the best
 *   tier wins, the earliest candidate on a tie:
 *     1  an IdentityUpdate that decodes; or a response in which at least one update decodes
 *     2  a response none of whose updates decode, with no unknown container fields
 *     3  an IdentityUpdate that is well-formed on the wire but fails IDENT-001
 *        (for example rows 8 to 19 of the xmtpd vectors: field 4 only)
 *     4  a response with unknown container fields and no update that decodes
 *   A response reading is only considered when it parses strictly, has at least one
 *   Response, and every Response names an inbox_id. Why this separates the two: an
 *   IdentityUpdate read as a response puts client_timestamp_ns and inbox_id (fields 2, 3)
 *   in unknown top-level fields, an `add` action fails the strict pass (its field 1 is a
 *   message where IdentityUpdateLog has a varint), and no action becomes an update that
 *   decodes; a response read as an IdentityUpdate fails the strict pass on its first
 *   IdentityUpdateLog. So the two readings never both reach tier 1, and a real response
 *   (no unknown fields) outranks a malformed single update.
 */
import { hexToBytes } from '../../crypto/bytes'
import { base64Bytes, base64Later } from './base64'
import { LogInputError, RuleViolation } from '../errors'
import type { InboxLog, LogEntry, UndecodableUpdate } from '../types'
import { WireType } from '@bufbuild/protobuf/wire'
import {
  assertUniqueSequenceIds,
  decodeOrError,
  describeJson,
  entry,
  isDecoded,
  repeatedSequenceId,
  uint64FromJson,
  undecodable,
} from './entry'
import { JsonSyntaxError, parseJson } from './json'
import { looksLikePostgresCsv, PG_CSV_UPDATE_COLUMN, readPostgresCsvLog } from './pg-csv'
import { recordReader } from './record'
import './record-eager'
import { eachField, type FieldFault, type WireField } from './fields'
import { fieldFaultDetail, isValidUtf8, wireTypeMismatch } from './wire'

interface Attempt {
  readonly format: string
  readonly where: string
  readonly detail: string
}

type JsonObject = Record<string, unknown>

function isObject(v: unknown): v is JsonObject {
  return v !== null && typeof v === 'object' && !Array.isArray(v)
}

function has(o: JsonObject, k: string): boolean {
  return Object.hasOwn(o, k) && o[k] !== undefined
}

function errMsg(e: unknown): string {
  return e instanceof Error ? e.message : String(e)
}

// ---------------------------------------------------------------------------------------
// 1. Log bundle JSON

const BUNDLE = 'bundle-json'

/** The JSON path of a bundle's update `i`, made only for a message. */
function updatePath(i: number): string {
  return `$.updates[${i}]`
}

/**
 * Reads a parsed log bundle. Structure errors (not an object, no `updates` array, a
 * missing or invalid `sequence_id`, an entry with neither or both of `update_hex` and
 * `update_base64`, a non-string encoding) are LogInputErrors with the JSON path; text
 * that is not valid hex / base64, or bytes that fail IDENT-001, are error entries.
 * Unknown keys are ignored.
 * @throws LogInputError
 */
export function readBundleJson(json: unknown): InboxLog {
  if (!isObject(json)) throw new LogInputError(BUNDLE, '$', `expected a JSON object, found ${describeJson(json)}`)
  const inboxId = json.inbox_id
  if (inboxId !== undefined && inboxId !== null && typeof inboxId !== 'string') {
    throw new LogInputError(BUNDLE, '$.inbox_id', `expected a string, found ${describeJson(inboxId)}`)
  }
  const updates = json.updates
  if (!Array.isArray(updates)) {
    throw new LogInputError(
      BUNDLE,
      '$.updates',
      updates === undefined
        ? 'missing: a log bundle has an "updates" array'
        : `expected an array, found ${describeJson(updates)}`,
    )
  }
  const entries = updates.map((u, i): LogEntry => {
    if (!isObject(u)) throw new LogInputError(BUNDLE, updatePath(i), `expected an object, found ${describeJson(u)}`)
    if (!has(u, 'sequence_id')) throw new LogInputError(BUNDLE, `${updatePath(i)}.sequence_id`, 'missing')
    const seq = uint64FromJson(u.sequence_id)
    if (typeof seq !== 'bigint') throw new LogInputError(BUNDLE, `${updatePath(i)}.sequence_id`, seq.reason)
    const hasHex = has(u, 'update_hex')
    const hasB64 = has(u, 'update_base64')
    if (hasHex && hasB64)
      throw new LogInputError(BUNDLE, updatePath(i), 'has both update_hex and update_base64; give one')
    if (!hasHex && !hasB64) throw new LogInputError(BUNDLE, updatePath(i), 'has neither update_hex nor update_base64')
    const key = hasHex ? 'update_hex' : 'update_base64'
    const text = u[key]
    if (typeof text !== 'string')
      throw new LogInputError(BUNDLE, `${updatePath(i)}.${key}`, `expected a string, found ${describeJson(text)}`)
    let bytes: Uint8Array
    try {
      bytes = hasHex ? hexToBytes(text) : base64Bytes(text)
    } catch (e) {
      // Not an unreadable file: the update is rejected under IDENT-001 (cli.md, replay).
      return entry(
        seq,
        undecodable(`${updatePath(i)}.${key} is not valid ${hasHex ? 'hex' : 'base64'}: ${errMsg(e)}`, null),
      )
    }
    return entry(seq, decodeOrError(bytes))
  })
  const log: InboxLog =
    typeof inboxId === 'string' && inboxId !== '' ? { inboxId, entries, format: BUNDLE } : { entries, format: BUNDLE }
  assertUniqueSequenceIds(log, (i) => `$.updates[${i}]`)
  return log
}

// ---------------------------------------------------------------------------------------
// 2. Binary GetIdentityUpdatesResponse, walked field by field (./fields.ts) so update bytes are input slices

const GATEWAY_BIN = 'get-identity-updates-binary'

class ContainerError {
  constructor(
    readonly offset: number,
    readonly detail: string,
  ) {}
}

interface RawLog {
  readonly at: number
  sequenceId: bigint
  serverTimestampNs?: bigint
  readonly updates: Uint8Array[]
}

interface RawResponse {
  readonly at: number
  inboxId?: string
  readonly logs: RawLog[]
}

interface Container {
  readonly responses: RawResponse[]
  /** Unknown fields in the container messages (not inside updates). */
  unknownFields: number
}

/** The container's words for a fault of the shared field reader in the body of `what`. */
function containerFault(f: FieldFault, what: string): ContainerError {
  switch (f.kind) {
    case 'tag-truncated':
      return new ContainerError(f.at, `truncated: ${what} ends inside a field tag`)
    case 'tag-invalid':
      return new ContainerError(f.at, `invalid field tag in ${what} (${f.reason.replace(/^illegal tag: /, '')})`)
    default:
      return new ContainerError(f.at, `${what}: field ${f.no} ${fieldFaultDetail(f)}`)
  }
}

/** Calls `each` for the fields of one message body in wire order, framing checked strictly (groups refused). */
function fields(buf: Uint8Array, base: number, what: string, each: (f: WireField) => void): void {
  const fault = eachField(buf, base, each)
  if (fault) throw containerFault(fault, what)
}

function expectWt(f: WireField, wt: WireType, what: string, name: string): void {
  const mismatch = wireTypeMismatch(f, wt, what, name)
  if (mismatch) throw new ContainerError(f.at, mismatch)
}

// biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are what it looks for
const CONTROL = /[\u0000-\u001f\u007f]/

const utf8Fatal = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true })

/** Parses the container strictly; update bodies are kept as slices, not decoded. */
function parseContainer(bytes: Uint8Array): Container {
  const c: Container = { responses: [], unknownFields: 0 }
  fields(bytes, 0, 'GetIdentityUpdatesResponse', (f) => {
    if (f.no !== 1) {
      c.unknownFields++
      return
    }
    expectWt(f, WireType.LengthDelimited, 'GetIdentityUpdatesResponse', 'responses')
    if (f.wt !== WireType.LengthDelimited) return
    const ri = c.responses.length
    const resp: RawResponse = { at: f.at, logs: [] }
    const rWhat = `responses[${ri}]`
    fields(f.body, f.bodyAt, rWhat, (g) => {
      if (g.no === 1) {
        expectWt(g, WireType.LengthDelimited, rWhat, 'inbox_id')
        if (g.wt !== WireType.LengthDelimited) return
        if (!isValidUtf8(g.body)) throw new ContainerError(g.at, `${rWhat}: field 1 (inbox_id) is not valid UTF-8`)
        resp.inboxId = utf8Fatal.decode(g.body)
      } else if (g.no === 2) {
        expectWt(g, WireType.LengthDelimited, rWhat, 'updates')
        if (g.wt !== WireType.LengthDelimited) return
        const lWhat = `${rWhat}.updates[${resp.logs.length}]`
        const log: RawLog = { at: g.at, sequenceId: 0n, updates: [] }
        fields(g.body, g.bodyAt, lWhat, (h) => {
          if (h.no === 1) {
            expectWt(h, WireType.Varint, lWhat, 'sequence_id')
            if (h.wt === WireType.Varint) log.sequenceId = h.value
          } else if (h.no === 2) {
            expectWt(h, WireType.Varint, lWhat, 'server_timestamp_ns')
            if (h.wt === WireType.Varint) log.serverTimestampNs = h.value
          } else if (h.no === 3) {
            expectWt(h, WireType.LengthDelimited, lWhat, 'update')
            if (h.wt === WireType.LengthDelimited) log.updates.push(h.body)
          } else c.unknownFields++
        })
        resp.logs.push(log)
      } else c.unknownFields++
    })
    c.responses.push(resp)
  })
  return c
}

/** The bytes of one IdentityUpdateLog's update, not decoded; or its IDENT-001 entry when it carries none or several. */
function rawUpdate(l: RawLog, ri: number, li: number): Uint8Array | UndecodableUpdate {
  if (l.updates.length === 1) return l.updates[0]!
  const where = `responses[${ri}].updates[${li}]`
  if (l.updates.length === 0) return undecodable(`${where} has no update (field 3)`, null)
  // protobuf would merge the occurrences; which bytes were signed is then unclear.
  const total = l.updates.reduce((n, u) => n + u.length, 0)
  const joined = new Uint8Array(total)
  let o = 0
  for (const u of l.updates) {
    joined.set(u, o)
    o += u.length
  }
  return undecodable(
    `${where} carries field 3 (update) ${l.updates.length} times; expected one IdentityUpdate`,
    null,
    joined,
  )
}

function containerLogs(c: Container): InboxLog[] {
  return c.responses.map((r, ri) => {
    const entries = r.logs.map((l, li): LogEntry => {
      const raw = rawUpdate(l, ri, li)
      return entry(l.sequenceId, raw instanceof Uint8Array ? decodeOrError(raw) : raw, l.serverTimestampNs)
    })
    const log: InboxLog = r.inboxId
      ? { inboxId: r.inboxId, entries, format: GATEWAY_BIN }
      : { entries, format: GATEWAY_BIN }
    assertUniqueSequenceIds(log, (i) => `byte ${r.logs[i]!.at}`)
    return log
  })
}

/**
 * Reads binary GetIdentityUpdatesResponse bytes (format known; no plausibility test):
 * one InboxLog per Response in file order; each update's bytes are the exact slice of
 * the input. An update that fails decoding is an error entry.
 * @throws LogInputError naming the byte offset when the container is not well-formed
 */
export function readGetIdentityUpdatesResponse(bytes: Uint8Array): InboxLog[] {
  let c: Container
  try {
    c = parseContainer(bytes)
  } catch (e) {
    if (e instanceof ContainerError) throw new LogInputError(GATEWAY_BIN, `byte ${e.offset}`, e.detail)
    throw e
  }
  return containerLogs(c)
}

// ---------------------------------------------------------------------------------------
// 3. proto3 JSON GetIdentityUpdatesResponse

const GATEWAY_JSON = 'get-identity-updates-json'

/** The value of a field given in either JSON spelling; both at once is an error. */
function pick(o: JsonObject, path: string, camel: string, snake?: string): unknown {
  const a = has(o, camel) ? o[camel] : undefined
  const b = snake !== undefined && has(o, snake) ? o[snake] : undefined
  if (a !== undefined && b !== undefined) {
    throw new LogInputError(GATEWAY_JSON, path, `has both "${camel}" and "${snake}"; give one`)
  }
  return a ?? b
}

/**
 * Reads a parsed proto3 JSON GetIdentityUpdatesResponse: camelCase or snake_case keys,
 * uint64 as a string or a safe number, null as the default value. Each update is
 * decoded with decodeUpdateFromJson (its bytes are the canonical encoding); one that
 * fails is an error entry. A missing sequence id is 0, as proto3 omits defaults.
 * @throws LogInputError with the JSON path for a malformed container
 */
export function readGatewayJson(json: unknown): InboxLog[] {
  const F = GATEWAY_JSON
  if (!isObject(json)) throw new LogInputError(F, '$', `expected a JSON object, found ${describeJson(json)}`)
  const responses = pick(json, '$', 'responses') ?? []
  if (!Array.isArray(responses))
    throw new LogInputError(F, '$.responses', `expected an array, found ${describeJson(responses)}`)
  return responses.map((r, ri) => {
    const rp = `$.responses[${ri}]`
    if (!isObject(r)) throw new LogInputError(F, rp, `expected an object, found ${describeJson(r)}`)
    const inboxId = pick(r, rp, 'inboxId', 'inbox_id') ?? ''
    if (typeof inboxId !== 'string')
      throw new LogInputError(F, `${rp}.inboxId`, `expected a string, found ${describeJson(inboxId)}`)
    const updates = pick(r, rp, 'updates') ?? []
    if (!Array.isArray(updates))
      throw new LogInputError(F, `${rp}.updates`, `expected an array, found ${describeJson(updates)}`)
    const entries = updates.map((l, li): LogEntry => {
      const lp = `${rp}.updates[${li}]`
      if (!isObject(l)) throw new LogInputError(F, lp, `expected an object, found ${describeJson(l)}`)
      const seqV = pick(l, lp, 'sequenceId', 'sequence_id')
      const seq = seqV === undefined || seqV === null ? 0n : uint64FromJson(seqV)
      if (typeof seq !== 'bigint') throw new LogInputError(F, `${lp}.sequenceId`, seq.reason)
      const tsV = pick(l, lp, 'serverTimestampNs', 'server_timestamp_ns')
      const ts = tsV === undefined || tsV === null ? undefined : uint64FromJson(tsV)
      if (ts !== undefined && typeof ts !== 'bigint') throw new LogInputError(F, `${lp}.serverTimestampNs`, ts.reason)
      const u = pick(l, lp, 'update')
      let update: LogEntry['update']
      if (u === undefined || u === null) update = undecodable(`${lp} has no update`, null)
      else {
        try {
          update = recordReader().decodeUpdateFromJson(u, `${lp}.update`)
        } catch (e) {
          if (!(e instanceof RuleViolation)) throw e
          update = undecodable(e.message, e.actionIndex)
        }
      }
      return entry(seq, update, ts)
    })
    const log: InboxLog = inboxId !== '' ? { inboxId, entries, format: F } : { entries, format: F }
    assertUniqueSequenceIds(log, (i) => `${rp}.updates[${i}]`)
    return log
  })
}

// ---------------------------------------------------------------------------------------
// 4. A single IdentityUpdate

/** One InboxLog with one entry, sequence id 1; an IDENT-001 failure is an error entry. */
export function readSingleUpdate(bytes: Uint8Array): InboxLog {
  return { entries: [entry(1n, decodeOrError(bytes))], format: 'single-update' }
}

function readSingleUpdateJson(json: JsonObject): InboxLog {
  let update: LogEntry['update']
  try {
    update = recordReader().decodeUpdateFromJson(json, '$')
  } catch (e) {
    if (!(e instanceof RuleViolation)) throw e
    update = undecodable(e.message, e.actionIndex)
  }
  return { entries: [entry(1n, update)], format: 'single-update' }
}

// ---------------------------------------------------------------------------------------
// Detection

interface Reading {
  readonly tier: number
  readonly logs: () => InboxLog[]
}

/**
 * The first Response that names no plausible inbox, or -1. A gateway names every inbox, and
 * an inbox id is printable text. (An IdentityUpdate read as a response puts a CreateInbox
 * where inbox_id is: its field tags 0x0a, 0x10 and 0x1a, small varints and short lengths
 * are all below 0x20.)
 */
function unnamedResponse(c: Container): number {
  return c.responses.findIndex((r) => !r.inboxId || CONTROL.test(r.inboxId))
}

/** The response reading of `bytes` with its tier, or why it is not one. */
function responseReading(bytes: Uint8Array): Reading | Attempt {
  let c: Container
  try {
    c = parseContainer(bytes)
  } catch (e) {
    if (e instanceof ContainerError) return { format: GATEWAY_BIN, where: `byte ${e.offset}`, detail: e.detail }
    throw e
  }
  if (c.responses.length === 0) {
    return { format: GATEWAY_BIN, where: 'byte 0', detail: 'no Response (field 1): only unknown fields' }
  }
  const unnamed = unnamedResponse(c)
  if (unnamed >= 0) {
    return {
      format: GATEWAY_BIN,
      where: `byte ${c.responses[unnamed]!.at}`,
      detail: c.responses[unnamed]!.inboxId
        ? `responses[${unnamed}].inbox_id holds control characters, so this is not a plausible gateway response`
        : `responses[${unnamed}] has no inbox_id (field 1), so this is not a plausible gateway response`,
    }
  }
  let logs: InboxLog[]
  try {
    logs = containerLogs(c)
  } catch (e) {
    // A repeated sequence id: still a response, but an unreadable one.
    if (e instanceof LogInputError)
      return {
        tier: 2,
        logs: () => {
          throw e
        },
      }
    throw e
  }
  const decoded = logs.some((l) => l.entries.some((e) => isDecoded(e.update)))
  return { tier: decoded ? 1 : c.unknownFields === 0 ? 2 : 4, logs: () => logs }
}

/** One update of a binary response as framed: its bytes, not decoded, or the IDENT-001 entry of a framing fault. */
export interface FramedEntry {
  readonly sequenceId: bigint
  readonly serverTimestampNs?: bigint
  readonly update: Uint8Array | UndecodableUpdate
}

/** One Response of a binary GetIdentityUpdatesResponse, its updates framed, not decoded. */
export interface FramedLog {
  readonly inboxId: string
  readonly entries: readonly FramedEntry[]
}

/**
 * The logs `readLogs` reads from `bytes` when they are a binary GetIdentityUpdatesResponse
 * (format 2 as raw bytes, the reading it picks), each update's bytes left undecoded, so a
 * caller that decodes them elsewhere (the audit's worker threads) does not decode them
 * twice; decoding each with `decodeOrError` gives readLogs' entries exactly. Null when
 * readLogs would read the bytes any other way or refuse them: text (UTF-8), a container
 * that does not parse strictly or names no plausible inbox, a repeated sequence id, or no
 * update that decodes (a lower tier, where a single-update reading may win); the caller
 * then reads them with readLogs.
 */
export function readResponseFrames(bytes: Uint8Array): FramedLog[] | null {
  if (bytes.length === 0 || isValidUtf8(bytes)) return null
  let c: Container
  try {
    c = parseContainer(bytes)
  } catch (e) {
    if (e instanceof ContainerError) return null
    throw e
  }
  if (c.responses.length === 0 || unnamedResponse(c) >= 0) return null
  const logs = c.responses.map(
    (r, ri): FramedLog => ({
      inboxId: r.inboxId!,
      entries: r.logs.map((l, li) => ({
        sequenceId: l.sequenceId,
        ...(l.serverTimestampNs === undefined ? {} : { serverTimestampNs: l.serverTimestampNs }),
        update: rawUpdate(l, ri, li),
      })),
    }),
  )
  if (logs.some((l) => repeatedSequenceId(l.entries) !== null)) return null
  // Tier 1: at least one update decodes (usually the first tried).
  const decodes = (e: FramedEntry) => e.update instanceof Uint8Array && isDecoded(decodeOrError(e.update))
  return logs.some((l) => l.entries.some(decodes)) ? logs : null
}

/** The single-update reading of `bytes` with its tier, or why it is not one. */
function singleReading(bytes: Uint8Array): Reading | Attempt {
  const problem = recordReader().checkUpdateWire(bytes)
  if (problem) {
    return {
      format: 'single-update',
      where: `byte ${problem.offset}`,
      detail: `${problem.path ? `${problem.path}: ` : ''}${problem.detail}`,
    }
  }
  // Decoded once: the reading keeps the entry (or its IDENT-001 error) it found.
  const log = readSingleUpdate(bytes)
  const u = log.entries[0]!.update
  if (isDecoded(u)) return { tier: 1, logs: () => [log] }
  if (recordReader().holdsNoUpdateField(bytes)) {
    return {
      format: 'single-update',
      where: 'byte 0',
      detail: 'no IdentityUpdate field present: only unknown fields',
    }
  }
  return { tier: 3, logs: () => [log] }
}

function isReading(r: Reading | Attempt): r is Reading {
  return 'tier' in r
}

const utf8Text = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true })

function stripText(s: string): string {
  return (s.startsWith('\uFEFF') ? s.slice(1) : s).trim()
}

/** A parsed JSON value as a log, or why it is not one (thrown when it is clearly a broken one). */
function readJsonValue(json: unknown): InboxLog[] | Attempt {
  if (!isObject(json)) {
    return { format: 'json', where: '$', detail: `parses as JSON but is ${describeJson(json)}, not an object` }
  }
  const bundle = has(json, 'updates')
  const gateway = has(json, 'responses')
  if (bundle && gateway) {
    throw new LogInputError(
      'json',
      '$',
      'has both "updates" (a log bundle) and "responses" (a GetIdentityUpdatesResponse)',
    )
  }
  if (bundle) return [readBundleJson(json)]
  if (gateway) return readGatewayJson(json)
  if (has(json, 'actions')) return [readSingleUpdateJson(json)]
  return {
    format: 'json',
    where: '$',
    detail:
      'a JSON object with neither "updates" (a log bundle) nor "responses" (a GetIdentityUpdatesResponse) nor "actions" (an IdentityUpdate)',
  }
}

/**
 * Reads a log file of any supported format, detected from its content (see the module
 * header for the order and the tie-breaking between a response and a single update).
 * `name` (a file name) is only used in the message of the error that lists the attempts.
 * @throws LogInputError: 'empty input'; a file error of the detected format; or, when no
 *   format fits, one whose `attempts` lists each format tried and why it failed
 */
export function readLogs(input: Uint8Array | string, name?: string): InboxLog[] {
  const label = name ?? 'input'
  const attempts: Attempt[] = []
  let text: string | null
  if (typeof input === 'string') text = stripText(input)
  else {
    try {
      text = stripText(utf8Text.decode(input))
    } catch {
      text = null
      attempts.push({ format: 'text', where: '', detail: 'not UTF-8 text, so not JSON, CSV, hex or base64' })
    }
  }
  // Whitespace-only bytes are no protobuf of these messages either (0x20 is an unknown
  // varint field, 0x09 / 0x0d a wrong wire type for field 1, 0x0a a truncated length).
  if (text === '' || (typeof input !== 'string' && input.length === 0))
    throw new LogInputError('auto', '', 'empty input')

  if (text !== null) {
    // JSON first: text that parses as a JSON object is JSON and nothing else.
    let json: unknown
    let parsed = false
    try {
      json = parseJson(text)
      parsed = true
    } catch (e) {
      if (!(e instanceof JsonSyntaxError)) throw e
      attempts.push({ format: 'json', where: `line ${e.line} column ${e.column}`, detail: e.detail })
    }
    if (parsed) {
      const r = readJsonValue(json)
      if (Array.isArray(r)) return r
      attempts.push(r)
    }
    if (looksLikePostgresCsv(text)) return readPostgresCsvLog(text)
    attempts.push({
      format: 'postgres-csv',
      where: 'line 1',
      detail: `the first line is not a CSV header naming ${PG_CSV_UPDATE_COLUMN}`,
    })
  }

  // Each candidate's bytes are made when it is read and dropped after (issue #14, finding 2):
  // base64 text is checked now, so the attempts keep their order, and decoded only when the
  // hex reading found no update; hex bytes no reading kept are not held while base64 is read.
  const candidates: { source: string; bytes: () => Uint8Array }[] = []
  if (text !== null) {
    const compact = /\s/.test(text) ? text.replace(/\s+/g, '') : text
    try {
      let hex: Uint8Array | null = hexToBytes(compact)
      candidates.push({
        source: 'hex',
        bytes: () => {
          const b = hex!
          hex = null
          return b
        },
      })
    } catch (e) {
      attempts.push({ format: 'hex', where: '', detail: errMsg(e) })
    }
    try {
      candidates.push({ source: 'base64', bytes: base64Later(compact) })
    } catch (e) {
      attempts.push({ format: 'base64', where: '', detail: errMsg(e) })
    }
  }
  // Picked from the content (issue #14, finding 2): UTF-8 text that decodes as hex or
  // base64 is that text, never also raw protobuf. A binary IdentityUpdate or response made
  // only of hex or base64 characters would need every tag, length and signature byte to be
  // one; read as raw bytes, such text is instead a long run of tiny unknown fields.
  if (typeof input !== 'string') {
    if (candidates.length === 0) candidates.push({ source: 'binary', bytes: () => input })
    else attempts.push({ format: 'binary', where: '', detail: 'not tried: the input is hex or base64 text' })
  }

  let best: Reading | null = null
  for (const c of candidates) {
    const bytes = c.bytes()
    if (bytes.length === 0) {
      attempts.push({ format: c.source, where: '', detail: 'decodes to zero bytes' })
      continue
    }
    const prefix = c.source === 'binary' ? '' : `${c.source} → `
    for (const read of [responseReading, singleReading]) {
      const r = read(bytes)
      if (isReading(r)) {
        if (best === null || r.tier < best.tier) best = r
        // A tier-1 reading is the best there is, and the two readings never both reach
        // tier 1 (header): the single-update reading is not tried after a tier-1 response.
        if (r.tier === 1) break
      } else attempts.push({ ...r, format: prefix + r.format })
    }
    if (best?.tier === 1) break
  }
  if (best) return best.logs()
  throw new LogInputError('auto', '', `${label} is not a log in any supported format`, attempts)
}
