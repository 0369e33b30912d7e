/**
 * Bounded quoting of input-derived strings in messages (issue #14, finding 7): an error
 * quotes at most a prefix of what the input carried, with its total length, so a
 * 20,000-character handle or a megabyte JSON key makes a message of a line, not of 20 kB.
 */

/** Characters of an input-derived string a message quotes before cutting it. */
export const QUOTE_MAX = 80

/** The first `max` characters of `s`, never splitting a surrogate pair. */
function prefix(s: string, max: number): string {
  let cut = max
  const c = s.charCodeAt(cut - 1)
  if (c >= 0xd800 && c <= 0xdbff) cut--
  return s.slice(0, cut)
}

/** `s` as a JSON string; past `max` characters, its prefix, `…` and the total length. */
export function quote(s: string, max = QUOTE_MAX): string {
  if (s.length <= max) return JSON.stringify(s)
  return `${JSON.stringify(prefix(s, max))}… (${s.length} characters)`
}

/** `s` as it is; past `max` characters, its prefix, `…` and the total length (unquoted text such as an identifier). */
export function bounded(s: string, max = QUOTE_MAX): string {
  if (s.length <= max) return s
  return `${prefix(s, max)}… (${s.length} characters)`
}
