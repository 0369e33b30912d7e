/** The whole-number settings of the inbox tasks and the registration (the log limit, the installation ceiling). */
import type { SettingSpec } from '../../model/setting'

export type ParsedCount = { ok: true; value: number } | { ok: false; problem: string }

/** A count as typed: a whole number from 1 to `max`, or why it is not one (`what` names it: "the log limit"). */
export function parseCount(text: string, what: string, max: number): ParsedCount {
  const t = text.trim()
  if (!/^[0-9]+$/.test(t)) return { ok: false, problem: `${what} ${JSON.stringify(t)} is not a whole number` }
  const value = Number(t)
  if (value < 1) return { ok: false, problem: `${what} must be at least 1` }
  if (value > max) return { ok: false, problem: `${what} must be at most ${max}` }
  return { ok: true, value }
}

/** A count kept under `key` as its decimal text, read by `parse`; `fallback` when unset or not valid. */
export function countSetting(
  key: string,
  parse: (text: string) => ParsedCount,
  fallback: () => number,
): SettingSpec<number> {
  return {
    key,
    parse: (text) => {
      const p = parse(text)
      return p.ok ? p.value : undefined
    },
    format: String,
    fallback,
  }
}
