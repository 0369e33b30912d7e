import { describe, expect, it } from 'vitest'
import { HANDLE_PATTERN } from '../core/handles'
import { detectTarget, normalizeTarget } from './target'

const inbox = '9de91141418f940e1fe889afcf8aa21605debdc9df44603ca60ac167a60c6187'
const address = '0x507c8c4b4ec1cb6fe0e4e8e5e9d74cbbd9a5d488'
const compressed = `02${'ab'.repeat(32)}`
const uncompressed = `04${'cd'.repeat(64)}`

describe('detectTarget: the kind of a pasted identifier', () => {
  it('reads 64 hex digits as an inbox id (IDENT-010), with or without 0x, lowercased', () => {
    expect(detectTarget(inbox)).toEqual({ kind: 'inbox', value: inbox })
    expect(detectTarget(`  0x${inbox.toUpperCase()} `)).toEqual({ kind: 'inbox', value: inbox })
  })

  it('reads 0x and 40 hex digits as an Ethereum address, and 40 bare digits too', () => {
    expect(detectTarget(address)).toEqual({ kind: 'address', value: address })
    expect(detectTarget(address.slice(2))).toEqual({ kind: 'address', value: address })
    expect(detectTarget(address.toUpperCase().replace('0X', '0x'))?.kind).toBe('address')
  })

  it('reads a compressed or uncompressed P-256 key as a passkey, but not other lengths or prefixes', () => {
    expect(detectTarget(compressed)).toEqual({ kind: 'passkey', value: compressed })
    expect(detectTarget(`0x${uncompressed}`)).toEqual({ kind: 'passkey', value: uncompressed })
    expect(detectTarget(`05${'ab'.repeat(32)}`)).toBeNull()
    expect(detectTarget(`02${'ab'.repeat(30)}`)).toBeNull()
  })

  it('reads the handle grammar as a handle (IDENT-078), its ASCII letters lowercased as the lookup sends it (IDENT-085)', () => {
    expect(detectTarget('nick')).toEqual({ kind: 'handle', value: 'nick' })
    expect(detectTarget('Nick#2341')).toEqual({ kind: 'handle', value: 'Nick#2341' })
    expect(normalizeTarget(detectTarget('Nick#2341')!)).toEqual({ value: 'nick#2341' })
    // hex-looking handles stay handles: a handle is at most 32 characters, no hex kind is that short
    expect(detectTarget('abcdef')).toEqual({ kind: 'handle', value: 'abcdef' })
  })

  it('reads nothing else, so that a typo is named before anything is sent', () => {
    for (const text of [
      '',
      '   ',
      '0x',
      '1nick',
      'nick#23',
      'ni ck',
      `${inbox}0`,
      `0x${address.slice(3)}`,
      'a'.repeat(28),
    ])
      expect(detectTarget(text), text).toBeNull()
  })

  it('gives every detected target a value that normalizeTarget accepts as that kind', () => {
    for (const text of [
      inbox,
      `0x${inbox}`,
      address,
      address.slice(2),
      compressed,
      uncompressed,
      'nick',
      'Nick#2341',
    ]) {
      const t = detectTarget(text)!
      expect('value' in normalizeTarget(t), text).toBe(true)
    }
  })

  it('never reads a text of one kind as a handle: the shapes do not overlap', () => {
    for (const hex of [inbox, address.slice(2), compressed, uncompressed]) expect(HANDLE_PATTERN.test(hex)).toBe(false)
  })
})
