/**
 * The fields of a decoded update the edit form offers, each with its path in the patch
 * language of src/core/encode/edit.ts (proto field names) and its value as text.
 */
import type { JsonValue } from '@bufbuild/protobuf'
import { bytesToHex } from '../../../crypto/bytes'
import type { UnverifiedUpdate, WireMemberIdentifier, WireSignature } from '../../../core/types'

export interface EditField {
  readonly path: readonly (string | number)[]
  readonly label: string
  readonly type: 'string' | 'uint64' | 'enum' | 'bytes'
  readonly value: string
}

/** A bytes field, shown as hex. */
const hexField = (path: (string | number)[], label: string, bytes: Uint8Array): EditField => ({
  path,
  label,
  type: 'bytes',
  value: bytesToHex(bytes),
})

function identifierFields(base: (string | number)[], label: string, id: WireMemberIdentifier): EditField[] {
  switch (id.kind) {
    case 'ethereum':
      return [
        {
          path: [...base, 'ethereum_address'],
          label: `${label} (Ethereum address)`,
          type: 'string',
          value: id.address,
        },
      ]
    case 'installation':
      return [hexField([...base, 'installation_public_key'], `${label} (installation key, hex)`, id.key)]
    case 'passkey':
      return [hexField([...base, 'passkey', 'key'], `${label} (passkey key, hex)`, id.key)]
  }
}

function signatureFields(base: (string | number)[], label: string, s: WireSignature): EditField[] {
  switch (s.kind) {
    case 'erc_191':
      return [hexField([...base, 'erc_191', 'bytes'], `${label} (erc_191 bytes, hex)`, s.bytes)]
    case 'installation_key':
      return [hexField([...base, 'installation_key', 'bytes'], `${label} (Ed25519 bytes, hex)`, s.bytes)]
    case 'passkey':
      return [hexField([...base, 'passkey', 'signature'], `${label} (passkey DER signature, hex)`, s.signature)]
    case 'erc_6492':
      return [hexField([...base, 'erc_6492', 'signature'], `${label} (erc_6492 signature, hex)`, s.signature)]
  }
}

/** The update's editable fields, in the order of its structure. */
export function editableFields(u: UnverifiedUpdate): EditField[] {
  const out: EditField[] = [
    { path: ['inbox_id'], label: 'inbox_id', type: 'string', value: u.inboxId },
    {
      path: ['client_timestamp_ns'],
      label: 'client_timestamp_ns',
      type: 'uint64',
      value: u.clientTimestampNs.toString(),
    },
  ]
  u.actions.forEach((a, i) => {
    const at = `action ${i}`
    const p = (field: string): (string | number)[] => ['actions', i, a.kind, field]
    const text = (field: string, value: string): EditField => ({
      path: p(field),
      label: `${at} ${field}`,
      type: 'string',
      value,
    })
    const enumNumber = (field: string, n: number): EditField => ({
      path: p(field),
      label: `${at} ${field} (enum number)`,
      type: 'enum',
      value: String(n),
    })
    const sig = (field: string, s: WireSignature) => signatureFields(p(field), `${at} ${field.replaceAll('_', ' ')}`, s)
    switch (a.kind) {
      case 'create_inbox':
        out.push(
          text('initial_identifier', a.initialIdentifier),
          { path: p('nonce'), label: `${at} nonce`, type: 'uint64', value: a.nonce.toString() },
          enumNumber('initial_identifier_kind', a.initialIdentifierKind),
          ...sig('initial_identifier_signature', a.initialIdentifierSignature),
        )
        break
      case 'add':
        out.push(
          ...identifierFields(p('new_member_identifier'), `${at} new member`, a.newMemberIdentifier),
          ...sig('existing_member_signature', a.existingMemberSignature),
          ...sig('new_member_signature', a.newMemberSignature),
        )
        break
      case 'revoke':
        out.push(
          ...identifierFields(p('member_to_revoke'), `${at} member to revoke`, a.memberToRevoke),
          ...sig('recovery_identifier_signature', a.recoveryIdentifierSignature),
        )
        break
      case 'change_recovery_address':
        out.push(
          text('new_recovery_identifier', a.newRecoveryIdentifier),
          enumNumber('new_recovery_identifier_kind', a.newRecoveryIdentifierKind),
          ...sig('existing_recovery_identifier_signature', a.existingRecoveryIdentifierSignature),
        )
        break
      case 'claim_handle':
        out.push(text('handle', a.handle), ...sig('signature', a.signature))
        break
    }
  })
  return out
}

/** The form's text as the patch language's JSON value for the field (the core checks it). */
export function fieldValue(f: EditField, text: string): JsonValue {
  if (f.type === 'enum' && /^-?[0-9]+$/.test(text.trim())) return Number(text.trim())
  return f.type === 'string' ? text : text.trim()
}
