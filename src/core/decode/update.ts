/**
 * IdentityUpdate bytes (or proto3 JSON) in, `UnverifiedUpdate` out: spec section 1 and
 * the IDENT-001 wire format rule.
 *
 * IDENT-001: a validator accepts an identity update only as the IdentityUpdate defined
 * in the spec, with the field numbers and types shown, and rejects one whose actions is
 * empty or in which any action's kind, any MemberIdentifier's kind, or any Signature's
 * signature is unset or a field the definition does not list. Every failure here is a
 * `RuleViolation('IDENT-001', actionIndex, message)`:
 * - wire type, truncation and UTF-8 failures (the strict pass in ./wire.ts), with the
 *   action index when the failure is inside the body of `actions[i]`, else null;
 * - an empty `actions` (null);
 * - an action whose kind is unset, also when it holds only unknown fields (its index);
 * - a MemberIdentifier whose kind is unset, or that is missing (its action's index);
 * - a Signature whose signature is unset or missing (its action's index), including a
 *   Signature holding only the retired legacy delegated signature, field 4 (spec section
 *   4: "a Signature holding only field 4 has signature unset and is rejected"). Field 4
 *   beside a listed signature field is an unknown field and is ignored.
 *
 * Not checked here, on purpose: the identifier kinds (IDENT-077, kept as numbers), the
 * Ethereum identifier form (IDENT-013, kept as carried), lengths of keys and signatures
 * (section 4 verification), the handle grammar (IDENT-078).
 *
 * The update keeps the exact input bytes (`bytesSource: 'input'`); they are never
 * re-encoded (protobuf re-encoding is not canonical). A proto3 JSON update carries no
 * bytes: there the bytes are the canonical `toBinary` encoding (`'canonical-encoding'`).
 */
import { fromBinary, fromJson, ScalarType, toBinary } from '@bufbuild/protobuf'
import type { DescField, DescMessage, UnknownField } from '@bufbuild/protobuf'
import {
  IdentityActionSchema,
  IdentityUpdateSchema,
  type IdentityAction,
  type IdentityUpdate,
  type MemberIdentifier,
} from '../../gen/identity/associations/association_pb'
import type { Signature } from '../../gen/identity/associations/signature_pb'
import { RuleViolation } from '../errors'
import type { UnverifiedUpdate, WireAction, WireMemberIdentifier, WireSignature } from '../types'
import { bounded } from '../text/quote'
import { checkWire, checkWireCounted } from './wire'
import { shared } from './intern'
import { provideRecordReader } from './record'
import { JsonBigInt } from './json'

function violation(actionIndex: number | null, message: string): RuleViolation {
  // IDENT-001: the update is not the IdentityUpdate the spec defines.
  return new RuleViolation('IDENT-001', actionIndex, message)
}

/**
 * Unknown fields are materialised by `fromBinary` only when the update carries at most
 * this many (issue #14, finding 2: a megabyte of one-byte unknown fields made hundreds of
 * thousands of objects). Above it they are skipped and counted by the strict pass, and a
 * message that would list their numbers says how many the update carries instead.
 */
export const UNKNOWN_FIELDS_READ = 1024
/** How many field numbers a message lists at most. */
const LISTED_NUMBERS = 8

/** The unknown fields of the update being decoded, when `fromBinary` did not keep them. */
let skippedUnknown: number | null = null

function unknownNumbers(u: readonly UnknownField[] | undefined): number[] | null {
  if (skippedUnknown !== null) return null
  return [...new Set((u ?? []).map((f) => f.no))].sort((a, b) => a - b)
}

function fieldList(nos: number[]): string {
  if (nos.length === 1) return `field ${nos[0]}`
  const shown = nos.slice(0, LISTED_NUMBERS).join(', ')
  return `fields ${shown}${nos.length > LISTED_NUMBERS ? ` and ${nos.length - LISTED_NUMBERS} more` : ''}`
}

/** "the X holds only unknown …" when the numbers were not read (see UNKNOWN_FIELDS_READ). */
function notListed(): string {
  return `fields (numbers not listed: the update carries ${skippedUnknown} unknown fields)`
}

/** What a message whose oneof `kind` is unset holds: only unknown fields (listed when read), or nothing. */
function unsetKindFound(message: string, unknown: readonly UnknownField[] | undefined): string {
  const nos = unknownNumbers(unknown)
  if (nos === null) return `the ${message} holds only unknown ${notListed()}`
  return nos.length > 0 ? `the ${message} holds only unknown ${fieldList(nos)}` : `empty ${message}`
}

