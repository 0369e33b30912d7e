import { describe, expect, it, vi } from 'vitest'
import fc from 'fast-check'
import { Buffer } from 'node:buffer'
import { hexToBytes as nobleHexToBytes } from '@noble/hashes/utils.js'
import { base64, base64nopad, base64url, base64urlnopad } from '@scure/base'
import {
  base64ToBytes,
  base64urlNoPad,
  bytesToBase64,
  bytesToBase64url,
  bytesToHex,
  concatBytes,
  equalBytes,
  hexToBytes,
  utf8,
} from './bytes'
import type { CryptoError } from './errors'
import { codeOf } from './support.testkit'

const u8 = (...b: number[]) => Uint8Array.from(b)

/** The property that `encode` writes any bytes as `buffer` writes them with node's Buffer. */
function agreesWithBuffer(encode: (b: Uint8Array) => string, buffer: (b: Buffer) => string): void {
  fc.assert(
    fc.property(fc.uint8Array({ maxLength: 100 }), (b) => {
      expect(encode(b)).toBe(buffer(Buffer.from(b)))
    }),
  )
}

describe('hexToBytes', () => {
  describe('valid', () => {
    it.each([
      ['', []],
      ['0x', []],
      ['00', [0]],
      ['0x00ff', [0, 255]],
      ['0XABcd', [0xab, 0xcd]],
      ['deadBEEF', [0xde, 0xad, 0xbe, 0xef]],
      ['0x0123456789abcdefABCDEF', [0x01, 0x23, 0x45, 0x67, 0x89, 0xab, 0xcd, 0xef, 0xab, 0xcd, 0xef]],
    ])('%j', (hex, bytes) => {
      expect(hexToBytes(hex)).toEqual(Uint8Array.from(bytes))
    })
    it('round-trips with bytesToHex (property)', () => {
      fc.assert(
        fc.property(fc.uint8Array({ maxLength: 64 }), (b) => {
          expect(hexToBytes(bytesToHex(b))).toEqual(b)
          expect(hexToBytes(`0x${bytesToHex(b).toUpperCase()}`)).toEqual(b)
        }),
      )
    })
  })
  describe('invalid', () => {
    it.each([
      ['0', 'bad-length', /odd number of hex digits \(1\)/],
      ['0x123', 'bad-length', /odd number of hex digits \(3\)/],
      ['zz', 'bad-encoding', /invalid character "z" at index 0/],
      ['0x0g', 'bad-encoding', /invalid character "g" at index 3/],
      ['0x 1', 'bad-encoding', /invalid character " " at index 2/],
      ['00\n0', 'bad-encoding', /invalid character \\u000a at index 2/],
      ['x0', 'bad-encoding', /invalid character "x" at index 0/],
      ['0x0x', 'bad-encoding', /invalid character "x" at index 3/],
      ['+1', 'bad-encoding', /index 0/],
    ])('%j', (hex, code, message) => {
      expect(codeOf(() => hexToBytes(hex))).toBe(code)
      expect(() => hexToBytes(hex)).toThrow(message)
    })
    it('throws an Error', () => {
      expect(() => hexToBytes('abc')).toThrow(Error)
    })
    it('non-ASCII and non-BMP characters are refused at their index', () => {
      expect(() => hexToBytes('0x00é0')).toThrow(/invalid character "é" at index 4/)
      expect(() => hexToBytes('0\u0130')).toThrow(/invalid character "İ" at index 1/)
      expect(() => hexToBytes('00\ud83d\ude00')).toThrow(/at index 2/)
    })
  })
  it('gives what @noble/hashes gives, and refuses what it refuses (property)', () => {
    // The decoder this table replaced (with this module's prefix and error rules around it).
    const previous = (text: string): Uint8Array | string => {
      const digits = text.startsWith('0x') || text.startsWith('0X') ? text.slice(2) : text
      if (digits.length % 2 !== 0) return 'bad-length'
      try {
        return nobleHexToBytes(digits)
      } catch {
        return 'bad-encoding'
      }
    }
    const ours = (text: string): Uint8Array | string => {
      try {
        return hexToBytes(text)
      } catch (e) {
        return codeOf(() => {
          throw e
        })
      }
    }
    const char = fc.constantFrom(...'0123456789abcdefABCDEFgGxX \n\u0000\u0080\u0130\uffff')
    fc.assert(
      fc.property(fc.constantFrom('', '0x', '0X'), fc.array(char, { maxLength: 40 }), (prefix, cs) => {
        const text = prefix + cs.join('')
        expect(ours(text)).toEqual(previous(text))
      }),
      { numRuns: 2000 },
    )
  })
})

