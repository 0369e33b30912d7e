/**
 * The common form of an IdentityUpdate read in one pass, straight to the domain types.
 *
 * `decodeUpdate` (./update.ts) is the decoder of record: the strict wire pass (./wire.ts),
 * protobuf-es `fromBinary`, then the IDENT-001 checks and the mapping (`toDomain`). That
 * walks the bytes twice and builds a protobuf-es message (and a reflection wrapper) for
 * every nested message before mapping it, and a log is read once, so all of it runs cold:
 * 29 ms of a 1,024-update command line replay (issue #13). This reads the form every
 * encoder writes, and only that, and gives up (null) on anything else, which the decoder
 * of record then reads, so every verdict and every error text is its own:
 * - every tag is one byte (fields 1 to 15) with the field's wire type; an unknown field,
 *   a group or a wrong wire type gives up;
 * - a singular field appears at most once and a oneof holds exactly one member (protobuf's
 *   "last one wins" and message merging are left to `fromBinary`);
 * - lengths are at most 4 bytes (under 2^28), an enum at most 4 (a non-negative int32
 *   under 2^28), a uint64 at most 10 (the tenth byte 0 or 1);
 * - every string is valid UTF-8, read with `ignoreBOM` as protobuf-es reads it;
 * - the update has an action, every action and MemberIdentifier a kind, every Signature a
 *   signature: whatever IDENT-001 would reject gives up, so the message comes from there.
 * Within that form the result is what the decoder of record returns: the same fields in
 * the same order, bytes fields as subarrays of the input (as protobuf-es reads them), an
 * absent bytes field an empty array, an absent string "", an absent uint64 0n, an absent
 * optional string no property. ./direct.test.ts checks both decoders against each other
 * on the vectors, on generated updates and on random mutations of them.
 */
import type { UnverifiedUpdate, WireAction, WireMemberIdentifier, WireSignature } from '../types'
import { shared } from './intern'

/** The update being read and the position in it (module state: no cursor object per update). */
let buf: Uint8Array = new Uint8Array(0)
let pos = 0

/** The actions of the update being read. */
const pending: WireAction[] = []

/** An absent bytes field (protobuf-es also gives one shared empty array per field). */
const EMPTY = new Uint8Array(0)

const utf8 = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true })

/** A varint of at most 4 bytes at pos, before `end`; -1 when longer or cut off. */
function small(end: number): number {
  let n = 0
  for (let i = 0; i < 28; i += 7) {
    if (pos >= end) return -1
    const x = buf[pos++]!
    n |= (x & 0x7f) << i
    if (x < 0x80) return n
  }
  return -1
}

/** The end of the length-delimited body whose length is at pos; -1 when it is not inside `end`. */
function bodyEnd(end: number): number {
  const n = small(end)
  if (n < 0) return -1
  const e = pos + n
  return e <= end ? e : -1
}

/**
 * A uint64 varint at pos; null when cut off, longer than 10 bytes, or 10 bytes whose last
 * holds more than bit 63 (protobuf-es drops such bits: left to it).
 */
function u64(end: number): bigint | null {
  let lo = 0
  for (let i = 0; i < 28; i += 7) {
    if (pos >= end) return null
    const x = buf[pos++]!
    lo |= (x & 0x7f) << i
    if (x < 0x80) return BigInt(lo)
  }
  let hi = 0
  let scale = 1
  for (let i = 0; i < 5; i++) {
    if (pos >= end) return null
    const x = buf[pos++]!
    hi += (x & 0x7f) * scale
    if (x < 0x80) return hi < 0x2000000 ? BigInt(hi * 0x10000000 + lo) : (BigInt(hi) << 28n) | BigInt(lo)
    scale *= 128
  }
  // The tenth byte: bit 63 alone (nonces of real logs use it).
  if (pos >= end) return null
  const top = buf[pos++]!
  if (top > 1) return null
  return (BigInt(hi) << 28n) | BigInt(lo) | (top === 1 ? 1n << 63n : 0n)
}

/** A bytes field's body (a subarray, as protobuf-es reads it); null when cut off. */
function bytes(end: number): Uint8Array | null {
  const e = bodyEnd(end)
  if (e < 0) return null
  const b = buf.subarray(pos, e)
  pos = e
  return b
}

