/** Rule titles and requirement text from the spec (src/app/generated/spec-rules.json, made by scripts/extract-spec-rules.ts). */
import rules from '../../generated/spec-rules.json'
import { RULES } from '../../../core/rules'

export interface SpecRule {
  readonly id: string
  readonly title: string
  readonly requirement: string
  readonly why: string
}

const TABLE = rules as Record<string, { title: string; requirement: string; why: string }>

export function specRule(id: string): SpecRule {
  const r = TABLE[id]
  if (r) return { id, ...r }
  const title = (RULES as Record<string, string>)[id] ?? 'unknown rule'
  return { id, title, requirement: '(requirement text not found in the embedded spec)', why: '' }
}
