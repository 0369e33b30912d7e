/**
 * Building identity updates and log containers: for the signing code, the fixture
 * generator and tests. The inverse of ../decode: domain values in, wire bytes or JSON out.
 *
 * - `encodeUpdate` builds an IdentityUpdate with the generated schema (`create` +
 *   `toBinary`): the canonical encoding. Signers sign the text built from the decoded
 *   update; whoever publishes must publish exactly these bytes (design.md: never
 *   re-encode).
 * - `encodeGetIdentityUpdatesResponse` writes the container by hand with BinaryWriter and
 *   splices each update's bytes in unchanged, so non-canonical or deliberately malformed
 *   update bytes survive byte for byte. Container fields follow proto3's canonical form
 *   (a zero sequence id or timestamp is omitted), so for canonical update bytes the result
 *   equals `toBinary` of the same response.
 * - `toGatewayJson` is the proto3 JSON form (`toJson` of the response with each update
 *   parsed). JSON carries no bytes: unknown fields in an update (such as the retired
 *   Signature field 4) are not representable and are dropped, as any proto3 JSON
 *   encoder drops them.
 * - `encodeBundleJson` is the project's log bundle (../shared/contracts/cli.md).
 */
import { create, fromBinary, toBinary, toJson, type JsonValue, type MessageInitShape } from '@bufbuild/protobuf'
import { BinaryWriter, WireType } from '@bufbuild/protobuf/wire'
import { GetIdentityUpdatesResponseSchema } from '../../gen/identity/api/v1/identity_pb'
import {
  type IdentityActionSchema,
  IdentityUpdateSchema,
  type MemberIdentifierSchema,
} from '../../gen/identity/associations/association_pb'
import type { SignatureSchema } from '../../gen/identity/associations/signature_pb'
import type { WireAction, WireMemberIdentifier, WireSignature } from '../types'

// The bundle JSON has its own module (no protobuf code, for the app's first screen); kept importable from here.
export { encodeBundleJson } from './bundle'

/** The fields of an identity update before it is encoded. */
export interface UpdateFields {
  readonly inboxId: string
  readonly clientTimestampNs: bigint
  readonly actions: readonly WireAction[]
}

/** One inbox's log for a GetIdentityUpdatesResponse. */
export interface ResponseLog {
  readonly inboxId: string
  readonly updates: readonly {
    readonly sequenceId: bigint
    readonly serverTimestampNs?: bigint
    readonly bytes: Uint8Array
  }[]
}

type SignatureInit = MessageInitShape<typeof SignatureSchema>
type MemberInit = MessageInitShape<typeof MemberIdentifierSchema>
type ActionInit = MessageInitShape<typeof IdentityActionSchema>

function signatureInit(s: WireSignature): SignatureInit {
  switch (s.kind) {
    case 'erc_191':
      return { signature: { case: 'erc191', value: { bytes: s.bytes } } }
    case 'erc_6492':
      return {
        signature: {
          case: 'erc6492',
          value: { accountId: s.accountId, blockNumber: s.blockNumber, signature: s.signature },
        },
      }
    case 'installation_key':
      return { signature: { case: 'installationKey', value: { bytes: s.bytes, publicKey: s.publicKey } } }
    case 'passkey':
      return {
        signature: {
          case: 'passkey',
          value: {
            publicKey: s.publicKey,
            signature: s.signature,
            authenticatorData: s.authenticatorData,
            clientDataJson: s.clientDataJson,
          },
        },
      }
  }
}

function memberInit(m: WireMemberIdentifier): MemberInit {
  switch (m.kind) {
    case 'ethereum':
      return { kind: { case: 'ethereumAddress', value: m.address } }
    case 'installation':
      return { kind: { case: 'installationPublicKey', value: m.key } }
    case 'passkey':
      return {
        kind: {
          case: 'passkey',
          value: m.relyingParty === undefined ? { key: m.key } : { key: m.key, relyingParty: m.relyingParty },
        },
      }
  }
}

