/**
 * Human output of the command line (issue #14, finding 5): every input-derived string is
 * escaped before it reaches a terminal, so a log cannot print a line break, a forged
 * `----` separator or an ANSI escape sequence. JSON output is never passed through here:
 * it stays exact JSON (JSON.stringify already escapes control characters).
 */

/**
 * C0 and C1 controls, DEL, the line and paragraph separators and the bidirectional
 * overrides and isolates (which reorder what a terminal shows).
 */
// biome-ignore lint/suspicious/noControlCharactersInRegex: matching control characters is the point (issue #14, finding 5)
const UNSAFE = /[\u0000-\u001f\u007f-\u009f\u2028\u2029\u202a-\u202e\u2066-\u2069]/g
/** The same, less the line feed: for text whose line breaks are its own (a signature text). */
// biome-ignore lint/suspicious/noControlCharactersInRegex: matching control characters is the point (issue #14, finding 5)
const UNSAFE_BUT_LF = /[\u0000-\u0009\u000b-\u001f\u007f-\u009f\u2028\u2029\u202a-\u202e\u2066-\u2069]/g

const NAMED: Readonly<Record<string, string>> = { '\n': '\\n', '\r': '\\r', '\t': '\\t' }

function escapeChar(c: string): string {
  return NAMED[c] ?? `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`
}

/** `s` on one line with nothing a terminal would act on: controls written as `\n`, `\u001b`, … */
export function escapeLine(s: string): string {
  return s.replace(UNSAFE, escapeChar)
}

/** `s` with its line feeds kept and every other control escaped. */
export function escapeKeepingLines(s: string): string {
  return s.replace(UNSAFE_BUT_LF, escapeChar)
}
