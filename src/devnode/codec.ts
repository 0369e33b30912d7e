/**
 * The node's request and response encodings (../shared/contracts/cli.md, "The local
 * node"): binary protobuf or proto3 JSON (lowerCamelCase out, both spellings in).
 *
 * A publish's update is never re-encoded: in binary, the IdentityUpdate is the exact
 * slice of field 1 of the PublishIdentityUpdateRequest (read with BinaryReader, copied
 * out of the request buffer); in JSON, which carries no bytes, it is the canonical
 * encoding of the parsed message (decodeUpdateFromJson). Other requests are checked by
 * the strict wire pass before `fromBinary` (protobuf-es does not check wire types), and
 * JSON is read with the project's exact-integer reader (no silent rounding above 2^53).
 */
import { fromBinary, fromJson, type DescMessage, type JsonValue, type MessageShape } from '@bufbuild/protobuf'
import { BinaryReader, WireType } from '@bufbuild/protobuf/wire'
import { JsonBigInt, parseJson } from '../core/decode/json'
import { decodeUpdate, decodeUpdateFromJson } from '../core/decode/update'
import { checkWire, wireTypeName } from '../core/decode/wire'
import { RuleViolation } from '../core/errors'
import type { UnverifiedUpdate } from '../core/types'
import { ApiError } from './errors'

export type Encoding = 'binary' | 'json'

const fatalUtf8 = new TextDecoder('utf-8', { fatal: true })
const messageOf = (e: unknown): string => (e instanceof Error ? e.message : String(e))

const malformed = (what: string, detail: string): ApiError =>
  new ApiError(400, 'malformed_request', `the body is not a ${what}: ${detail}`)

/** The request body as JSON (strict: duplicate keys refused, big integers exact). */
function readJsonBody(body: Uint8Array, what: string): unknown {
  let text: string
  try {
    text = fatalUtf8.decode(body)
  } catch {
    throw malformed(what, 'the JSON body is not UTF-8')
  }
  try {
    return parseJson(text)
  } catch (e) {
    throw malformed(what, `not JSON: ${messageOf(e)}`)
  }
}

/** An exact big integer becomes its decimal string (proto3 JSON accepts that for 64-bit fields). */
function plainJson(v: unknown): JsonValue {
  if (v instanceof JsonBigInt) return v.text
  if (Array.isArray(v)) return v.map(plainJson)
  if (v !== null && typeof v === 'object') {
    const out: Record<string, JsonValue> = {}
    for (const [k, x] of Object.entries(v))
      Object.defineProperty(out, k, { value: plainJson(x), enumerable: true, writable: true, configurable: true })
    return out
  }
  return v as JsonValue
}

/** Decodes a request message (not a publish) in either encoding. @throws ApiError 400 */
export function decodeRequest<D extends DescMessage>(schema: D, enc: Encoding, body: Uint8Array): MessageShape<D> {
  const what = schema.name
  if (enc === 'binary') {
    const problem = checkWire(schema, body)
    if (problem) throw malformed(what, problem.message)
    try {
      return fromBinary(schema, body)
    } catch (e) {
      throw malformed(what, messageOf(e))
    }
  }
  const json = readJsonBody(body, what)
  try {
    return fromJson(schema, plainJson(json))
  } catch (e) {
    throw malformed(what, messageOf(e))
  }
}

/**
 * The exact bytes of field 1 (identity_update) of a binary PublishIdentityUpdateRequest,
 * copied. Unknown fields are skipped; field 1 twice is refused (protobuf would merge the
 * two, and which bytes were signed would be unclear).
 * @throws ApiError 400
 */
export function publishedUpdateBytes(body: Uint8Array): Uint8Array {
  const what = 'PublishIdentityUpdateRequest'
  const r = new BinaryReader(body)
  let found: Uint8Array | null = null
  try {
    while (r.pos < r.len) {
      const at = r.pos
      const [no, wt] = r.tag()
      if (no === 1) {
        if (wt !== WireType.LengthDelimited)
          throw malformed(
            what,
            `field 1 (identity_update) has wire type ${wireTypeName(wt)}, expected length-delimited, at byte ${at}`,
          )
        if (found)
          throw malformed(what, `field 1 (identity_update) appears twice, at byte ${at}; expected one IdentityUpdate`)
        found = r.bytes()
      } else {
        if (wt === WireType.StartGroup || wt === WireType.EndGroup)
          throw malformed(what, `field ${no} has the group wire type ${wireTypeName(wt)}, at byte ${at}`)
        r.skip(wt, no)
      }
    }
  } catch (e) {
    if (e instanceof ApiError) throw e
    throw malformed(what, `${messageOf(e)} (the protobuf is truncated or not protobuf)`)
  }
  if (!found) throw malformed(what, 'it has no identity_update (field 1)')
  return found.slice()
}

/** IDENT-001 as the publish's 400. */
function undecodable(e: RuleViolation): ApiError {
  const where = e.actionIndex === null ? '' : ` (action ${e.actionIndex})`
  return new ApiError(
    400,
    'malformed_update',
    `the identity update cannot be decoded${where}: ${e.message}`,
    'IDENT-001',
  )
}

/** The update a publish request carries, decoded under IDENT-001. @throws ApiError 400 */
export function decodePublish(enc: Encoding, body: Uint8Array): UnverifiedUpdate {
  if (enc === 'binary') {
    const bytes = publishedUpdateBytes(body)
    try {
      return decodeUpdate(bytes)
    } catch (e) {
      if (e instanceof RuleViolation) throw undecodable(e)
      throw e
    }
  }
  const what = 'PublishIdentityUpdateRequest'
  const json = readJsonBody(body, what)
  if (json === null || typeof json !== 'object' || Array.isArray(json)) throw malformed(what, 'expected a JSON object')
  const o = json as Record<string, unknown>
  const unknown = Object.keys(o).filter((k) => k !== 'identityUpdate' && k !== 'identity_update')
  if (unknown.length > 0) throw malformed(what, `unknown key ${JSON.stringify(unknown[0])}; expected "identityUpdate"`)
  if ('identityUpdate' in o && 'identity_update' in o)
    throw malformed(what, 'it has both "identityUpdate" and "identity_update"; give one')
  const key = 'identityUpdate' in o ? 'identityUpdate' : 'identity_update'
  const value = o[key]
  if (value === undefined || value === null) throw malformed(what, 'it has no identityUpdate')
  try {
    return decodeUpdateFromJson(value, `$.${key}`)
  } catch (e) {
    if (e instanceof RuleViolation) throw undecodable(e)
    throw e
  }
}