/** A string field's text; null when cut off or not UTF-8. */
function text(end: number): string | null {
  const e = bodyEnd(end)
  if (e < 0) return null
  const start = pos
  pos = e
  // Always the native decoder: char codes through String.fromCharCode took 2-3x as long
  // for the 42- and 64-character identifiers (3,000 strings, cold).
  try {
    return utf8.decode(buf.subarray(start, e))
  } catch {
    return null
  }
}

// Tags: field number << 3 | wire type (0 varint, 2 length-delimited).
const LEN1 = 0x0a
const LEN2 = 0x12
const LEN3 = 0x1a
const LEN4 = 0x22
const LEN5 = 0x2a
const VARINT2 = 0x10
const VARINT3 = 0x18
const VARINT4 = 0x20

/** RecoverableEcdsaSignature { bytes bytes = 1 }. */
function erc191(end: number): WireSignature | null {
  let b: Uint8Array | null = null
  while (pos < end) {
    if (buf[pos++] !== LEN1 || b !== null) return null
    if ((b = bytes(end)) === null) return null
  }
  return { kind: 'erc_191', bytes: b ?? EMPTY }
}

/** SmartContractWalletSignature { string account_id = 1; uint64 block_number = 2; bytes signature = 3 }. */
function erc6492(end: number): WireSignature | null {
  let accountId: string | null = null
  let blockNumber: bigint | null = null
  let signature: Uint8Array | null = null
  while (pos < end) {
    const t = buf[pos++]
    if (t === LEN1 && accountId === null) {
      if ((accountId = text(end)) === null) return null
    } else if (t === VARINT2 && blockNumber === null) {
      if ((blockNumber = u64(end)) === null) return null
    } else if (t === LEN3 && signature === null) {
      if ((signature = bytes(end)) === null) return null
    } else return null
  }
  return { kind: 'erc_6492', accountId: accountId ?? '', blockNumber: blockNumber ?? 0n, signature: signature ?? EMPTY }
}

/** RecoverableEd25519Signature { bytes bytes = 1; bytes public_key = 2 }. */
function installationKey(end: number): WireSignature | null {
  let b: Uint8Array | null = null
  let publicKey: Uint8Array | null = null
  while (pos < end) {
    const t = buf[pos++]
    if (t === LEN1 && b === null) {
      if ((b = bytes(end)) === null) return null
    } else if (t === LEN2 && publicKey === null) {
      if ((publicKey = bytes(end)) === null) return null
    } else return null
  }
  return { kind: 'installation_key', bytes: b ?? EMPTY, publicKey: publicKey ?? EMPTY }
}

/** RecoverablePasskeySignature { bytes public_key = 1; signature = 2; authenticator_data = 3; client_data_json = 4 }. */
function passkeySignature(end: number): WireSignature | null {
  let publicKey: Uint8Array | null = null
  let signature: Uint8Array | null = null
  let authenticatorData: Uint8Array | null = null
  let clientDataJson: Uint8Array | null = null
  while (pos < end) {
    const t = buf[pos++]
    if (t === LEN1 && publicKey === null) {
      if ((publicKey = bytes(end)) === null) return null
    } else if (t === LEN2 && signature === null) {
      if ((signature = bytes(end)) === null) return null
    } else if (t === LEN3 && authenticatorData === null) {
      if ((authenticatorData = bytes(end)) === null) return null
    } else if (t === LEN4 && clientDataJson === null) {
      if ((clientDataJson = bytes(end)) === null) return null
    } else return null
  }
  return {
    kind: 'passkey',
    publicKey: publicKey ?? EMPTY,
    signature: signature ?? EMPTY,
    authenticatorData: authenticatorData ?? EMPTY,
    clientDataJson: clientDataJson ?? EMPTY,
  }
}

/** A Signature body: exactly one member of its oneof (erc_191 1, erc_6492 2, installation_key 3, passkey 5). */
function signature(end: number): WireSignature | null {
  if (pos >= end) return null
  const t = buf[pos++]
  if (t !== LEN1 && t !== LEN2 && t !== LEN3 && t !== LEN5) return null
  if (bodyEnd(end) !== end) return null
  return t === LEN1
    ? erc191(end)
    : t === LEN2
      ? erc6492(end)
      : t === LEN3
        ? installationKey(end)
        : passkeySignature(end)
}