/** IDENT-001: a Signature whose signature is unset (or missing) rejects the update. */
function mapSignature(sig: Signature | undefined, path: string, i: number): WireSignature {
  if (sig === undefined) {
    throw violation(
      i,
      `${path} is missing: expected a Signature with one of erc_191, erc_6492, installation_key, passkey`,
    )
  }
  const s = sig.signature
  switch (s.case) {
    case 'erc191':
      return { kind: 'erc_191', bytes: s.value.bytes }
    case 'erc6492':
      return {
        kind: 'erc_6492',
        accountId: s.value.accountId,
        blockNumber: s.value.blockNumber,
        signature: s.value.signature,
      }
    case 'installationKey':
      return { kind: 'installation_key', bytes: s.value.bytes, publicKey: s.value.publicKey }
    case 'passkey':
      return {
        kind: 'passkey',
        publicKey: s.value.publicKey,
        signature: s.value.signature,
        authenticatorData: s.value.authenticatorData,
        clientDataJson: s.value.clientDataJson,
      }
    case undefined: {
      const expected = 'expected one of erc_191 (1), erc_6492 (2), installation_key (3), passkey (5)'
      const read = unknownNumbers(sig.$unknown)
      if (read === null)
        throw violation(i, `${path}: signature is unset: the Signature holds only unknown ${notListed()}; ${expected}`)
      const nos = read
      if (nos.length === 1 && nos[0] === 4) {
        throw violation(
          i,
          `${path}: signature is unset: the Signature holds only the retired legacy delegated signature (field 4); ${expected}`,
        )
      }
      if (nos.includes(4)) {
        const others = nos.filter((n) => n !== 4)
        throw violation(
          i,
          `${path}: signature is unset: the Signature holds only the retired legacy delegated signature (field 4) and unknown ${fieldList(others)}; ${expected}`,
        )
      }
      if (nos.length > 0) {
        throw violation(
          i,
          `${path}: signature is unset: the Signature holds only unknown ${fieldList(nos)}; ${expected}`,
        )
      }
      throw violation(i, `${path}: signature is unset (empty Signature); ${expected}`)
    }
  }
}

/** IDENT-001: a MemberIdentifier whose kind is unset (or missing) rejects the update. */
function mapMember(m: MemberIdentifier | undefined, path: string, i: number): WireMemberIdentifier {
  const expected = 'expected one of ethereum_address (1), installation_public_key (2), passkey (3)'
  if (m === undefined) throw violation(i, `${path} is missing: ${expected}`)
  const k = m.kind
  switch (k.case) {
    case 'ethereumAddress':
      // Kept as carried: IDENT-013 checks the form.
      return { kind: 'ethereum', address: shared(k.value) }
    case 'installationPublicKey':
      return { kind: 'installation', key: k.value }
    case 'passkey':
      return k.value.relyingParty === undefined
        ? { kind: 'passkey', key: k.value.key }
        : { kind: 'passkey', key: k.value.key, relyingParty: k.value.relyingParty }
    case undefined:
      throw violation(i, `${path}: kind is unset (${unsetKindFound('MemberIdentifier', m.$unknown)}); ${expected}`)
  }
}

function withRelyingParty<T extends object>(o: T, rp: string | undefined): T & { relyingParty?: string } {
  return rp === undefined ? o : { ...o, relyingParty: rp }
}

/** IDENT-001: an action whose kind is unset rejects the update. */
function mapAction(a: IdentityAction, i: number): WireAction {
  const p = `actions[${i}]`
  // The signature and member at `field` of this action.
  const sig = (s: Parameters<typeof mapSignature>[0], field: string) => mapSignature(s, `${p}.${field}`, i)
  const member = (m: Parameters<typeof mapMember>[0], field: string) => mapMember(m, `${p}.${field}`, i)
  const k = a.kind
  switch (k.case) {
    case 'createInbox': {
      const v = k.value
      return withRelyingParty(
        {
          kind: 'create_inbox' as const,
          initialIdentifier: shared(v.initialIdentifier),
          nonce: v.nonce,
          // Kept as a number: the enum is open on the wire, IDENT-077 checks it.
          initialIdentifierKind: v.initialIdentifierKind as number,
          initialIdentifierSignature: sig(v.initialIdentifierSignature, 'create_inbox.initial_identifier_signature'),
        },
        v.relyingParty,
      )
    }
    case 'add': {
      const v = k.value
      const newMemberIdentifier = member(v.newMemberIdentifier, 'add.new_member_identifier')
      const existingMemberSignature = sig(v.existingMemberSignature, 'add.existing_member_signature')
      const newMemberSignature = sig(v.newMemberSignature, 'add.new_member_signature')
      return withRelyingParty(
        { kind: 'add' as const, newMemberIdentifier, existingMemberSignature, newMemberSignature },
        v.relyingParty,
      )
    }
    case 'revoke': {
      const v = k.value
      const memberToRevoke = member(v.memberToRevoke, 'revoke.member_to_revoke')
      const recoveryIdentifierSignature = sig(v.recoveryIdentifierSignature, 'revoke.recovery_identifier_signature')
      return { kind: 'revoke', memberToRevoke, recoveryIdentifierSignature }
    }
    case 'changeRecoveryAddress': {
      const v = k.value
      return withRelyingParty(
        {
          kind: 'change_recovery_address' as const,
          newRecoveryIdentifier: shared(v.newRecoveryIdentifier),
          // Kept as a number: IDENT-077 checks it.
          newRecoveryIdentifierKind: v.newRecoveryIdentifierKind as number,
          existingRecoveryIdentifierSignature: sig(
            v.existingRecoveryIdentifierSignature,
            'change_recovery_address.existing_recovery_identifier_signature',
          ),
        },
        v.relyingParty,
      )
    }
    case 'claimHandle': {
      const v = k.value
      return {
        kind: 'claim_handle',
        handle: shared(v.handle),
        signature: sig(v.signature, 'claim_handle.signature'),
      }
    }
    case undefined:
      throw violation(
        i,
        `${p}: kind is unset (${unsetKindFound('IdentityAction', a.$unknown)}); expected one of create_inbox (1), add (2), revoke (3), change_recovery_address (4), claim_handle (5)`,
      )
  }
}

