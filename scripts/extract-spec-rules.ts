/**
 * Extracts the rule table of ../shared/spec/identity-updates.txt into
 * src/app/generated/spec-rules.json: rule id → { title, requirement, why }.
 *
 * The spec writes each rule on one line, tab-separated:
 *   IDENT-040<TAB>Both parties approve an add<TAB>If an AddAssociation’s …<TAB>Why (optional)
 * The JSON is committed so the app works offline and without ../shared; regenerate it
 * after a spec change:  npx tsx scripts/extract-spec-rules.ts   (--check: fail if stale)
 */
import { readFileSync, writeFileSync } from 'node:fs'
import { dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'

export interface SpecRule {
  title: string
  requirement: string
  why: string
}

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..')
const SPEC = join(ROOT, '..', 'shared', 'spec', 'identity-updates.txt')
const OUT = join(ROOT, 'src', 'app', 'generated', 'spec-rules.json')

/** The rules of a spec text, in the order they appear. */
export function extractSpecRules(spec: string): Record<string, SpecRule> {
  const out: Record<string, SpecRule> = {}
  for (const line of spec.split(/\r?\n/)) {
    const m = /^(IDENT-\d{3})\t([^\t]+)\t([^\t]+)(?:\t([^\t]*))?$/.exec(line)
    if (!m) continue
    const id = m[1]!
    if (out[id]) throw new Error(`${id} is defined twice in the spec`)
    out[id] = { title: m[2]!.trim(), requirement: m[3]!.trim(), why: (m[4] ?? '').trim() }
  }
  return out
}

const isMain = process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]
if (isMain) {
  const rules = extractSpecRules(readFileSync(SPEC, 'utf8'))
  const json = `${JSON.stringify(rules, null, 2)}\n`
  if (process.argv.includes('--check')) {
    const now = readFileSync(OUT, 'utf8')
    if (now !== json) {
      console.error(`${OUT} is stale: run npx tsx scripts/extract-spec-rules.ts`)
      process.exit(1)
    }
    console.log(`spec-rules.json is up to date (${Object.keys(rules).length} rules)`)
  } else {
    writeFileSync(OUT, json)
    console.log(`wrote ${Object.keys(rules).length} rules to ${OUT}`)
  }
}
