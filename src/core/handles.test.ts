import { describe, expect, it } from 'vitest'
import fc from 'fast-check'
import { PMap, PSet } from './persistent'
import {
  checkHandleAnswer,
  currentHandles,
  handleProblem,
  HANDLE_PATTERN,
  isValidHandle,
  lowercaseAscii,
} from './handles'
import type { AssociationState, InboxId } from './types'

const state = (handles: string[]): AssociationState => ({
  inboxId: 'ab'.repeat(32) as InboxId,
  members: PMap.empty(),
  recovery: { id: { kind: 'ethereum', text: `0x${'11'.repeat(20)}` }, chainId: null },
  installationsByAdder: PMap.empty(),
  handles,
  claimCount: handles.length,
  seen: PSet.empty(),
  sequenceId: 3n,
})

describe('isValidHandle', () => {
  it('IDENT-078: matches the ABNF in full: a-z first, then a-z 0-9 _ -, up to 27, optional # and four digits', () => {
    for (const h of ['a', 'nick', 'nick#2341', 'a_b-c9', `a${'b'.repeat(26)}`, `a${'b'.repeat(26)}#0000`])
      expect(isValidHandle(h), h).toBe(true)
    for (const h of [
      '',
      'Nick',
      '9nick',
      '_nick',
      'nick#',
      'nick#12',
      'nick#12345',
      '#1234',
      'ni ck',
      `a${'b'.repeat(27)}`,
      'nick#2341#1111',
      'nick\n',
      'ník',
      'nick#abcd',
    ]) {
      expect(isValidHandle(h), h).toBe(false)
      expect(handleProblem(h)).not.toBe('')
    }
    expect(`a${'b'.repeat(26)}#0000`).toHaveLength(32)
  })
  it('IDENT-078: agrees with the regular expression of the spec on random ASCII strings', () => {
    const spec = /^[a-z][a-z0-9_-]{0,26}(#[0-9]{4})?$/
    fc.assert(
      fc.property(
        fc.string({ unit: fc.constantFrom(...'abzAZ09_-# é'.split('')), maxLength: 40 }),
        (s) => isValidHandle(s) === spec.test(s),
      ),
    )
    expect(HANDLE_PATTERN.source).toBe(spec.source)
  })
})

describe('checkHandleAnswer', () => {
  it('IDENT-085: accepts an answer only if the derived state holds the entry, ASCII-lowercased', () => {
    const s = state(['nick', 'nick#2341'])
    expect(checkHandleAnswer(s, 'NICK').accepted).toBe(true)
    expect(checkHandleAnswer(s, 'nick#2341').accepted).toBe(true) // an old handle still names the inbox
    expect(checkHandleAnswer(s, 'nock').accepted).toBe(false)
    expect(checkHandleAnswer(s, 'NİCK').accepted).toBe(false) // only ASCII letters are lowercased
    expect(checkHandleAnswer(null, 'nick').accepted).toBe(false)
  })
  it('IDENT-085: lowercases ASCII A-Z and nothing else', () => {
    expect(lowercaseAscii('AbC#1É')).toBe('abc#1É')
  })
})

describe('currentHandles', () => {
  it('IDENT-086: the display handle first, then the others newest first', () => {
    expect(currentHandles(state(['a', 'b', 'c']))).toEqual({ current: 'c', others: ['b', 'a'] })
    expect(currentHandles(state([]))).toEqual({ current: null, others: [] })
    expect(currentHandles(null)).toEqual({ current: null, others: [] })
  })
})