/** The IDENT-001 checks on a parsed message, and the mapping to domain types. */
function toDomain(
  msg: IdentityUpdate,
  bytes: Uint8Array,
  bytesSource: UnverifiedUpdate['bytesSource'],
): UnverifiedUpdate {
  // IDENT-001: an update with no actions is rejected (it would pass every signature rule).
  if (msg.actions.length === 0) throw violation(null, 'update has no actions: expected at least one IdentityAction')
  const actions = msg.actions.map(mapAction)
  return { inboxId: shared(msg.inboxId), clientTimestampNs: msg.clientTimestampNs, actions, bytes, bytesSource }
}

// decodeUpdate (the one-pass reader, then decodeUpdateOfRecord) lives in ./record.ts, which
// needs no protobuf runtime; it is exported here too for the callers that import it from here.
export { decodeUpdate } from './record'

/**
 * decodeUpdate without the one-pass reader of the common form (./direct.ts): the strict
 * wire pass, `fromBinary` and the IDENT-001 checks, for every input. Exported for the
 * tests that hold the two to the same result.
 * @throws RuleViolation('IDENT-001', actionIndex | null, message)
 */
export function decodeUpdateOfRecord(bytes: Uint8Array): UnverifiedUpdate {
  // IDENT-001: the field numbers and types shown. protobuf-es does not check wire types.
  const { problem, unknownFields } = checkWireCounted(IdentityUpdateSchema, bytes)
  if (problem) {
    const first = problem.segments[0]
    const inAction = first !== undefined && first.name === 'actions' && first.index !== undefined
    throw violation(inAction ? first.index! : null, problem.message)
  }
  let msg: IdentityUpdate
  const readUnknownFields = unknownFields <= UNKNOWN_FIELDS_READ
  try {
    msg = fromBinary(IdentityUpdateSchema, bytes, { readUnknownFields })
  } catch (e) {
    // Not expected after the strict pass; kept so no library error escapes.
    throw violation(null, `not an IdentityUpdate: ${e instanceof Error ? e.message : String(e)}`)
  }
  skippedUnknown = readUnknownFields ? null : unknownFields
  try {
    return toDomain(msg, bytes, 'input')
  } finally {
    skippedUnknown = null
  }
}

const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/

const INT64_TYPES: ReadonlySet<ScalarType> = new Set([
  ScalarType.INT64,
  ScalarType.UINT64,
  ScalarType.SINT64,
  ScalarType.FIXED64,
  ScalarType.SFIXED64,
])

function fieldForKey(desc: DescMessage, key: string): DescField | undefined {
  return desc.fields.find((f) => f.jsonName === key || f.name === key)
}

/**
 * Prepares a JSON value for `fromJson`, guided by the schema:
 * - an integer beyond 2^53 that ./json.ts kept exactly (JsonBigInt) becomes its decimal
 *   string in a 64-bit integer field (proto3 JSON accepts strings there) and a JS number
 *   anywhere else, where fromJson then refuses it as it would the number;
 * - a JS number that is an integer but not a safe one (JSON.parse already rounded it) is
 *   refused: a rounded nonce or timestamp changes the signature text;
 * - a string holding a lone surrogate (not representable as UTF-8) is refused.
 * `ai` is the index of the action the value is inside, for the RuleViolation.
 */