/** The bytes, or the code and message of the CryptoError thrown (a reloaded module has its own class: told apart by name). */
function outcome(f: (t: string) => Uint8Array, text: string): Uint8Array | string {
  try {
    return f(text)
  } catch (e) {
    if (!(e instanceof Error) || e.name !== 'CryptoError') throw e
    return `${(e as CryptoError).code}: ${e.message}`
  }
}

/**
 * Hex text, mostly digits of either case after an optional prefix, sometimes odd in length,
 * sometimes with a character a host decoder might misread (İ is U+0130, whose low byte is
 * "0"; š is U+0161, low byte "a") or stop at.
 */
const hexWithStrays = fc
  .tuple(
    fc.constantFrom('', '0x', '0X'),
    fc.uint8Array({ minLength: 28, maxLength: 200 }),
    fc.boolean(),
    fc.array(fc.tuple(fc.nat(), fc.constantFrom(...'gGxX \n\u0000\u007f\u0080\u00ff\u0130\u0161\u3130\uffff\ud83d')), {
      maxLength: 2,
    }),
    fc.nat({ max: 1 }),
  )
  .map(([prefix, b, upper, strays, odd]) => {
    const cs = [...(upper ? bytesToHex(b).toUpperCase() : bytesToHex(b))]
    for (const [at, c] of strays) cs[at % cs.length] = c
    return prefix + cs.join('') + (odd ? 'a' : '')
  })

/** The module loaded afresh with no Buffer on globalThis (or `buffer`): as a browser loads it. */
async function withoutBuffer(buffer: unknown = undefined): Promise<typeof import('./bytes')> {
  vi.resetModules()
  vi.stubGlobal('Buffer', buffer)
  try {
    return await import('./bytes')
  } finally {
    vi.unstubAllGlobals()
    vi.resetModules()
  }
}

describe('hexToBytes: the host decoder (Node Buffer) and the table agree', () => {
  it('the module without Buffer really decodes by the table (no Buffer call)', async () => {
    hexToBytes('ab'.repeat(32)) // the first use checks the host's decoder (strictHostHex)
    const write = vi.spyOn(Buffer.prototype, 'write')
    try {
      const m = await withoutBuffer()
      expect(m.hexToBytes('ab'.repeat(100))).toEqual(new Uint8Array(100).fill(0xab))
      expect(write).not.toHaveBeenCalled()
      // With Buffer, a text of 64 digits or more goes to it, a shorter one does not.
      hexToBytes('ab'.repeat(31))
      expect(write).not.toHaveBeenCalled()
      hexToBytes('ab'.repeat(32))
      expect(write).toHaveBeenCalledTimes(1)
    } finally {
      write.mockRestore()
    }
  })

  it('gives the same bytes or the same error as the table, on long texts with stray characters (property)', async () => {
    const table = (await withoutBuffer()).hexToBytes
    fc.assert(
      fc.property(hexWithStrays, (t) => {
        const ours = outcome(hexToBytes, t)
        expect(ours).toEqual(outcome(table, t))
        if (typeof ours !== 'string') expect(ours).toEqual(new Uint8Array(Buffer.from(t.replace(/^0x/i, ''), 'hex')))
      }),
      { numRuns: 3000 },
    )
  })

  it('never uses a Buffer whose hex decoder reads pairs with parseInt (a browser polyfill)', async () => {
    // As the npm "buffer" package decodes: parseInt of each pair, stopping only at NaN.
    class LooseBuffer extends Uint8Array {
      static allocUnsafeSlow(n: number): LooseBuffer {
        return new LooseBuffer(n)
      }
      static byteLength(text: string): number {
        return new TextEncoder().encode(text).length
      }
      write(text: string, offset: number, length: number): number {
        let i = 0
        for (; i < Math.min(length, text.length >> 1); i++) {
          const v = Number.parseInt(text.substring(2 * i, 2 * i + 2), 16)
          if (Number.isNaN(v)) break
          this[offset + i] = v
        }
        return i
      }
    }
    const m = await withoutBuffer(LooseBuffer)
    const text = `0g${'ab'.repeat(40)}`
    expect(() => m.hexToBytes(text)).toThrow('hex: invalid character "g" at index 1')
    expect(m.hexToBytes(`+1${'ab'.repeat(40)}`.replace('+1', '01'))).toEqual(
      Uint8Array.from([1, ...new Array(40).fill(0xab)]),
    )
  })

  it('refuses a character above U+00FF whose low byte is a hex digit, at its index', () => {
    const t = `${'ab'.repeat(40)}\u0130\u0161`
    expect(() => hexToBytes(t)).toThrow('hex: invalid character "İ" at index 80')
    expect(Buffer.from(t, 'hex').length).toBe(41) // what Buffer alone would have read
  })

  it('returns plain Uint8Arrays with their own memory, of any size in any order (property)', () => {
    fc.assert(
      fc.property(fc.array(fc.uint8Array({ minLength: 32, maxLength: 12_000 }), { maxLength: 5 }), (bs) => {
        const got = bs.map((b) => hexToBytes(bytesToHex(b)))
        expect(got).toEqual(bs)
        for (const g of got) {
          expect(Object.getPrototypeOf(g)).toBe(Uint8Array.prototype)
          expect(g.byteOffset).toBe(0)
          expect(g.buffer.byteLength).toBe(g.length)
        }
      }),
      { numRuns: 40 },
    )
  })
})

