/**
 * A strict RFC 8259 JSON reader for log files, used instead of `JSON.parse` for two
 * reasons:
 * - exact integers: `JSON.parse` rounds a number above 2^53 (9007199254740993 becomes
 *   …992), which would silently change a sequence id, nonce or timestamp. Here an
 *   integer literal (no fraction, no exponent) outside the safe range is returned as a
 *   `JsonBigInt` holding its exact text; every other number is a JS number.
 * - unambiguous objects: a duplicate key is an error (RFC 8259 §4 leaves its meaning to
 *   the implementation, and two readers of one log must not read two different logs).
 * Keys are stored as own data properties (a key "__proto__" is a plain key).
 *
 * Errors are `JsonSyntaxError` with the character offset, line and column, and for a
 * duplicate key the JSON path of the object.
 */
import { quote } from '../text/quote'

/** An integer literal outside ±(2^53 − 1), kept exactly as its decimal text. */
export class JsonBigInt {
  constructor(readonly text: string) {}
  toBigInt(): bigint {
    return BigInt(this.text)
  }
  toString(): string {
    return this.text
  }
}

export class JsonSyntaxError extends Error {
  override readonly name = 'JsonSyntaxError'
  constructor(
    readonly offset: number,
    readonly line: number,
    readonly column: number,
    readonly detail: string,
  ) {
    super(`${detail} at line ${line} column ${column} (character ${offset})`)
  }
}

const MAX_DEPTH = 512
/**
 * Runs the reader skips natively (sticky: each matches at lastIndex, possibly nothing): a
 * log is read once, so its reading runs cold, and a character loop in JavaScript over a
 * megabyte of update_hex took about 40 ms there against a few here.
 */
