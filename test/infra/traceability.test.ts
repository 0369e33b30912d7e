/**
 * Traceability (design.md "Tests"): every rule id of ../shared/spec/identity-updates.txt
 * is named in the title of at least one test (a string literal passed to describe / it /
 * test in a `*.test.ts(x)` file or an `e2e/*.spec.ts`), unless it is PENDING below with
 * the issue that owns it. A PENDING rule that a test already names fails too: take it
 * off the list when its issue lands.
 */
import { existsSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { RULES } from '../../src/core/rules'
import { findTestTitles, listFiles, readRepoFile, REPO_ROOT } from './source-scan'

/** Rules whose tests belong to work not landed yet: rule id → the issue that owns it. */
const PENDING: Record<string, string> = {}

const SPEC_PATH = join(REPO_ROOT, '..', 'shared', 'spec', 'identity-updates.txt')
const RULE_RE = /IDENT-\d{3}(?!\d)/g
const THIS_FILE = 'test/infra/traceability.test.ts'

function specRuleIds(): string[] {
  if (!existsSync(SPEC_PATH)) {
    throw new Error(
      `spec not found at ${SPEC_PATH}: shared/ must sit beside the repository (../shared/spec/identity-updates.txt)`,
    )
  }
  return [...new Set(readFileSync(SPEC_PATH, 'utf8').match(RULE_RE) ?? [])].sort()
}

function testFiles(): string[] {
  return listFiles('.', (p) => /\.test\.[cm]?tsx?$/.test(p) || /^e2e\/.*\.spec\.tsx?$/.test(p))
}

/** rule id → the test files whose titles name it. */
function namedRules(): Map<string, string[]> {
  const named = new Map<string, string[]>()
  for (const file of testFiles()) {
    for (const title of findTestTitles(readRepoFile(file))) {
      for (const id of title.match(RULE_RE) ?? []) {
        const where = named.get(id) ?? []
        if (!where.includes(file)) where.push(file)
        named.set(id, where)
      }
    }
  }
  return named
}

describe('traceability of the spec rules to tests', () => {
  it('every spec rule id is named by a test title or is pending with its owning issue', () => {
    const named = namedRules()
    const missing = specRuleIds().filter((id) => !named.has(id) && !(id in PENDING))
    expect(
      missing,
      `${missing.length} spec rule(s) named by no test title (name the rule id in a describe/it/test title):\n` +
        missing.map((id) => `  ${id}  ${(RULES as Record<string, string>)[id] ?? ''}`).join('\n'),
    ).toEqual([])
  })

  it('no pending rule is already named by a test (take it off PENDING)', () => {
    const named = namedRules()
    const done = Object.keys(PENDING).filter((id) => named.has(id))
    expect(
      done,
      'rules on the PENDING list that tests now name; remove them from PENDING in ' +
        THIS_FILE +
        ':\n' +
        done.map((id) => `  ${id} (${PENDING[id]}) named in ${named.get(id)!.join(', ')}`).join('\n'),
    ).toEqual([])
  })

  it('the pending list names only rules of the spec, each with an owning issue', () => {
    const ids = new Set(specRuleIds())
    for (const [id, owner] of Object.entries(PENDING)) {
      expect(ids.has(id), `${id} on the PENDING list is not a rule of the spec`).toBe(true)
      expect(owner, `${id} on the PENDING list names no issue`).toMatch(/issue \d/)
    }
  })

  it('src/core/rules.ts lists exactly the rule ids of the spec', () => {
    expect(Object.keys(RULES).sort()).toEqual(specRuleIds())
  })

  it('reads rule ids from the spec and titles from the test files', () => {
    expect(specRuleIds().length).toBeGreaterThan(0)
    expect(testFiles()).toContain('test/infra/layers.test.ts')
  })
})

describe('the test title scanner', () => {
  it('collects literal titles of describe, it and test with their modifiers', () => {
    const src = [
      "describe('IDENT-040 add', () => {",
      '  it("rejects a mismatched signer", () => {})',
      '  it.each([[1], [2]])(`IDENT-041 case %s`, () => {})',
      "  test.skip('IDENT-042 skipped still counts', () => {})",
      "  test.describe.serial('IDENT-043 serial', () => {})",
      "  it.prop([fc.nat()])('IDENT-050 property', () => {})",
      "  // it('IDENT-099 in a comment does not count')",
      "  expect(x).test('nope')",
      '  it(titleVar, () => {})',
      '  const s = "describe(\'IDENT-098 in a string is not a call\')"',
      '})',
    ].join('\n')
    expect(findTestTitles(src)).toEqual([
      'IDENT-040 add',
      'rejects a mismatched signer',
      'IDENT-041 case %s',
      'IDENT-042 skipped still counts',
      'IDENT-043 serial',
      'IDENT-050 property',
    ])
  })
})