describe("hexToBytes and bytesToHex: the host's Uint8Array.fromHex and toHex (a browser)", () => {
  /** As specified (TC39 "Uint8Array to/from base64 and hex"): strict digits, even length, lowercase out. */
  const specFromHex = vi.fn((text: string): Uint8Array => {
    if (text.length % 2 !== 0 || !/^[0-9a-fA-F]*$/.test(text))
      throw new SyntaxError('Input string must contain hex characters in even length')
    return new Uint8Array(Buffer.from(text, 'hex'))
  })
  const specToHex = vi.fn(function (this: Uint8Array): string {
    return Buffer.from(this.buffer, this.byteOffset, this.length).toString('hex')
  })
  /** The module as a browser with these methods loads it: no Buffer, the methods on Uint8Array. */
  async function withHostHex(fromHex: (t: string) => Uint8Array, toHex: (this: Uint8Array) => string) {
    const U = Uint8Array as unknown as { fromHex?: unknown }
    const P = Uint8Array.prototype as unknown as { toHex?: unknown }
    U.fromHex = fromHex
    P.toHex = toHex
    try {
      return await withoutBuffer()
    } finally {
      delete U.fromHex
      delete P.toHex
    }
  }

  it('decodes 64 digits or more by fromHex and encodes by toHex, with what the tables give', async () => {
    const m = await withHostHex(specFromHex, specToHex)
    specFromHex.mockClear()
    specToHex.mockClear()
    expect(m.hexToBytes(`0x${'aB'.repeat(40)}`)).toEqual(new Uint8Array(40).fill(0xab))
    expect(specFromHex).toHaveBeenCalledTimes(1)
    expect(specFromHex).toHaveBeenLastCalledWith('aB'.repeat(40))
    expect(m.hexToBytes('ab'.repeat(31))).toEqual(new Uint8Array(31).fill(0xab))
    expect(specFromHex).toHaveBeenCalledTimes(1) // a short text stays with the table
    expect(m.bytesToHex(Uint8Array.of(0, 0xff, 0x0a))).toBe('00ff0a')
    expect(specToHex).toHaveBeenCalledTimes(1)
  })

  it('gives the same bytes or the same error as the table, whatever fromHex refuses (property)', async () => {
    const m = await withHostHex(specFromHex, specToHex)
    fc.assert(
      fc.property(hexWithStrays, fc.uint8Array({ maxLength: 300 }), (t, b) => {
        expect(outcome(m.hexToBytes, t)).toEqual(outcome(hexToBytes, t))
        expect(m.bytesToHex(b)).toBe(bytesToHex(b))
      }),
      { numRuns: 1000 },
    )
  })

  it('never uses a fromHex that reads pairs with parseInt, nor a toHex that writes uppercase', async () => {
    const loose = vi.fn((text: string) =>
      Uint8Array.from(text.match(/../g) ?? [], (pair) => Number.parseInt(pair, 16) || 0),
    )
    const upper = vi.fn(function (this: Uint8Array) {
      return Buffer.from(this).toString('hex').toUpperCase()
    })
    const m = await withHostHex(loose, upper)
    loose.mockClear()
    upper.mockClear()
    expect(() => m.hexToBytes(`0g${'ab'.repeat(40)}`)).toThrow('hex: invalid character "g" at index 1')
    expect(m.bytesToHex(Uint8Array.of(0xab))).toBe('ab')
    expect(loose).not.toHaveBeenCalled()
    expect(upper).not.toHaveBeenCalled()
  })
})

