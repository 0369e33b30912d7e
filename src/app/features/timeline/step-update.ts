import type { Row } from '../../trace/trace-model'

/**
 * Arrow Left/Right: the first shown row of the previous or next update (whole updates,
 * where Up/Down step through actions). `pos` indexes `shown`; returns the new index.
 */
export function stepUpdate(shown: readonly Row[], pos: number, dir: 'prev-update' | 'next-update'): number {
  if (shown.length === 0) return -1
  if (pos < 0) return 0
  const k = shown[pos]!.k
  if (dir === 'next-update') {
    let j = pos
    while (j < shown.length && shown[j]!.k === k) j++
    return j < shown.length ? j : pos
  }
  // back to the first row of this update's predecessor
  let j = pos
  while (j >= 0 && shown[j]!.k === k) j--
  if (j < 0) return firstOf(shown, pos)
  const prev = shown[j]!.k
  while (j > 0 && shown[j - 1]!.k === prev) j--
  return j
}

function firstOf(shown: readonly Row[], pos: number): number {
  let j = pos
  while (j > 0 && shown[j - 1]!.k === shown[pos]!.k) j--
  return j
}