/** A Signature field at pos (after its tag), read to the end of its body. */
function signatureField(end: number): WireSignature | null {
  const e = bodyEnd(end)
  if (e < 0) return null
  const s = signature(e)
  return s !== null && pos === e ? s : null
}

/** Passkey { bytes key = 1; optional string relying_party = 2 }. */
function passkeyMember(end: number): WireMemberIdentifier | null {
  let key: Uint8Array | null = null
  let relyingParty: string | null = null
  while (pos < end) {
    const t = buf[pos++]
    if (t === LEN1 && key === null) {
      if ((key = bytes(end)) === null) return null
    } else if (t === LEN2 && relyingParty === null) {
      if ((relyingParty = text(end)) === null) return null
    } else return null
  }
  return relyingParty === null
    ? { kind: 'passkey', key: key ?? EMPTY }
    : { kind: 'passkey', key: key ?? EMPTY, relyingParty }
}

/** A MemberIdentifier field at pos: exactly one of ethereum_address 1, installation_public_key 2, passkey 3. */
function memberField(end: number): WireMemberIdentifier | null {
  const e = bodyEnd(end)
  if (e < 0 || pos >= e) return null
  const t = buf[pos++]
  let m: WireMemberIdentifier | null = null
  if (t === LEN1) {
    const address = text(e)
    if (address !== null) m = { kind: 'ethereum', address: shared(address) }
  } else if (t === LEN2) {
    const key = bytes(e)
    if (key !== null) m = { kind: 'installation', key }
  } else if (t === LEN3) {
    const pe = bodyEnd(e)
    if (pe === e) m = passkeyMember(e)
  }
  return m !== null && pos === e ? m : null
}

/** CreateInbox { string initial_identifier = 1; uint64 nonce = 2; Signature = 3; IdentifierKind = 4; optional string relying_party = 5 }. */
function createInbox(end: number): WireAction | null {
  let initialIdentifier: string | null = null
  let nonce: bigint | null = null
  let sig: WireSignature | null = null
  let kind = -1
  let relyingParty: string | null = null
  while (pos < end) {
    const t = buf[pos++]
    if (t === LEN1 && initialIdentifier === null) {
      if ((initialIdentifier = text(end)) === null) return null
    } else if (t === VARINT2 && nonce === null) {
      if ((nonce = u64(end)) === null) return null
    } else if (t === LEN3 && sig === null) {
      if ((sig = signatureField(end)) === null) return null
    } else if (t === VARINT4 && kind < 0) {
      if ((kind = small(end)) < 0) return null
    } else if (t === LEN5 && relyingParty === null) {
      if ((relyingParty = text(end)) === null) return null
    } else return null
  }
  if (sig === null) return null
  const a = {
    kind: 'create_inbox' as const,
    initialIdentifier: shared(initialIdentifier ?? ''),
    nonce: nonce ?? 0n,
    initialIdentifierKind: Math.max(kind, 0),
    initialIdentifierSignature: sig,
  }
  return relyingParty === null ? a : { ...a, relyingParty }
}

/** AddAssociation { MemberIdentifier = 1; Signature existing = 2; Signature new = 3; optional string relying_party = 4 }. */
function add(end: number): WireAction | null {
  let member: WireMemberIdentifier | null = null
  let existing: WireSignature | null = null
  let added: WireSignature | null = null
  let relyingParty: string | null = null
  while (pos < end) {
    const t = buf[pos++]
    if (t === LEN1 && member === null) {
      if ((member = memberField(end)) === null) return null
    } else if (t === LEN2 && existing === null) {
      if ((existing = signatureField(end)) === null) return null
    } else if (t === LEN3 && added === null) {
      if ((added = signatureField(end)) === null) return null
    } else if (t === LEN4 && relyingParty === null) {
      if ((relyingParty = text(end)) === null) return null
    } else return null
  }
  if (member === null || existing === null || added === null) return null
  const a = {
    kind: 'add' as const,
    newMemberIdentifier: member,
    existingMemberSignature: existing,
    newMemberSignature: added,
  }
  return relyingParty === null ? a : { ...a, relyingParty }
}

