/**
 * The order of the "formats tried" of an input that is not a log: for input that is
 * clearly JSON (its first non-blank character opens an object or array), the JSON
 * formats' failures come first, since they say what is wrong with it; CSV, hex or base64
 * readings of JSON only say it is not CSV, hex or base64.
 */
import type { InputAttempt } from '../../../worker/protocol'

const isJsonFormat = (f: string) => /json/i.test(f)

/** The attempts with the JSON formats' first when `json`; a stable order otherwise. */
export function orderAttempts(attempts: readonly InputAttempt[], json: boolean): readonly InputAttempt[] {
  if (!json) return attempts
  return [...attempts.filter((a) => isJsonFormat(a.format)), ...attempts.filter((a) => !isJsonFormat(a.format))]
}
