import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { LogInputError } from '../errors'
import type { InboxLog } from '../types'
import {
  assertUniqueSequenceIds,
  decodeOrError,
  describeJson,
  entry,
  isDecoded,
  uint64FromJson,
  UINT64_MAX,
  undecodable,
} from './entry'
import { JsonBigInt } from './json'

describe('uint64FromJson', () => {
  it('accepts decimal strings, safe numbers and exact big integers within 0..2^64-1', () => {
    expect(uint64FromJson('0')).toBe(0n)
    expect(uint64FromJson('18446744073709551615')).toBe(UINT64_MAX)
    expect(uint64FromJson(42)).toBe(42n)
    expect(uint64FromJson(new JsonBigInt('18446744073709551615'))).toBe(UINT64_MAX)
  })
  it('refuses rounded numbers above 2^53 with advice, and everything else with a reason', () => {
    // biome-ignore lint/correctness/noPrecisionLoss: a JSON number above 2^53, rounded on purpose
    expect(uint64FromJson(9007199254740993)).toEqual({
      reason: expect.stringMatching(/above 2\^53.*decimal string/) as string,
    })
    for (const v of [
      '18446744073709551616',
      '-1',
      '1.0',
      ' 1',
      '',
      '0x10',
      -1,
      1.5,
      NaN,
      null,
      true,
      {},
      [],
      new JsonBigInt('-9007199254740993'),
      new JsonBigInt('18446744073709551616'),
    ]) {
      expect(typeof uint64FromJson(v), String(v)).toBe('object')
    }
  })
})

describe('assertUniqueSequenceIds', () => {
  const ok = { error: 'IDENT-001: x' }
  it('IDENT-004: passes distinct ids in any order and refuses a repeated one with both places', () => {
    const log: InboxLog = { entries: [entry(2n, ok), entry(1n, ok)], format: 'bundle-json' }
    expect(() => assertUniqueSequenceIds(log, (i) => `#${i}`)).not.toThrow()
    const dup: InboxLog = {
      inboxId: 'abc',
      entries: [entry(1n, ok), entry(2n, ok), entry(1n, ok)],
      format: 'bundle-json',
    }
    try {
      assertUniqueSequenceIds(dup, (i) => `$.updates[${i}]`)
      expect.unreachable()
    } catch (e) {
      expect(e).toBeInstanceOf(LogInputError)
      expect((e as LogInputError).where).toBe('$.updates[2]')
      expect((e as LogInputError).detail).toMatch(
        /sequence id 1 appears twice in the log of inbox abc \(also at \$\.updates\[0\]\)/,
      )
    }
  })
})

describe('assertUniqueSequenceIds (property)', () => {
  const ok = { error: 'IDENT-001: x' }
  it('IDENT-004: refuses exactly the logs with a repeated id, naming the first repeat, sorted or not', () => {
    fc.assert(
      fc.property(fc.array(fc.bigInt({ min: 0n, max: 12n }), { maxLength: 12 }), fc.boolean(), (ids, sort) => {
        const seqs = sort ? [...ids].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0)) : ids
        const log: InboxLog = { entries: seqs.map((s) => entry(s, ok)), format: 'bundle-json' }
        const repeat = seqs.findIndex((s, i) => seqs.indexOf(s) < i)
        if (repeat < 0) {
          expect(() => assertUniqueSequenceIds(log, (i) => `#${i}`)).not.toThrow()
          return
        }
        expect(() => assertUniqueSequenceIds(log, (i) => `#${i}`)).toThrow(
          new LogInputError(
            'bundle-json',
            `#${repeat}`,
            `sequence id ${seqs[repeat]} appears twice in the log (also at #${seqs.indexOf(seqs[repeat]!)})`,
          ),
        )
      }),
      { numRuns: 500 },
    )
  })
})

describe('decodeOrError', () => {
  it('IDENT-001: turns a failing decode into an error entry that keeps the bytes and the action index', () => {
    const bytes = new Uint8Array([0x0a, 0x00])
    const u = decodeOrError(bytes)
    expect(isDecoded(u)).toBe(false)
    expect(u).toEqual({
      error: expect.stringMatching(/^IDENT-001: actions\[0\]: kind is unset/) as string,
      actionIndex: 0,
      bytes,
    })
  })
})

describe('undecodable', () => {
  it('prefixes IDENT-001 and omits bytes when there are none', () => {
    expect(undecodable('bad hex', null)).toEqual({ error: 'IDENT-001: bad hex', actionIndex: null })
    expect('bytes' in undecodable('x', null)).toBe(false)
  })
})

describe('entry', () => {
  it('omits an absent server timestamp', () => {
    expect('serverTimestampNs' in entry(1n, { error: 'x' })).toBe(false)
    expect(entry(1n, { error: 'x' }, 0n).serverTimestampNs).toBe(0n)
  })
})

describe('isDecoded', () => {
  it('tells error entries apart', () => {
    expect(isDecoded({ error: 'x' })).toBe(false)
  })
})

describe('describeJson', () => {
  it('describes values for messages', () => {
    expect([null, undefined, [], {}, 'abc', 3, true].map(describeJson)).toEqual([
      'null',
      'nothing',
      'an array',
      'an object',
      'the string "abc"',
      'number 3',
      'boolean true',
    ])
  })
})