/** RevokeAssociation { MemberIdentifier = 1; Signature = 2 }. */
function revoke(end: number): WireAction | null {
  let member: WireMemberIdentifier | null = null
  let sig: WireSignature | null = null
  while (pos < end) {
    const t = buf[pos++]
    if (t === LEN1 && member === null) {
      if ((member = memberField(end)) === null) return null
    } else if (t === LEN2 && sig === null) {
      if ((sig = signatureField(end)) === null) return null
    } else return null
  }
  if (member === null || sig === null) return null
  return { kind: 'revoke', memberToRevoke: member, recoveryIdentifierSignature: sig }
}

/** ChangeRecoveryAddress { string = 1; Signature = 2; IdentifierKind = 3; optional string relying_party = 4 }. */
function changeRecoveryAddress(end: number): WireAction | null {
  let identifier: string | null = null
  let sig: WireSignature | null = null
  let kind = -1
  let relyingParty: string | null = null
  while (pos < end) {
    const t = buf[pos++]
    if (t === LEN1 && identifier === null) {
      if ((identifier = text(end)) === null) return null
    } else if (t === LEN2 && sig === null) {
      if ((sig = signatureField(end)) === null) return null
    } else if (t === VARINT3 && kind < 0) {
      if ((kind = small(end)) < 0) return null
    } else if (t === LEN4 && relyingParty === null) {
      if ((relyingParty = text(end)) === null) return null
    } else return null
  }
  if (sig === null) return null
  const a = {
    kind: 'change_recovery_address' as const,
    newRecoveryIdentifier: shared(identifier ?? ''),
    newRecoveryIdentifierKind: Math.max(kind, 0),
    existingRecoveryIdentifierSignature: sig,
  }
  return relyingParty === null ? a : { ...a, relyingParty }
}

/** ClaimHandle { string handle = 1; Signature = 2 }. */
function claimHandle(end: number): WireAction | null {
  let handle: string | null = null
  let sig: WireSignature | null = null
  while (pos < end) {
    const t = buf[pos++]
    if (t === LEN1 && handle === null) {
      if ((handle = text(end)) === null) return null
    } else if (t === LEN2 && sig === null) {
      if ((sig = signatureField(end)) === null) return null
    } else return null
  }
  if (sig === null) return null
  return { kind: 'claim_handle', handle: shared(handle ?? ''), signature: sig }
}

/** An IdentityAction field at pos: exactly one of its five kinds. */
function actionField(end: number): WireAction | null {
  const e = bodyEnd(end)
  if (e < 0 || pos >= e) return null
  const t = buf[pos++]
  if (bodyEnd(e) !== e) return null
  let a: WireAction | null
  switch (t) {
    case LEN1:
      a = createInbox(e)
      break
    case LEN2:
      a = add(e)
      break
    case LEN3:
      a = revoke(e)
      break
    case LEN4:
      a = changeRecoveryAddress(e)
      break
    case LEN5:
      a = claimHandle(e)
      break
    default:
      return null
  }
  return a !== null && pos === e ? a : null
}

/**
 * IdentityUpdate bytes in the common form (see the module header) as the update
 * `decodeUpdate` gives for them; null for any other bytes, valid or not.
 */
export function decodeDirect(input: Uint8Array): UnverifiedUpdate | null {
  buf = input
  pos = 0
  try {
    const end = input.length
    const actions = pending
    actions.length = 0
    let clientTimestampNs: bigint | null = null
    let inboxId: string | null = null
    while (pos < end) {
      const t = buf[pos++]
      if (t === LEN1) {
        const a = actionField(end)
        if (a === null) return null
        actions.push(a)
      } else if (t === VARINT2 && clientTimestampNs === null) {
        if ((clientTimestampNs = u64(end)) === null) return null
      } else if (t === LEN3 && inboxId === null) {
        if ((inboxId = text(end)) === null) return null
      } else return null
    }
    if (actions.length === 0) return null
    return {
      inboxId: shared(inboxId ?? ''),
      clientTimestampNs: clientTimestampNs ?? 0n,
      // A copy of exactly its length: an array grown by push keeps spare slots (16 for one action).
      actions: actions.slice(),
      bytes: input,
      bytesSource: 'input',
    }
  } finally {
    buf = EMPTY
    pending.length = 0
  }
}
