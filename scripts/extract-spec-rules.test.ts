import { existsSync, readFileSync } from 'node:fs'
import { describe, expect, it } from 'vitest'
import { RULES } from '../src/core/rules'
import { extractSpecRules } from './extract-spec-rules'

const SPEC = new URL('../../shared/spec/identity-updates.txt', import.meta.url)
const OUT = new URL('../src/app/generated/spec-rules.json', import.meta.url)

describe('extractSpecRules', () => {
  it('reads id, title, requirement and why from tab-separated rule lines only', () => {
    const r = extractSpecRules(
      'prose IDENT-001 mentioned\nIDENT-040\tBoth parties\tIf X, then reject.\tBecause.\nIDENT-041\tPairs\tIf Y, reject.\n',
    )
    expect(r).toEqual({
      'IDENT-040': { title: 'Both parties', requirement: 'If X, then reject.', why: 'Because.' },
      'IDENT-041': { title: 'Pairs', requirement: 'If Y, reject.', why: '' },
    })
  })
  it.skipIf(!existsSync(SPEC))(
    'the committed spec-rules.json is fresh and covers every rule of src/core/rules.ts',
    () => {
      const rules = extractSpecRules(readFileSync(SPEC, 'utf8'))
      expect(JSON.parse(readFileSync(OUT, 'utf8'))).toEqual(rules)
      expect(Object.keys(rules).sort()).toEqual(Object.keys(RULES).sort())
      for (const [id, r] of Object.entries(rules)) expect(r.title, id).toBe((RULES as Record<string, string>)[id])
    },
  )
})
