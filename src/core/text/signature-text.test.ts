import { describe, expect, it } from 'vitest'
import fc from 'fast-check'
import { formatTimestamp, timestampSeconds } from './timestamp'
import { actionLineRange, actionText, signatureText } from './signature-text'
import { memberIdentifierText } from './identifier'
import type { WireAction, WireSignature } from '../types'

const sig: WireSignature = { kind: 'erc_191', bytes: new Uint8Array(65) }
const A = `0x${'11'.repeat(20)}`

describe('formatTimestamp', () => {
  it('IDENT-020: formats RFC 3339 with no fraction and Z', () => {
    expect(formatTimestamp(1712750400_000000000n)).toBe('2024-04-10T12:00:00Z')
    expect(formatTimestamp(0n)).toBe('1970-01-01T00:00:00Z')
    expect(formatTimestamp(1712750400_999999999n)).toBe('2024-04-10T12:00:00Z')
  })
  it('IDENT-020: a value of 2^63 or more reads as before 1970, rounding toward negative infinity', () => {
    expect(timestampSeconds(2n ** 64n - 1n)).toBe(-1n) // -1 ns → floor(-1e-9) = -1 s
    expect(formatTimestamp(2n ** 64n - 1n)).toBe('1969-12-31T23:59:59Z')
    expect(formatTimestamp(2n ** 64n - 1_000_000_000n)).toBe('1969-12-31T23:59:59Z')
    expect(formatTimestamp(2n ** 64n - 1_000_000_001n)).toBe('1969-12-31T23:59:58Z')
    expect(formatTimestamp(2n ** 63n)).toBe('1677-09-21T00:12:43Z') // int64 min
    expect(formatTimestamp(2n ** 63n - 1n)).toBe('2262-04-11T23:47:16Z') // int64 max
  })
  // The form through Date that the arithmetic replaced.
  const viaDate = (ns: bigint): string => `${new Date(Number(timestampSeconds(ns)) * 1000).toISOString().slice(0, 19)}Z`
  const MIN_S = -9223372037n // floor(int64 min / 10^9)
  const MAX_S = 9223372036n // floor(int64 max / 10^9)
  it('IDENT-020: equals the Date form at both ends of every day of years 1677..2262', () => {
    const firstDay = MIN_S / 86400n - 1n
    const lastDay = MAX_S / 86400n + 1n
    for (let d = firstDay; d <= lastDay; d++) {
      for (const s of [d * 86400n, d * 86400n + 86399n, d * 86400n + 43261n]) {
        if (s < MIN_S || s > MAX_S) continue
        const ns = BigInt.asUintN(64, s * 1_000_000_000n)
        if (formatTimestamp(ns) !== viaDate(ns)) expect(formatTimestamp(ns)).toBe(viaDate(ns))
      }
    }
  })
  it('IDENT-020: equals the Date form for any 64-bit value (property)', () => {
    fc.assert(
      fc.property(fc.bigInt({ min: 0n, max: 2n ** 64n - 1n }), (ns) => {
        expect(formatTimestamp(ns)).toBe(viaDate(ns))
      }),
      { numRuns: 20000 },
    )
    for (const ns of [0n, 1n, 999_999_999n, 1_000_000_000n, 2n ** 63n, 2n ** 63n - 1n, 2n ** 63n + 1n, 2n ** 64n - 1n])
      expect(formatTimestamp(ns)).toBe(viaDate(ns))
    // Leap days, century rules and the year boundaries around them.
    for (const iso of [
      '1700-02-28T23:59:59Z',
      '1700-03-01T00:00:00Z',
      '2000-02-29T12:00:00Z',
      '2100-02-28T23:59:59Z',
      '1999-12-31T23:59:59Z',
      '2000-01-01T00:00:00Z',
      '1969-12-31T23:59:59Z',
    ]) {
      const ns = BigInt.asUintN(64, BigInt(Date.parse(iso) / 1000) * 1_000_000_000n)
      expect(formatTimestamp(ns)).toBe(iso)
    }
  })
})

