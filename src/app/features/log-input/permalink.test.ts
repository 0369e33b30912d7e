import { describe, expect, it } from 'vitest'
import { compressLog, decompressLog, formatFragment, parseFragment, PermalinkError } from './permalink'

describe('permalink codec', () => {
  it('round-trips a log through deflate-raw and base64url, URL-safe', async () => {
    const text = new TextEncoder().encode(
      JSON.stringify({ updates: [{ sequence_id: '1', update_hex: 'ab'.repeat(500) }] }),
    )
    const z = (await compressLog(text))!
    expect(await compressLog(text, 10)).toBeNull()
    expect(z).toMatch(/^[A-Za-z0-9_-]+$/)
    expect(z.length).toBeLessThan(text.length)
    expect(await decompressLog(z)).toEqual(text)
  })
  it('round-trips binary input of every byte value', async () => {
    const bytes = new Uint8Array(70_000).map((_, i) => (i * 31) & 0xff)
    expect(await decompressLog((await compressLog(bytes))!)).toEqual(bytes)
  })
  it('formats and parses the fragment: log, binary flag, inbox and step', () => {
    const f = { log: 'abc_-', binary: true, inbox: 2, step: { sequenceId: 18446744073709551615n, action: 1 } }
    const h = formatFragment(f)
    expect(h).toBe('#log=abc_-&bin=1&inbox=2&step=18446744073709551615.1')
    expect(parseFragment(h)).toEqual(f)
    expect(parseFragment('#example=valid-full-life&step=3')).toEqual({
      example: 'valid-full-life',
      step: { sequenceId: 3n, action: 0 },
    })
  })
  it('carries the open tab of the step as a word (the shell checks the name)', () => {
    const f = { example: 'valid-full-life', step: { sequenceId: 3n, action: 0 }, tab: 'diff' }
    expect(formatFragment(f)).toBe('#example=valid-full-life&step=3.0&tab=diff')
    expect(parseFragment('#example=valid-full-life&step=3.0&tab=diff')).toEqual(f)
    expect(parseFragment('#tab=Diff%20x&tab=').tab).toBeUndefined()
  })
  it('carries presenter mode as a bare `present` (or present=1), after the step', () => {
    const f = { example: 'valid-full-life', step: { sequenceId: 3n, action: 0 }, present: true }
    expect(formatFragment(f)).toBe('#example=valid-full-life&step=3.0&present')
    expect(parseFragment('#example=valid-full-life&step=3.0&present')).toEqual(f)
    expect(parseFragment('#present=1&example=valid-full-life&step=3')).toEqual(f)
    expect(parseFragment('#present')).toEqual({ present: true })
    expect(parseFragment('#example=valid-full-life&presenting&present=0')).toEqual({ example: 'valid-full-life' })
  })
  it('drops malformed parts and refuses a damaged log with a clear error', async () => {
    expect(parseFragment('#step=abc&inbox=-1&x=1')).toEqual({})
    await expect(decompressLog('a')).rejects.toThrow(PermalinkError)
    await expect(decompressLog('not base64!')).rejects.toThrow(/not base64url/)
    const z = (await compressLog(new TextEncoder().encode('x'.repeat(1000))))!
    await expect(decompressLog(z.slice(0, 3))).rejects.toThrow(/does not decompress|cut short/)
    // 'AB' is one byte with non-zero unused bits in its last character: an edited link.
    await expect(decompressLog('AB')).rejects.toThrow(/not base64url text \(it was cut or edited\)/)
  })
})

describe('permalink codec: an edited copy (issue #16)', () => {
  it('carries the edited flag and the original’s identity with the log', () => {
    const f = {
      log: 'abc',
      edited: { edits: 2, label: 'example valid-full-life', example: 'valid-full-life' },
      step: { sequenceId: 7n, action: 0 },
    }
    const hash = formatFragment(f)
    expect(hash).toBe('#log=abc&edited=2&orig=example%20valid-full-life&origex=valid-full-life&step=7.0')
    expect(parseFragment(hash)).toEqual(f)
  })

  it('orig without edited does not mark a log as edited; an unedited log carries no mark', () => {
    expect(parseFragment('#log=abc&orig=x').edited).toBeUndefined()
    expect(formatFragment({ log: 'abc' })).toBe('#log=abc')
    expect(parseFragment('#log=abc&edited=1').edited).toEqual({ edits: 1, label: 'a log' })
  })
})
