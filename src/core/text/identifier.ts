/**
 * Identifier text (spec section 3, second table): how a member is written in the
 * signature text, the state and the reports.
 *   Ethereum      the address as carried: 0x and 40 lowercase hex characters
 *   Installation  64 lowercase hex characters of the 32-byte key, no prefix
 *   Passkey       lowercase hex of Passkey.key, no prefix
 */
import { bounded } from './quote'
import { bytesToHex } from '../../crypto/bytes'
import type { MemberId, WireMemberIdentifier } from '../types'

/** The identifier text of a carried MemberIdentifier (Ethereum as carried, unchecked). */
export function memberIdentifierText(id: WireMemberIdentifier): string {
  switch (id.kind) {
    case 'ethereum':
      return id.address
    case 'installation':
    case 'passkey':
      return bytesToHex(id.key)
  }
}

export function memberIdOf(id: WireMemberIdentifier): MemberId {
  return { kind: id.kind, text: memberIdentifierText(id) }
}

const ETH_ADDRESS = /^0x[0-9a-f]{40}$/

/** IDENT-013: 0x followed by exactly 40 lowercase hexadecimal characters. */
export function isEthAddress(s: string): boolean {
  return ETH_ADDRESS.test(s)
}

export function sameMember(a: MemberId | null | undefined, b: MemberId | null | undefined): boolean {
  return !!a && !!b && a.kind === b.kind && a.text === b.text
}

export function describeMember(id: MemberId): string {
  // Bounded (issue #14): a passkey key of any length is carried as its hex.
  return `${id.kind} ${bounded(id.text, 160)}`
}
