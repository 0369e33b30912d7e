/**
 * Issue #14, finding 7: messages quote a bounded prefix of an attacker's string, with its
 * total length, never the whole string.
 */
import { describe, expect, it } from 'vitest'
import { LogInputError } from '../errors'
import { readLogs } from '../decode/logs'
import { uint64FromJson } from '../decode/entry'
import { checkHandleAnswer } from '../handles'
import { thrownBy } from '../../../test/support/thrown'
import { bounded, quote, QUOTE_MAX } from './quote'

const long = 'x'.repeat(20_000)

describe('issue #14: bounded quoting', () => {
  it('quote keeps short strings whole and cuts long ones with their length, never inside a surrogate pair', () => {
    expect(quote('nick')).toBe('"nick"')
    expect(quote(long)).toBe(`${JSON.stringify('x'.repeat(QUOTE_MAX))}… (20000 characters)`)
    const emoji = `${'a'.repeat(QUOTE_MAX - 1)}😀tail`
    expect(quote(emoji)).toBe(`${JSON.stringify('a'.repeat(QUOTE_MAX - 1))}… (${emoji.length} characters)`)
    expect(bounded('abc', 2)).toBe('ab… (3 characters)')
  })

  it('finding 7: a 20,000-character handle gives a message of a line, not of 20 kB', () => {
    const r = checkHandleAnswer(null, long)
    expect(r.accepted).toBe(false)
    expect(r.reason.length).toBeLessThan(300)
    expect(r.reason).toContain('(20000 characters)')
  })

  it('finding 7: a huge duplicate JSON key is quoted as a prefix with its length', () => {
    const text = `{"updates": [], "${long}": 1, "${long}": 2}`
    const err = thrownBy(() => readLogs(text), LogInputError)
    const all = `${err.message} ${JSON.stringify(err.attempts)}`
    expect(all.length).toBeLessThan(2000)
    expect(all).toContain('(20000 characters)')
  })

  it('finding 7: a long sequence id string is quoted as a prefix', () => {
    const r = uint64FromJson(`1${long}z`)
    expect(typeof r).toBe('object')
    expect((r as { reason: string }).reason.length).toBeLessThan(300)
  })
})