describe('signatureText', () => {
  it('IDENT-020: builds the template byte-exact with every action kind', () => {
    const actions: WireAction[] = [
      {
        kind: 'create_inbox',
        initialIdentifier: A,
        nonce: 0n,
        initialIdentifierKind: 1,
        initialIdentifierSignature: sig,
      },
      {
        kind: 'add',
        newMemberIdentifier: { kind: 'installation', key: new Uint8Array(32).fill(0xab) },
        existingMemberSignature: sig,
        newMemberSignature: sig,
      },
      {
        kind: 'add',
        newMemberIdentifier: { kind: 'ethereum', address: A },
        existingMemberSignature: sig,
        newMemberSignature: sig,
      },
      {
        kind: 'add',
        newMemberIdentifier: { kind: 'passkey', key: Uint8Array.of(2, 0xff), relyingParty: 'example.com' },
        existingMemberSignature: sig,
        newMemberSignature: sig,
      },
      {
        kind: 'revoke',
        memberToRevoke: { kind: 'installation', key: new Uint8Array(32) },
        recoveryIdentifierSignature: sig,
      },
      { kind: 'revoke', memberToRevoke: { kind: 'ethereum', address: A }, recoveryIdentifierSignature: sig },
      { kind: 'revoke', memberToRevoke: { kind: 'passkey', key: Uint8Array.of(3) }, recoveryIdentifierSignature: sig },
      {
        kind: 'change_recovery_address',
        newRecoveryIdentifier: A,
        newRecoveryIdentifierKind: 1,
        existingRecoveryIdentifierSignature: sig,
      },
      { kind: 'claim_handle', handle: 'nick#2341', signature: sig },
    ]
    const text = signatureText({ inboxId: 'ab'.repeat(32), clientTimestampNs: 1712750400_000000000n, actions })
    expect(text).toBe(
      [
        'XMTP : Authenticate to inbox',
        '',
        `Inbox ID: ${'ab'.repeat(32)}`,
        'Current time: 2024-04-10T12:00:00Z',
        '',
        '- Create inbox',
        `  (Owner: ${A})`,
        '- Grant messaging access to app',
        `  (ID: ${'ab'.repeat(32)})`,
        '- Link address to inbox',
        `  (Address: ${A})`,
        '- Link passkey to inbox',
        '  (Passkey: 02ff)',
        '- Revoke messaging access from app',
        `  (ID: ${'00'.repeat(32)})`,
        '- Unlink address from inbox',
        `  (Address: ${A})`,
        '- Unlink passkey from inbox',
        '  (Passkey: 03)',
        '- Change inbox recovery address',
        `  (Address: ${A})`,
        '- Claim handle',
        '  (Handle: nick#2341)',
        '',
        'For more info: https://xmtp.org/signatures',
      ].join('\n'),
    )
    expect(text.endsWith('\n')).toBe(false)
    expect(text).not.toContain('example.com') // a relying_party never appears
    const lines = text.split('\n')
    const [a, b] = actionLineRange(8)
    expect(lines.slice(a, b + 1).join('\n')).toBe(actionText(actions[8]!))
  })

  it('IDENT-020: matches the 253-byte text of the shared Ed25519ph vector', () => {
    const t = signatureText({
      inboxId: 'ab'.repeat(32),
      clientTimestampNs: 1712750400_000000000n,
      actions: [
        {
          kind: 'create_inbox',
          initialIdentifier: A,
          nonce: 0n,
          initialIdentifierKind: 0,
          initialIdentifierSignature: sig,
        },
      ],
    })
    expect(new TextEncoder().encode(t).length).toBe(253)
  })
})

describe('memberIdentifierText', () => {
  it('IDENT-020: Ethereum as carried, keys as lowercase hex with no prefix', () => {
    expect(memberIdentifierText({ kind: 'ethereum', address: '0xAbC' })).toBe('0xAbC')
    expect(memberIdentifierText({ kind: 'installation', key: Uint8Array.of(0xde, 0xad) })).toBe('dead')
    expect(memberIdentifierText({ kind: 'passkey', key: Uint8Array.of(0x0a) })).toBe('0a')
  })
})