describe('bytesToHex', () => {
  it('is lowercase without prefix', () => {
    expect(bytesToHex(u8(0, 1, 0xab, 0xff))).toBe('0001abff')
    expect(bytesToHex(new Uint8Array())).toBe('')
  })
  it('agrees with Buffer (property)', () => agreesWithBuffer(bytesToHex, (b) => b.toString('hex')))
  it('reads only the view of a subarray', () => {
    expect(bytesToHex(u8(1, 2, 3, 4).subarray(1, 3))).toBe('0203')
  })
  it('agrees with Buffer past its scratch buffer, and after it, in any order of sizes (property)', () => {
    fc.assert(
      fc.property(fc.array(fc.uint8Array({ maxLength: 6000 }), { maxLength: 6 }), (bs) => {
        const all = bs.map(bytesToHex)
        expect(all).toEqual(bs.map((b) => Buffer.from(b).toString('hex')))
      }),
      { numRuns: 60 },
    )
    const every = Uint8Array.from({ length: 256 }, (_, i) => i)
    expect(bytesToHex(every)).toBe(Buffer.from(every).toString('hex'))
  })
})

describe('utf8', () => {
  it.each([
    ['', []],
    ['abc', [0x61, 0x62, 0x63]],
    ['é', [0xc3, 0xa9]],
    ['€', [0xe2, 0x82, 0xac]],
    ['😀', [0xf0, 0x9f, 0x98, 0x80]],
    ['\ud800', [0xef, 0xbf, 0xbd]], // lone surrogate: U+FFFD, as TextEncoder does
  ])('%j', (s, bytes) => {
    expect(utf8(s)).toEqual(Uint8Array.from(bytes))
  })
  it('agrees with Buffer (property)', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'grapheme' }), (s) => {
        expect(equalBytes(utf8(s), Buffer.from(s, 'utf8'))).toBe(true)
      }),
    )
  })
})

describe('concatBytes', () => {
  it('joins in order into a new array', () => {
    const a = u8(1, 2)
    const out = concatBytes(a, new Uint8Array(), u8(3), u8(4, 5).subarray(1))
    expect(out).toEqual(u8(1, 2, 3, 5))
    out[0] = 9
    expect(a[0]).toBe(1)
  })
  it('of nothing is empty', () => {
    expect(concatBytes()).toEqual(new Uint8Array())
  })
})

describe('equalBytes', () => {
  it.each([
    [[], [], true],
    [[1, 2], [1, 2], true],
    [[1, 2], [1, 3], false],
    [[1, 2], [1, 2, 0], false],
    [[0], [], false],
  ])('%j vs %j', (a, b, eq) => {
    expect(equalBytes(Uint8Array.from(a), Uint8Array.from(b))).toBe(eq)
  })
})

// RFC 4648 §10 test vectors.
const RFC4648: [string, string][] = [
  ['', ''],
  ['f', 'Zg=='],
  ['fo', 'Zm8='],
  ['foo', 'Zm9v'],
  ['foob', 'Zm9vYg=='],
  ['fooba', 'Zm9vYmE='],
  ['foobar', 'Zm9vYmFy'],
]

describe('bytesToBase64', () => {
  it.each(RFC4648)('RFC 4648 §10 %j', (text, b64) => {
    expect(bytesToBase64(utf8(text))).toBe(b64)
  })
  it('uses + and / and pads', () => {
    expect(bytesToBase64(u8(0xfb, 0xff))).toBe('+/8=')
  })
  it('agrees with Buffer (property)', () => agreesWithBuffer(bytesToBase64, (b) => b.toString('base64')))
})

describe('bytesToBase64url', () => {
  it('uses - and _ and pads (RFC 4648 §5)', () => {
    expect(bytesToBase64url(u8(0xfb, 0xff))).toBe('-_8=')
    expect(bytesToBase64url(utf8('f'))).toBe('Zg==')
  })
  it('is base64 with the url-safe alphabet (property)', () =>
    agreesWithBuffer(bytesToBase64url, (b) => b.toString('base64').replaceAll('+', '-').replaceAll('/', '_')))
})

describe('base64urlNoPad', () => {
  it.each(RFC4648)('RFC 4648 §10 %j without padding', (text, b64) => {
    expect(base64urlNoPad(utf8(text))).toBe(b64.replace(/=+$/, ''))
  })
  it('uses - and _', () => {
    expect(base64urlNoPad(u8(0xfb, 0xff))).toBe('-_8')
  })
  it('agrees with Buffer past its scratch buffer, after it and beside bytesToHex (property)', () => {
    fc.assert(
      fc.property(fc.array(fc.uint8Array({ maxLength: 7000 }), { maxLength: 6 }), (bs) => {
        const all = bs.map((b) => [base64urlNoPad(b), bytesToBase64(b), bytesToHex(b)])
        expect(all).toEqual(
          bs.map((b) => [
            Buffer.from(b).toString('base64url'),
            Buffer.from(b).toString('base64'),
            Buffer.from(b).toString('hex'),
          ]),
        )
      }),
      { numRuns: 60 },
    )
  })
  it('agrees with Buffer base64url (property)', () => agreesWithBuffer(base64urlNoPad, (b) => b.toString('base64url')))
})

