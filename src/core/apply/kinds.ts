/**
 * IdentifierKind of a CreateInbox or ChangeRecoveryAddress (IDENT-077) and the
 * Ethereum identifier form (IDENT-013).
 */
import { RuleViolation } from '../errors'
import { isEthAddress } from '../text/identifier'
import { IdentifierKindValue, type MemberId, type WireMemberIdentifier } from '../types'
import { quote } from '../text/quote'

const KIND_NAMES: Record<number, string> = {
  0: 'IDENTIFIER_KIND_UNSPECIFIED',
  1: 'IDENTIFIER_KIND_ETHEREUM',
  2: 'IDENTIFIER_KIND_PASSKEY',
  3: 'IDENTIFIER_KIND_HANDLE',
}

/** IDENT-077: UNSPECIFIED (read as Ethereum), ETHEREUM or PASSKEY; anything else is rejected. */
export function signingKind(kind: number, field: string, actionIndex: number): 'ethereum' | 'passkey' {
  if (kind === IdentifierKindValue.UNSPECIFIED || kind === IdentifierKindValue.ETHEREUM) return 'ethereum'
  if (kind === IdentifierKindValue.PASSKEY) return 'passkey'
  throw new RuleViolation(
    'IDENT-077',
    actionIndex,
    `${field} is ${KIND_NAMES[kind] ?? `the unlisted value ${kind}`}, expected IDENTIFIER_KIND_UNSPECIFIED, IDENTIFIER_KIND_ETHEREUM or IDENTIFIER_KIND_PASSKEY`,
    {
      check: 'identifier-kind',
      expected: 'IDENTIFIER_KIND_UNSPECIFIED, IDENTIFIER_KIND_ETHEREUM or IDENTIFIER_KIND_PASSKEY',
      found: KIND_NAMES[kind] ?? String(kind),
    },
  )
}

/** IDENT-013: an Ethereum identifier is 0x followed by exactly 40 lowercase hex characters. */
function requireEthForm(text: string, field: string, actionIndex: number): void {
  if (!isEthAddress(text)) {
    throw new RuleViolation(
      'IDENT-013',
      actionIndex,
      `${field} ${quote(text)} is not 0x followed by exactly 40 lowercase hexadecimal characters`,
      { check: 'identifier-form', expected: '0x followed by 40 lowercase hexadecimal characters', found: text },
    )
  }
}

/** A carried identifier string under its kind, checked. */
export function identifierOf(text: string, kind: 'ethereum' | 'passkey', field: string, actionIndex: number): MemberId {
  if (kind === 'ethereum') requireEthForm(text, field, actionIndex)
  return { kind, text }
}

/** IDENT-013 for a MemberIdentifier carrying an Ethereum address. */
export function requireMemberForm(id: WireMemberIdentifier, field: string, actionIndex: number): void {
  if (id.kind === 'ethereum') requireEthForm(id.address, field, actionIndex)
}
