/**
 * The decentralized network's envelopes around an identity update (xmtpd; proto/xmtpv4):
 *
 *   OriginatorEnvelope.unsigned_originator_envelope (bytes) → UnsignedOriginatorEnvelope
 *     .payer_envelope_bytes → PayerEnvelope.unsigned_client_envelope → ClientEnvelope
 *     .identity_update (the IdentityUpdate, kept as the exact bytes served)
 *
 * and the identity topic: the byte 0x02 (xmtpd's TopicKindIdentityUpdatesV1) followed by
 * the 32 bytes of the inbox id. `wrapIdentityUpdate` is what the local node serves;
 * `unwrapIdentityEnvelope` is what the client reads, strictly, and tells why an envelope
 * is not an identity update for the inbox asked for (the fetch leaves it out and says so).
 */
import { create, fromBinary, toBinary, type DescMessage, type MessageShape } from '@bufbuild/protobuf'
import { BinaryWriter, WireType } from '@bufbuild/protobuf/wire'
import { bytesToHex, hexToBytes } from '../crypto/bytes'
import { checkWire } from '../core/decode/wire'
import {
  AuthenticatedDataSchema,
  OriginatorEnvelopeSchema,
  PayerEnvelopeSchema,
  UnsignedOriginatorEnvelopeSchema,
} from '../gen/xmtpv4/envelopes/envelopes_pb'
import { expectWireType, fieldText, readFields, type WireError, type WireField } from './wire'

/** xmtpd's topic kind for identity updates (TopicKindIdentityUpdatesV1). */
const IDENTITY_TOPIC_KIND = 0x02
/** The originator id xmtpd gives identity updates (they come from the chain), and the local node's. */
export const IDENTITY_ORIGINATOR_NODE_ID = 1

const INBOX_ID = /^[0-9a-f]{64}$/

/** True for an inbox id this network can address: 64 lowercase hex digits (32 bytes). */
export function isTopicInboxId(inboxId: string): boolean {
  return INBOX_ID.test(inboxId)
}

/** The identity topic of an inbox. @throws Error when the id is not 64 lowercase hex digits */
export function identityTopic(inboxId: string): Uint8Array {
  if (!isTopicInboxId(inboxId)) {
    throw new Error(`inbox id ${JSON.stringify(inboxId)} is not 64 lowercase hex digits, so it has no identity topic`)
  }
  const t = new Uint8Array(33)
  t[0] = IDENTITY_TOPIC_KIND
  t.set(hexToBytes(inboxId), 1)
  return t
}

/** The inbox id of an identity topic, or null for any other topic. */
export function inboxIdOfTopic(topic: Uint8Array): string | null {
  if (topic.length !== 33 || topic[0] !== IDENTITY_TOPIC_KIND) return null
  return bytesToHex(topic.subarray(1))
}

export interface WrapInput {
  readonly originatorNodeId: number
  readonly sequenceId: bigint
  readonly originatorNs: bigint
  readonly inboxId: string
  /** The IdentityUpdate's exact bytes: spliced in, never re-encoded. */
  readonly update: Uint8Array
}

/** An OriginatorEnvelope (bytes) carrying the update on the inbox's identity topic. */
export function wrapIdentityUpdate(i: WrapInput): Uint8Array {
  const aad = toBinary(
    AuthenticatedDataSchema,
    create(AuthenticatedDataSchema, { targetTopic: identityTopic(i.inboxId) }),
  )
  const w = new BinaryWriter()
  w.tag(1, WireType.LengthDelimited).bytes(aad)
  w.tag(5, WireType.LengthDelimited).bytes(i.update) // ClientEnvelope.identity_update, byte for byte
  const client = w.finish()
  const payer = toBinary(
    PayerEnvelopeSchema,
    create(PayerEnvelopeSchema, { unsignedClientEnvelope: client, targetOriginator: i.originatorNodeId }),
  )
  const unsigned = toBinary(
    UnsignedOriginatorEnvelopeSchema,
    create(UnsignedOriginatorEnvelopeSchema, {
      originatorNodeId: i.originatorNodeId,
      originatorSequenceId: i.sequenceId,
      originatorNs: i.originatorNs,
      payerEnvelopeBytes: payer,
    }),
  )
  return toBinary(OriginatorEnvelopeSchema, create(OriginatorEnvelopeSchema, { unsignedOriginatorEnvelope: unsigned }))
}

export interface UnwrappedUpdate {
  readonly ok: true
  readonly originatorNodeId: number
  readonly sequenceId: bigint
  readonly originatorNs: bigint
  readonly update: Uint8Array
}

export interface NotAnUpdate {
  readonly ok: false
  /** The sequence id and originator when the envelope got that far. */
  readonly sequenceId: bigint | null
  readonly originatorNodeId: number | null
  readonly reason: string
}

