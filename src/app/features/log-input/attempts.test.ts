import { describe, expect, it } from 'vitest'
import { readLogs } from '../../../core/decode/logs'
import { LogInputError } from '../../../core/errors'
import { looksLikeJson } from '../../model/input-kind'
import { orderAttempts } from './attempts'

function attemptsOf(text: string) {
  try {
    readLogs(text, 'pasted')
  } catch (e) {
    if (e instanceof LogInputError) return e.attempts
    throw e
  }
  throw new Error('expected a LogInputError')
}

describe('JSON-looking input leads with its JSON failure (issue #12)', () => {
  it('recognises JSON text and bytes by their first non-blank character', () => {
    expect(looksLikeJson('  \n{"updates": [')).toBe(true)
    expect(looksLikeJson('[1,2')).toBe(true)
    expect(looksLikeJson(new TextEncoder().encode('\ufeff {"a"'))).toBe(true)
    expect(looksLikeJson('0a1b2c')).toBe(false)
    expect(looksLikeJson('sequence_id,identity_update_proto')).toBe(false)
  })
  it('puts the JSON attempts before CSV, hex and base64 whatever order they were tried in', () => {
    const tried = attemptsOf('{"inbox_id": "ab", "updates": [ {"sequence_id": 1')
    const reversed = [...tried].reverse()
    const ordered = orderAttempts(reversed, true)
    expect(ordered[0]!.format).toMatch(/json/)
    expect(ordered.map((a) => a.format).slice(1)).not.toContain('json')
    expect(orderAttempts(reversed, false)).toEqual(reversed)
  })
})