function prepareJson(
  v: unknown,
  desc: DescMessage | undefined,
  int64: boolean,
  path: string,
  ai: number | null,
): unknown {
  if (v instanceof JsonBigInt) return int64 ? v.text : Number(v.text)
  if (typeof v === 'number') {
    if (Number.isInteger(v) && !Number.isSafeInteger(v)) {
      throw violation(
        ai,
        `${path}: the JSON number ${v} is above 2^53 and may have been rounded; give 64-bit integers as decimal strings`,
      )
    }
    return v
  }
  if (typeof v === 'string') {
    if (LONE_SURROGATE.test(v))
      throw violation(ai, `${path}: string holds a lone UTF-16 surrogate, which is not UTF-8 text`)
    return v
  }
  if (Array.isArray(v)) return v.map((x, i) => prepareJson(x, desc, int64, `${path}[${i}]`, ai))
  if (v !== null && typeof v === 'object') {
    const out: Record<string, unknown> = {}
    for (const [k, x] of Object.entries(v)) {
      const f = desc === undefined ? undefined : fieldForKey(desc, k)
      const sub = f?.message ?? undefined
      const isInt64 =
        f !== undefined &&
        ((f.fieldKind === 'scalar' && INT64_TYPES.has(f.scalar)) ||
          (f.fieldKind === 'list' && f.listKind === 'scalar' && INT64_TYPES.has(f.scalar)))
      const value =
        desc === IdentityUpdateSchema && f?.name === 'actions' && Array.isArray(x)
          ? x.map((el, i) => prepareJson(el, sub, false, `${path}.${k}[${i}]`, i))
          : prepareJson(x, sub, isInt64, `${path}.${k}`, ai)
      Object.defineProperty(out, k, { value, enumerable: true, writable: true, configurable: true })
    }
    return out
  }
  return v
}

/**
 * protobuf-es JSON errors name the field but not the element: when the whole update
 * fails, the first action that fails on its own is the failing action.
 */
function failingActionIndex(prepared: unknown): number | null {
  const actions = (prepared as Record<string, unknown>).actions
  if (!Array.isArray(actions)) return null
  for (let i = 0; i < actions.length; i++) {
    try {
      fromJson(IdentityActionSchema, actions[i] as Parameters<typeof fromJson>[1])
    } catch {
      return i
    }
  }
  return null
}

/**
 * Decodes a proto3 JSON IdentityUpdate (camelCase or snake_case keys; 64-bit integers as
 * strings or safe numbers) under the same IDENT-001 checks. Unknown keys are refused (a
 * field the definition does not list). The bytes are the canonical `toBinary` encoding.
 * `path` names the value in messages (e.g. `$.responses[0].updates[1].update`).
 * @throws RuleViolation('IDENT-001', actionIndex | null, message)
 */
export function decodeUpdateFromJson(json: unknown, path: string): UnverifiedUpdate {
  if (json === null || typeof json !== 'object' || Array.isArray(json)) {
    throw violation(
      null,
      `${path}: expected a JSON object (an IdentityUpdate), found ${json === null ? 'null' : Array.isArray(json) ? 'an array' : typeof json}`,
    )
  }
  const prepared = prepareJson(json, IdentityUpdateSchema, false, path, null)
  let msg: IdentityUpdate
  try {
    msg = fromJson(IdentityUpdateSchema, prepared as Parameters<typeof fromJson>[1])
  } catch (e) {
    // The library's message quotes the offending key or value whole: bounded (issue #14, finding 7).
    const m = bounded(e instanceof Error ? e.message : String(e), 400)
    throw violation(failingActionIndex(prepared), `${path}: not a proto3 JSON IdentityUpdate: ${m}`)
  }
  let bytes: Uint8Array
  try {
    bytes = toBinary(IdentityUpdateSchema, msg)
  } catch (e) {
    throw violation(null, `${path}: cannot be encoded: ${e instanceof Error ? e.message : String(e)}`)
  }
  return toDomain(msg, bytes, 'canonical-encoding')
}

// This module is the decoder's protobuf half (./record.ts): evaluating it makes it available.
provideRecordReader({
  decodeUpdateOfRecord,
  decodeUpdateFromJson,
  checkUpdateWire: (bytes) => checkWire(IdentityUpdateSchema, bytes),
  holdsNoUpdateField: (bytes) => {
    // Unknown fields are not kept here: only the three listed fields are looked at.
    const m = fromBinary(IdentityUpdateSchema, bytes, { readUnknownFields: false })
    return m.actions.length === 0 && m.inboxId === '' && m.clientTimestampNs === 0n
  },
})