describe('base64ToBytes', () => {
  describe('valid', () => {
    it.each(RFC4648)('RFC 4648 §10 %j, padded and unpadded', (text, b64) => {
      expect(base64ToBytes(b64)).toEqual(utf8(text))
      expect(base64ToBytes(b64.replace(/=+$/, ''))).toEqual(utf8(text))
    })
    it.each([
      ['+/8=', [0xfb, 0xff]],
      ['+/8', [0xfb, 0xff]],
      ['-_8=', [0xfb, 0xff]],
      ['-_8', [0xfb, 0xff]],
      ['AAAA', [0, 0, 0]],
    ])('%j', (s, bytes) => {
      expect(base64ToBytes(s)).toEqual(Uint8Array.from(bytes))
    })
    it('round-trips every encoder (property)', () => {
      fc.assert(
        fc.property(fc.uint8Array({ maxLength: 100 }), (b) => {
          expect(base64ToBytes(bytesToBase64(b))).toEqual(b)
          expect(base64ToBytes(bytesToBase64url(b))).toEqual(b)
          expect(base64ToBytes(base64urlNoPad(b))).toEqual(b)
        }),
      )
    })
  })
  describe('invalid', () => {
    it.each([
      ['A', 'bad-length', /4k\+1/],
      ['AAAAA', 'bad-length', /4k\+1/],
      ['Zg=', 'bad-length', /multiple of 4/],
      ['Zm8==', 'bad-length', /multiple of 4/],
      ['A===', 'bad-encoding', /3 padding characters/],
      ['====', 'bad-encoding', /4 padding characters/],
      ['Zg==Zg==', 'bad-encoding', /padding "=" before the end at index 2/],
      ['Zm9v YmFy', 'bad-encoding', /invalid character " " at index 4/],
      ['Zm9v\nYmFy', 'bad-encoding', /\\u000a at index 4/],
      ['Zm9v*mFy', 'bad-encoding', /invalid character "\*" at index 4/],
      ['Zm9vé', 'bad-encoding', /invalid character "é" at index 4/],
      ['+/-_', 'bad-encoding', /mixes the standard alphabet/],
      ['Zh==', 'bad-encoding', /non-zero unused bits/], // 'f' is Zg==; Zh sets a pad bit
      ['Zm9=', 'bad-encoding', /non-zero unused bits/], // 'fo' is Zm8=
      ['Zh', 'bad-encoding', /non-zero unused bits/],
    ])('%j', (s, code, message) => {
      expect(codeOf(() => base64ToBytes(s))).toBe(code)
      expect(() => base64ToBytes(s)).toThrow(message)
    })
  })
  it("accepts exactly what @scure/base's strict coders accept, with the same bytes; refuses the rest with a CryptoError (property)", () => {
    // The reference: scure's coder for the text's alphabet and padding; 4k+1 characters are no length.
    const scure = (s: string): string => {
      const padded = s.endsWith('=')
      const coder = /[-_]/.test(s) ? (padded ? base64url : base64urlnopad) : padded ? base64 : base64nopad
      try {
        if (!padded && s.length % 4 === 1) return 'refused'
        return bytesToHex(coder.decode(s))
      } catch {
        return 'refused'
      }
    }
    const ours = (s: string): string => {
      try {
        return bytesToHex(base64ToBytes(s))
      } catch (e) {
        return ['bad-encoding', 'bad-length'].includes((e as CryptoError).code) ? 'refused' : `thrown: ${e}`
      }
    }
    // Characters chosen to hit every rule: both alphabets, padding, spare bits, strays.
    const ch = fc.constantFrom(...'AQgw/+-_=aZ09 !é\n'.split(''), 'AAAA', 'B', 'E', '==')
    fc.assert(
      fc.property(fc.array(ch, { maxLength: 24 }), (parts) => {
        const s = parts.join('')
        expect(ours(s)).toBe(scure(s))
      }),
      { numRuns: 20_000 },
    )
    fc.assert(
      fc.property(fc.uint8Array({ maxLength: 60 }), (b) => {
        for (const s of [bytesToBase64(b), bytesToBase64url(b), base64urlNoPad(b)]) expect(ours(s)).toBe(scure(s))
      }),
    )
  })
})