/** The ClientEnvelope payload kinds (oneof payload), by field number. */
const PAYLOAD_KINDS: Record<number, string> = {
  2: 'group_message',
  3: 'welcome_message',
  4: 'upload_key_package',
  5: 'identity_update',
  6: 'payer_report',
  7: 'payer_report_attestation',
}

class Unwrap extends Error {}

function strict<D extends DescMessage>(desc: D, bytes: Uint8Array, what: string): MessageShape<D> {
  const problem = checkWire(desc, bytes)
  if (problem) throw new Unwrap(`the ${what} is not a ${desc.name}: ${problem.message}`)
  try {
    return fromBinary(desc, bytes)
  } catch (e) {
    throw new Unwrap(`the ${what} is not a ${desc.name}: ${e instanceof Error ? e.message : String(e)}`)
  }
}

/** The inbox_id (field 3) of IdentityUpdate bytes, as protobuf reads it (the last occurrence). */
function updateInboxId(update: Uint8Array): string {
  let id = ''
  for (const f of readFields(update, 'IdentityUpdate')) {
    if (f.no !== 3) continue
    expectWireType(f, WireType.LengthDelimited, 'IdentityUpdate', 'inbox_id')
    if (f.wt === WireType.LengthDelimited) id = fieldText(f, 'IdentityUpdate', 'inbox_id')
  }
  return id
}

/**
 * Unwraps one OriginatorEnvelope (its bytes, as served) to the identity update of
 * `inboxId`, or says why it is not one. Never throws.
 */
export function unwrapIdentityEnvelope(envelope: Uint8Array, inboxId: string): UnwrappedUpdate | NotAnUpdate {
  let sequenceId: bigint | null = null
  let originatorNodeId: number | null = null
  try {
    const env = strict(OriginatorEnvelopeSchema, envelope, 'envelope')
    const unsigned = strict(
      UnsignedOriginatorEnvelopeSchema,
      env.unsignedOriginatorEnvelope,
      'unsigned_originator_envelope',
    )
    sequenceId = unsigned.originatorSequenceId
    originatorNodeId = unsigned.originatorNodeId
    const payer = strict(PayerEnvelopeSchema, unsigned.payerEnvelopeBytes, 'payer_envelope_bytes')
    let fields: WireField[]
    try {
      fields = readFields(payer.unsignedClientEnvelope, 'ClientEnvelope')
    } catch (e) {
      throw new Unwrap(`the unsigned_client_envelope is not a ClientEnvelope: ${(e as WireError).message}`)
    }
    let payload = 0
    const updates: Uint8Array[] = []
    let topic: Uint8Array | null = null
    for (const f of fields) {
      if (f.no === 1) {
        if (f.wt !== WireType.LengthDelimited)
          throw new Unwrap('the ClientEnvelope aad (field 1) is not length-delimited')
        topic = strict(AuthenticatedDataSchema, f.body, 'ClientEnvelope aad').targetTopic
      } else if (PAYLOAD_KINDS[f.no]) {
        if (f.wt !== WireType.LengthDelimited) {
          throw new Unwrap(`the ClientEnvelope ${PAYLOAD_KINDS[f.no]} (field ${f.no}) is not length-delimited`)
        }
        payload = f.no
        if (f.no === 5) updates.push(f.body)
      }
    }
    if (payload === 0) throw new Unwrap('the ClientEnvelope carries no payload')
    if (payload !== 5)
      throw new Unwrap(`the ClientEnvelope carries a ${PAYLOAD_KINDS[payload]}, not an identity_update`)
    if (updates.length > 1) {
      throw new Unwrap(
        `the ClientEnvelope carries identity_update ${updates.length} times; which bytes were signed is unclear`,
      )
    }
    const update = updates[0]!
    if (topic !== null && topic.length > 0) {
      const named = inboxIdOfTopic(topic)
      if (named !== inboxId) {
        throw new Unwrap(
          `its target topic is ${named === null ? `${bytesToHex(topic)} (not an identity topic)` : `inbox ${named}'s identity topic`}, not inbox ${inboxId}'s`,
        )
      }
    }
    let named: string
    try {
      named = updateInboxId(update)
    } catch (e) {
      throw new Unwrap(`its identity_update cannot be read: ${(e as WireError).message}`)
    }
    if (named !== inboxId) {
      throw new Unwrap(`its identity_update is for inbox ${named ? named : '(none)'}, not ${inboxId}`)
    }
    return {
      ok: true,
      originatorNodeId: unsigned.originatorNodeId,
      sequenceId: unsigned.originatorSequenceId,
      originatorNs: unsigned.originatorNs,
      update,
    }
  } catch (e) {
    if (e instanceof Unwrap) return { ok: false, sequenceId, originatorNodeId, reason: e.message }
    return { ok: false, sequenceId, originatorNodeId, reason: e instanceof Error ? e.message : String(e) }
  }
}
