import type { PMap, PSet } from './persistent'

/**
 * Domain types of the validation core. Decoding parses wire messages into these;
 * rules, state and views never see generated protobuf types.
 * Sequence ids, nonces, timestamps and block numbers are bigint end to end.
 */

declare const brand: unique symbol
type Brand<T, B extends string> = T & { readonly [brand]: B }

/** 0x + 40 lowercase hex characters (IDENT-013). */
export type EthAddress = Brand<string, 'EthAddress'>
/** 64 lowercase hex characters (IDENT-010). */
export type InboxId = Brand<string, 'InboxId'>

export type MemberKind = 'ethereum' | 'passkey' | 'installation'

/**
 * A member identifier as the state keys it: its kind and its identifier text under
 * spec section 3 (Ethereum 0x+40 lowercase hex, installation 64 lowercase hex,
 * passkey lowercase hex of the key). relying_party takes no part in identity.
 */
export interface MemberId {
  readonly kind: MemberKind
  readonly text: string
}

export type SignatureKind = 'erc_191' | 'erc_6492' | 'installation_key' | 'passkey'

/** A signature as carried on the wire (spec section 4), not yet verified. */
export type WireSignature =
  | { readonly kind: 'erc_191'; readonly bytes: Uint8Array }
  | {
      readonly kind: 'erc_6492'
      readonly accountId: string
      readonly blockNumber: bigint
      readonly signature: Uint8Array
    }
  | { readonly kind: 'installation_key'; readonly bytes: Uint8Array; readonly publicKey: Uint8Array }
  | {
      readonly kind: 'passkey'
      readonly publicKey: Uint8Array
      readonly signature: Uint8Array
      readonly authenticatorData: Uint8Array
      readonly clientDataJson: Uint8Array
    }

/** A MemberIdentifier as carried. Ethereum addresses are kept as carried; IDENT-013 checks them. */
export type WireMemberIdentifier =
  | { readonly kind: 'ethereum'; readonly address: string }
  | { readonly kind: 'installation'; readonly key: Uint8Array }
  | { readonly kind: 'passkey'; readonly key: Uint8Array; readonly relyingParty?: string }

/** IdentifierKind as a number: the enum is open on the wire (IDENT-077 checks it). */
export const IdentifierKindValue = {
  UNSPECIFIED: 0,
  ETHEREUM: 1,
  PASSKEY: 2,
  HANDLE: 3,
} as const

/** Where a signature sits in its action; used to name it in messages and views. */
export type SignatureRole =
  | 'initial_identifier_signature'
  | 'existing_member_signature'
  | 'new_member_signature'
  | 'recovery_identifier_signature'
  | 'existing_recovery_identifier_signature'
  | 'signature'

export type WireAction =
  | {
      readonly kind: 'create_inbox'
      readonly initialIdentifier: string
      readonly nonce: bigint
      readonly initialIdentifierKind: number
      readonly relyingParty?: string
      readonly initialIdentifierSignature: WireSignature
    }
  | {
      readonly kind: 'add'
      readonly newMemberIdentifier: WireMemberIdentifier
      readonly existingMemberSignature: WireSignature
      readonly newMemberSignature: WireSignature
      readonly relyingParty?: string
    }
  | {
      readonly kind: 'revoke'
      readonly memberToRevoke: WireMemberIdentifier
      readonly recoveryIdentifierSignature: WireSignature
    }
  | {
      readonly kind: 'change_recovery_address'
      readonly newRecoveryIdentifier: string
      readonly newRecoveryIdentifierKind: number
      readonly relyingParty?: string
      readonly existingRecoveryIdentifierSignature: WireSignature
    }
  | { readonly kind: 'claim_handle'; readonly handle: string; readonly signature: WireSignature }

export type ActionKind = WireAction['kind']

/**
 * A decoded identity update with the exact bytes it was decoded from (never
 * re-encoded). `bytesSource` says whether the bytes are the input's own or, for a
 * proto3 JSON log which carries no bytes, the canonical encoding of the parsed message.
 */
export interface UnverifiedUpdate {
  readonly inboxId: string
  readonly clientTimestampNs: bigint
  readonly actions: readonly WireAction[]
  readonly bytes: Uint8Array
  readonly bytesSource: 'input' | 'canonical-encoding'
}

/** One entry of a log as read from a file or a node, before decoding succeeded or not. */
export interface LogEntry {
  readonly sequenceId: bigint
  /** The decoded update, or the IDENT-001 reason it could not be decoded. */
  readonly update: UnverifiedUpdate | UndecodableUpdate
  readonly serverTimestampNs?: bigint
}

/** An entry whose bytes failed IDENT-001: the reason, and the failing action when known. */
export interface UndecodableUpdate {
  readonly error: string
  readonly actionIndex?: number | null
  readonly bytes?: Uint8Array
}

/** One inbox's log: entries in the order they were read (replay sorts them, IDENT-004). */
export interface InboxLog {
  /** The inbox id the container names, if it names one. */
  readonly inboxId?: string
  readonly entries: readonly LogEntry[]
  /** The format the log was read from. */
  readonly format: LogFormat
}

export type LogFormat =
  | 'bundle-json'
  | 'get-identity-updates-binary'
  | 'get-identity-updates-json'
  | 'single-update'
  | 'postgres-csv'

/** A member of the association state. */
export interface Member {
  readonly id: MemberId
  /** The existing signer that added it; null for the CreateInbox member (IDENT-042). */
  readonly adder: MemberId | null
  readonly clientTimestampNs: bigint
  /** eip155 chain id of the signature that added it; null for non-smart-wallet signatures. */
  readonly chainId: bigint | null
  /** Display only: a passkey's relying party / origin. */
  readonly relyingParty?: string
  /** Sequence id of the update that made it a member (section 9). */
  readonly addedAt: bigint
}

export interface Recovery {
  readonly id: MemberId
  readonly chainId: bigint | null
}

/**
 * The association state after a prefix of the log (Terms). Immutable: every reducer
 * returns a new value. `members` and `seen` are persistent collections (./persistent.ts),
 * so consecutive states share structure and a Trace stays O(n) in the log's length.
 */
export interface AssociationState {
  readonly inboxId: InboxId
  /** Keyed by memberKey(id). */
  readonly members: PMap<Member>
  readonly recovery: Recovery
  /** Index for the revocation cascade (IDENT-044): installation member keys by their adder's key. */
  readonly installationsByAdder: PMap<PSet>
  /** Claim order, display handle last (IDENT-082). */
  readonly handles: readonly string[]
  readonly claimCount: number
  /** Seen replay keys (IDENT-050), lowercase hex. */
  readonly seen: PSet
  /** Sequence id of the last applied update. */
  readonly sequenceId: bigint
}

export function memberKey(id: MemberId): string {
  return `${id.kind}:${id.text}`
}
