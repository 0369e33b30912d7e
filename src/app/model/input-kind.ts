/** What an input looks like before it is parsed (the inspector and the open panel both ask). */

/** True when the input's first non-blank character is `{` or `[` (text, or bytes that start so). */
export function looksLikeJson(input: string | Uint8Array): boolean {
  if (typeof input === 'string') return /^\s*[[{]/.test(input)
  for (const b of input.subarray(0, 64)) {
    if (b === 0x20 || b === 0x09 || b === 0x0a || b === 0x0d || b === 0xef || b === 0xbb || b === 0xbf) continue
    return b === 0x7b || b === 0x5b
  }
  return false
}
