/**
 * The order of the "formats tried" of an input that is not a log: for input that is
 * clearly JSON (its first non-blank character opens an object or array), the JSON
 * formats' failures come first, since they say what is wrong with it; CSV, hex or base64
 * readings of JSON only say it is not CSV, hex or base64.
 */
import type { InputAttempt } from '../../../worker/protocol'

/** True when the input's first non-blank character is `{` or `[` (text, or bytes that start so). */
export function looksLikeJson(input: string | Uint8Array): boolean {
  if (typeof input === 'string') return /^\s*[[{]/.test(input)
  for (const b of input.subarray(0, 64)) {
    if (b === 0x20 || b === 0x09 || b === 0x0a || b === 0x0d || b === 0xef || b === 0xbb || b === 0xbf) continue
    return b === 0x7b || b === 0x5b
  }
  return false
}

const isJsonFormat = (f: string) => /json/i.test(f)

/** The attempts with the JSON formats' first when `json`; a stable order otherwise. */
export function orderAttempts(attempts: readonly InputAttempt[], json: boolean): readonly InputAttempt[] {
  if (!json) return attempts
  return [...attempts.filter((a) => isJsonFormat(a.format)), ...attempts.filter((a) => !isJsonFormat(a.format))]
}
