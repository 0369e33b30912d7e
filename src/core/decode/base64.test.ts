/**
 * The log readers' base64 reading (./base64.ts: checked now, decoded later) against the
 * crypto layer's base64ToBytes (same check and table, held to @scure/base's coders in
 * src/crypto/bytes.test.ts): every spelling read to the same bytes; and, issue #14 finding 2, hex
 * text that is also tried as base64 never goes through base64ToBytes' per-character
 * arrays (counted calls, not memory or time).
 */
import fc from 'fast-check'
import { beforeEach, describe, expect, it, vi } from 'vitest'
import { base64urlNoPad, bytesToBase64, bytesToBase64url, bytesToHex } from '../../crypto/bytes'
import { LogInputError } from '../errors'
import { encodeUpdate } from '../encode/update'
import { base64Bytes } from './base64'
import { readLogs } from './logs'
import { thrown } from '../../../test/support/xmtpd-vectors'

const calls = vi.hoisted(() => ({ base64ToBytes: 0, decoded: 0 }))

vi.mock('../../crypto/bytes', async (importOriginal) => {
  const real = await importOriginal<typeof import('../../crypto/bytes')>()
  return {
    ...real,
    base64ToBytes: (s: string) => {
      calls.base64ToBytes++
      return real.base64ToBytes(s)
    },
  }
})

vi.mock('./base64', async (importOriginal) => {
  const real = await importOriginal<typeof import('./base64')>()
  return {
    ...real,
    base64Later: (s: string) => {
      const later = real.base64Later(s)
      return () => {
        calls.decoded++
        return later()
      }
    },
  }
})

const { base64ToBytes } = await vi.importActual<typeof import('../../crypto/bytes')>('../../crypto/bytes')

beforeEach(() => {
  calls.base64ToBytes = 0
  calls.decoded = 0
})

/** What base64ToBytes answers: the bytes (as hex) or its error message. */
function reference(s: string): string {
  try {
    return bytesToHex(base64ToBytes(s))
  } catch (e) {
    return `error: ${(e as Error).message}`
  }
}

function ours(s: string): string {
  try {
    return bytesToHex(base64Bytes(s))
  } catch (e) {
    return `error: ${(e as Error).message}`
  }
}

describe('base64 text for the log readers', () => {
  it('reads every byte string in all four spellings as base64ToBytes does', () => {
    fc.assert(
      fc.property(fc.uint8Array({ maxLength: 40 }), (b) => {
        for (const s of [bytesToBase64(b), bytesToBase64url(b), base64urlNoPad(b), bytesToBase64(b).replace(/=+$/, '')])
          expect(ours(s)).toBe(bytesToHex(b))
      }),
      { numRuns: 5_000 },
    )
  })
})

describe('issue #14: hex text tried as base64', () => {
  it('finding 2: 32 kB of 0a hex text is read as base64 without base64ToBytes (no array per character)', () => {
    // Before: 32 MB of this text peaked at 1.5 GB, in base64ToBytes' split, map and radix arrays.
    const text = new TextEncoder().encode('0a'.repeat(16_384))
    const err = thrown(() => readLogs(text, 'hex.txt'), LogInputError)
    // Both readings were still tried, in the same order: hex, then base64.
    const formats = err.attempts.map((a) => a.format)
    expect(formats.filter((f) => f.startsWith('hex → ')).length).toBe(2)
    expect(formats.filter((f) => f.startsWith('base64 → ')).length).toBe(2)
    expect(formats.indexOf('hex → single-update')).toBeLessThan(formats.indexOf('base64 → single-update'))
    expect(calls.decoded).toBe(1)
    expect(calls.base64ToBytes).toBe(0)
  })

  it('text that is not base64 asks base64ToBytes once, for its error message', () => {
    expect(() => readLogs(new TextEncoder().encode('0a!'.repeat(1000)), 'x.txt')).toThrow(LogInputError)
    expect(calls.base64ToBytes).toBe(1)
    expect(calls.decoded).toBe(0)
  })

  it('finding 2: hex text that is a log is not also decoded as base64', () => {
    // An even number of bytes: the hex is a multiple of four characters, so it is base64 too.
    const [u] = [64, 63]
      .map((n) =>
        encodeUpdate({
          inboxId: 'i'.repeat(n),
          clientTimestampNs: 1n,
          actions: [
            { kind: 'claim_handle', handle: 'nick', signature: { kind: 'erc_191', bytes: new Uint8Array(65) } },
          ],
        }),
      )
      .filter((b) => b.length % 2 === 0)
    const hex = bytesToHex(u!)
    expect(reference(hex)).not.toMatch(/^error/)
    const [log] = readLogs(new TextEncoder().encode(hex), 'u.hex')
    expect(log!.entries).toHaveLength(1)
    expect(calls.decoded).toBe(0)
    expect(calls.base64ToBytes).toBe(0)
  })
})