function actionInit(a: WireAction): ActionInit {
  switch (a.kind) {
    case 'create_inbox':
      return {
        kind: {
          case: 'createInbox',
          value: {
            initialIdentifier: a.initialIdentifier,
            nonce: a.nonce,
            initialIdentifierSignature: signatureInit(a.initialIdentifierSignature),
            initialIdentifierKind: a.initialIdentifierKind,
            ...(a.relyingParty === undefined ? {} : { relyingParty: a.relyingParty }),
          },
        },
      }
    case 'add':
      return {
        kind: {
          case: 'add',
          value: {
            newMemberIdentifier: memberInit(a.newMemberIdentifier),
            existingMemberSignature: signatureInit(a.existingMemberSignature),
            newMemberSignature: signatureInit(a.newMemberSignature),
            ...(a.relyingParty === undefined ? {} : { relyingParty: a.relyingParty }),
          },
        },
      }
    case 'revoke':
      return {
        kind: {
          case: 'revoke',
          value: {
            memberToRevoke: memberInit(a.memberToRevoke),
            recoveryIdentifierSignature: signatureInit(a.recoveryIdentifierSignature),
          },
        },
      }
    case 'change_recovery_address':
      return {
        kind: {
          case: 'changeRecoveryAddress',
          value: {
            newRecoveryIdentifier: a.newRecoveryIdentifier,
            existingRecoveryIdentifierSignature: signatureInit(a.existingRecoveryIdentifierSignature),
            newRecoveryIdentifierKind: a.newRecoveryIdentifierKind,
            ...(a.relyingParty === undefined ? {} : { relyingParty: a.relyingParty }),
          },
        },
      }
    case 'claim_handle':
      return { kind: { case: 'claimHandle', value: { handle: a.handle, signature: signatureInit(a.signature) } } }
  }
}

/** The canonical protobuf encoding of an IdentityUpdate built from domain values. */
export function encodeUpdate(u: UpdateFields): Uint8Array {
  const msg = create(IdentityUpdateSchema, {
    inboxId: u.inboxId,
    clientTimestampNs: u.clientTimestampNs,
    actions: u.actions.map(actionInit),
  })
  return toBinary(IdentityUpdateSchema, msg)
}

/**
 * A binary GetIdentityUpdatesResponse, one Response per log in order, each update's
 * bytes spliced in exactly as given (field 3 of IdentityUpdateLog).
 */
export function encodeGetIdentityUpdatesResponse(logs: readonly ResponseLog[]): Uint8Array {
  const w = new BinaryWriter()
  for (const log of logs) {
    w.tag(1, WireType.LengthDelimited).fork() // responses
    if (log.inboxId !== '') w.tag(1, WireType.LengthDelimited).string(log.inboxId)
    for (const u of log.updates) {
      w.tag(2, WireType.LengthDelimited).fork() // updates
      if (u.sequenceId !== 0n) w.tag(1, WireType.Varint).uint64(u.sequenceId)
      if (u.serverTimestampNs !== undefined && u.serverTimestampNs !== 0n) {
        w.tag(2, WireType.Varint).uint64(u.serverTimestampNs)
      }
      w.tag(3, WireType.LengthDelimited).bytes(u.bytes) // the update, byte for byte
      w.join()
    }
    w.join()
  }
  return w.finish()
}

/**
 * The proto3 JSON form of a GetIdentityUpdatesResponse (lowerCamelCase keys unless
 * `useProtoFieldName`, uint64 as decimal strings), as an HTTP gateway answers it.
 * @throws Error when an update's bytes do not parse as an IdentityUpdate at all
 */
export function toGatewayJson(logs: readonly ResponseLog[], options: { useProtoFieldName?: boolean } = {}): JsonValue {
  const msg = create(GetIdentityUpdatesResponseSchema, {
    responses: logs.map((log) => ({
      inboxId: log.inboxId,
      updates: log.updates.map((u) => ({
        sequenceId: u.sequenceId,
        serverTimestampNs: u.serverTimestampNs ?? 0n,
        update: fromBinary(IdentityUpdateSchema, u.bytes),
      })),
    })),
  })
  return toJson(GetIdentityUpdatesResponseSchema, msg, { useProtoFieldName: options.useProtoFieldName ?? false })
}