const WHITESPACE = /[ \t\n\r]*/y
/** The characters a string holds as they are: not a quote, a backslash or a control character. */
// biome-ignore lint/suspicious/noControlCharactersInRegex: RFC 8259 §7 refuses U+0000..U+001F unescaped in a string
const PLAIN = /[^"\\\u0000-\u001f]*/y

/** The path of a key for messages: `$.updates[0].sequence_id`, `$["a b"]`. */
export function jsonPathKey(path: string, key: string): string {
  return /^[A-Za-z_$][A-Za-z0-9_$]*$/.test(key) ? `${path}.${key}` : `${path}[${quote(key)}]`
}

class Reader {
  pos = 0
  /** The keys and indexes from the root to the value being read; its path is built only for an error. */
  private readonly segs: (string | number)[] = []
  constructor(readonly s: string) {}

  /** The path of the value being read: `$.updates[0]`. */
  path(): string {
    let p = '$'
    for (const seg of this.segs) p = typeof seg === 'number' ? `${p}[${seg}]` : jsonPathKey(p, seg)
    return p
  }

  fail(detail: string, at = this.pos): never {
    let line = 1
    let col = 1
    for (let i = 0; i < at && i < this.s.length; i++) {
      if (this.s.charCodeAt(i) === 0x0a) {
        line++
        col = 1
      } else col++
    }
    throw new JsonSyntaxError(at, line, col, detail)
  }

  ws(): void {
    WHITESPACE.lastIndex = this.pos
    WHITESPACE.test(this.s)
    this.pos = WHITESPACE.lastIndex
  }

  /** Past the plain characters of a string from here. */
  plain(): void {
    PLAIN.lastIndex = this.pos
    PLAIN.test(this.s)
    this.pos = PLAIN.lastIndex
  }

  describe(at: number): string {
    if (at >= this.s.length) return 'end of input'
    const c = this.s.charCodeAt(at)
    return c < 0x20 ? `control character U+${c.toString(16).padStart(4, '0').toUpperCase()}` : `"${this.s[at]}"`
  }

  value(depth: number): unknown {
    if (depth > MAX_DEPTH) this.fail(`nested deeper than ${MAX_DEPTH} levels`)
    this.ws()
    const c = this.s.charCodeAt(this.pos)
    switch (c) {
      case 0x7b: // {
        return this.object(depth)
      case 0x5b: // [
        return this.array(depth)
      case 0x22: // "
        return this.string()
      case 0x74: // t
        return this.literal('true', true)
      case 0x66: // f
        return this.literal('false', false)
      case 0x6e: // n
        return this.literal('null', null)
      default:
        if (c === 0x2d || (c >= 0x30 && c <= 0x39)) return this.number()
        return this.fail(`unexpected ${this.describe(this.pos)}, expected a JSON value`)
    }
  }

  literal<T>(word: string, v: T): T {
    if (this.s.startsWith(word, this.pos)) {
      this.pos += word.length
      return v
    }
    return this.fail(`unexpected ${this.describe(this.pos)}, expected a JSON value`)
  }

  number(): number | JsonBigInt {
    const m = /-?(?:0|[1-9][0-9]*)(\.[0-9]+)?([eE][+-]?[0-9]+)?/y
    m.lastIndex = this.pos
    const r = m.exec(this.s)
    if (!r) return this.fail(`invalid number`)
    const text = r[0]
    this.pos += text.length
    const n = Number(text)
    if (r[1] === undefined && r[2] === undefined && !Number.isSafeInteger(n)) return new JsonBigInt(text)
    return n
  }

  string(): string {
    const start = this.pos
    this.pos++ // opening quote
    let out = ''
    let run = this.pos
    for (;;) {
      this.plain()
      if (this.pos >= this.s.length) this.fail('unterminated string', start)
      const c = this.s.charCodeAt(this.pos)
      if (c === 0x22) {
        out += this.s.slice(run, this.pos)
        this.pos++
        return out
      }
      if (c < 0x20) this.fail(`unescaped ${this.describe(this.pos)} in a string`)
      if (c === 0x5c) {
        out += this.s.slice(run, this.pos)
        const e = this.s[this.pos + 1]
        switch (e) {
          case '"':
            out += '"'
            break
          case '\\':
            out += '\\'
            break
          case '/':
            out += '/'
            break
          case 'b':
            out += '\b'
            break
          case 'f':
            out += '\f'
            break
          case 'n':
            out += '\n'
            break
          case 'r':
            out += '\r'
            break
          case 't':
            out += '\t'
            break
          case 'u': {
            const hex = this.s.slice(this.pos + 2, this.pos + 6)
            if (!/^[0-9a-fA-F]{4}$/.test(hex)) this.fail('invalid \\u escape')
            out += String.fromCharCode(parseInt(hex, 16))
            this.pos += 4
            break
          }
          default:
            this.fail('invalid escape in a string')
        }
        this.pos += 2
        run = this.pos
        continue
      }
      this.pos++
    }
  }

  array(depth: number): unknown[] {
    this.pos++
    const out: unknown[] = []
    this.ws()
    if (this.s.charCodeAt(this.pos) === 0x5d) {
      this.pos++
      return out
    }
    for (;;) {
      this.segs.push(out.length)
      out.push(this.value(depth + 1))
      this.segs.pop()
      if (this.closes(0x5d)) return out
    }
  }

  object(depth: number): Record<string, unknown> {
    this.pos++
    const out: Record<string, unknown> = {}
    this.ws()
    if (this.s.charCodeAt(this.pos) === 0x7d) {
      this.pos++
      return out
    }
    for (;;) {
      this.ws()
      if (this.s.charCodeAt(this.pos) !== 0x22)
        this.fail(`unexpected ${this.describe(this.pos)}, expected a key string`)
      const keyAt = this.pos
      const key = this.string()
      // Every key read so far is an own property of out.
      if (Object.hasOwn(out, key)) this.fail(`duplicate key ${quote(key)} in the object at ${this.path()}`, keyAt)
      this.ws()
      if (this.s.charCodeAt(this.pos) !== 0x3a) this.fail(`unexpected ${this.describe(this.pos)}, expected ":"`)
      this.pos++
      this.segs.push(key)
      const v = this.value(depth + 1)
      this.segs.pop()
      // An own data property either way; "__proto__" would call Object.prototype's setter.
      if (key === '__proto__')
        Object.defineProperty(out, key, { value: v, enumerable: true, writable: true, configurable: true })
      else out[key] = v
      if (this.closes(0x7d)) return out
    }
  }

  /**
   * After an element or member: true at the closing bracket `close` (`]` or `}`), false at a
   * comma; either is consumed. Anything else fails.
   */
  closes(close: 0x5d | 0x7d): boolean {
    this.ws()
    const c = this.s.charCodeAt(this.pos)
    if (c !== 0x2c && c !== close) {
      this.fail(`unexpected ${this.describe(this.pos)}, expected "," or "${String.fromCharCode(close)}"`)
    }
    this.pos++
    return c === close
  }
}

/**
 * Parses JSON text strictly (see the module header). Leading and trailing whitespace is
 * allowed; anything else after the value is an error.
 * @throws JsonSyntaxError
 */
export function parseJson(text: string): unknown {
  const r = new Reader(text)
  const v = r.value(0)
  r.ws()
  if (r.pos < text.length) r.fail(`unexpected ${r.describe(r.pos)} after the JSON value`)
  return v
}
