/**
 * One copy of each short string the updates of a log repeat (issue #14, finding 8): every
 * update of an inbox carries its inbox id, and identifiers and handles recur; decoding
 * makes a new string each time, about 40 to 90 bytes apiece, kept by every update of a
 * million-update log. Bounded: the table is emptied when it fills. Used by both update
 * decoders (./update.ts, ./direct.ts).
 */
const SHARED = new Map<string, string>()
const SHARED_MAX = 4096
const SHARED_LENGTH = 128

/** The table's copy of `s` (a string of at most 128 characters), else `s` itself. */
export function shared(s: string): string {
  if (s.length > SHARED_LENGTH) return s
  const known = SHARED.get(s)
  if (known !== undefined) return known
  if (SHARED.size >= SHARED_MAX) SHARED.clear()
  SHARED.set(s, s)
  return s
}
