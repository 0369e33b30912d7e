import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { JsonBigInt, JsonSyntaxError, jsonPathKey, parseJson } from './json'

describe('parseJson', () => {
  it('parses what JSON.parse parses, to the same value (safe numbers)', () => {
    fc.assert(
      fc.property(fc.jsonValue({ maxDepth: 4 }), (v) => {
        const text = JSON.stringify(v)
        const mine = parseJson(text)
        const theirs = JSON.parse(text) as unknown
        expect(JSON.stringify(mine, (_k, x: unknown) => (x instanceof JsonBigInt ? Number(x.text) : x))).toBe(
          JSON.stringify(theirs),
        )
      }),
      { numRuns: 300 },
    )
  })

  it('keeps integers beyond 2^53 exactly, and safe ones as numbers', () => {
    const v = parseJson(
      '{"a": 9007199254740993, "b": 18446744073709551615, "c": 9007199254740991, "d": -9007199254740993, "e": 1e21}',
    ) as Record<string, unknown>
    expect(v.a).toEqual(new JsonBigInt('9007199254740993'))
    expect((v.b as JsonBigInt).toBigInt()).toBe(18446744073709551615n)
    expect(v.c).toBe(9007199254740991)
    expect((v.d as JsonBigInt).text).toBe('-9007199254740993')
    expect(v.e).toBe(1e21)
  })

  it('refuses duplicate keys, naming the object path', () => {
    expect(() => parseJson('{"updates": [{"sequence_id": 1, "sequence_id": 2}]}')).toThrow(
      /duplicate key "sequence_id" in the object at \$\.updates\[0\]/,
    )
  })

  it('names the path of a duplicate key through arrays and keys that need quoting', () => {
    expect(() => parseJson('{"a b": [0, {"c": {"d": [[], [{"x": 1, "x": 2}]]}}]}')).toThrow(
      /duplicate key "x" in the object at \$\["a b"\]\[1\]\.c\.d\[1\]\[0\] at line 1/,
    )
    expect(() => parseJson('{"k": 1, "k": 2}')).toThrow(/duplicate key "k" in the object at \$ at line 1 column 10/)
    // A key equal to a property every object inherits is a key like any other.
    expect(parseJson('{"toString": 1, "hasOwnProperty": 2}')).toEqual({ toString: 1, hasOwnProperty: 2 })
    expect(() => parseJson('{"__proto__": 1, "__proto__": 2}')).toThrow(/duplicate key "__proto__"/)
  })

  it('reads long plain runs and stops at what ends or breaks them', () => {
    const run = 'ab01'.repeat(5000)
    expect(parseJson(`["${run}", "${run}\\n${run}", ""]`)).toEqual([run, `${run}\n${run}`, ''])
    for (const [bad, detail] of [
      [`"${run}\n"`, /unescaped control character U\+000A in a string at line 1 column 20002 \(character 20001\)/],
      [`"${run}\u0001${run}"`, /unescaped control character U\+0001 in a string/],
      [`["${run}`, /unterminated string at line 1 column 2 \(character 1\)/],
      [`"${run}\\q"`, /invalid escape in a string/],
    ] as const) {
      expect(() => parseJson(bad)).toThrow(detail)
    }
    // Whitespace of every allowed kind between tokens, none inside a number.
    expect(parseJson(' \t\r\n[ 1 ,\n\t2 ]\r\n ')).toEqual([1, 2])
    expect(() => parseJson('[1\u000b]')).toThrow(JsonSyntaxError)
  })

  it('stores "__proto__" as a plain key', () => {
    const v = parseJson('{"__proto__": {"x": 1}}') as Record<string, unknown>
    expect(Object.getPrototypeOf(v)).toBe(Object.prototype)
    expect(Object.keys(v)).toEqual(['__proto__'])
  })

  it('reports line, column and offset of a syntax error', () => {
    try {
      parseJson('{\n  "a": 1,\n  "b": tru\n}')
      expect.unreachable()
    } catch (e) {
      expect(e).toBeInstanceOf(JsonSyntaxError)
      const j = e as JsonSyntaxError
      expect([j.line, j.column]).toEqual([3, 8])
    }
  })

  it('refuses what RFC 8259 refuses', () => {
    for (const bad of [
      '',
      '{',
      '[1,]',
      '{"a":1,}',
      "{'a':1}",
      '01',
      '1.',
      '.5',
      '+1',
      '"\\x"',
      '"a\nb"',
      'NaN',
      '[1] x',
      '"\\u12"',
    ]) {
      expect(() => parseJson(bad), bad).toThrow(JsonSyntaxError)
    }
  })

  it('decodes escapes, including surrogate pairs and lone surrogates as given', () => {
    expect(parseJson('"\\"\\\\\\/\\b\\f\\n\\r\\t\\u00e9\\ud83d\\ude00"')).toBe('"\\/\b\f\n\r\té\u{1F600}')
    expect(parseJson('"\\ud800"')).toBe('\ud800')
  })
})

describe('JsonBigInt', () => {
  it('prints and converts its exact text', () => {
    const b = new JsonBigInt('123456789012345678901')
    expect(String(b)).toBe('123456789012345678901')
    expect(b.toBigInt()).toBe(123456789012345678901n)
  })
})

describe('JsonSyntaxError', () => {
  it('says where', () => {
    expect(new JsonSyntaxError(5, 2, 3, 'oops').message).toBe('oops at line 2 column 3 (character 5)')
  })
})

describe('jsonPathKey', () => {
  it('uses dots for identifiers and brackets otherwise', () => {
    expect(jsonPathKey('$', 'updates')).toBe('$.updates')
    expect(jsonPathKey('$', 'a b')).toBe('$["a b"]')
  })
})
