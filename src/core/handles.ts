/**
 * Handles (spec sections 10 and 11): the grammar (IDENT-078), the lookup answer
 * check (IDENT-085) and the current-handle ordering (IDENT-086).
 */
import type { AssociationState } from './types'
import { quote } from './text/quote'

/** ^[a-z][a-z0-9_-]{0,26}(#[0-9]{4})?$ — the ABNF of section 10, matched in full. */
export const HANDLE_PATTERN = /^[a-z][a-z0-9_-]{0,26}(#[0-9]{4})?$/
/** IDENT-080 */
export const MAX_CLAIMS = 64

export function isValidHandle(handle: string): boolean {
  return HANDLE_PATTERN.test(handle)
}

/** Why a string is not a handle, in words (for the rule message and the composer). Empty when valid. */
export function handleProblem(handle: string): string {
  if (isValidHandle(handle)) return ''
  if (handle.length === 0) return 'is empty'
  const hash = handle.indexOf('#')
  const name = hash < 0 ? handle : handle.slice(0, hash)
  const code = hash < 0 ? null : handle.slice(hash + 1)
  if (/[^\x20-\x7e]/.test(handle)) return 'contains a character outside printable ASCII'
  if (/[A-Z]/.test(handle)) return 'contains an uppercase letter; the only spelling is lowercase'
  if (name.length === 0) return 'has no name part before #'
  if (!/^[a-z]/.test(name)) return `starts with ${JSON.stringify(name[0])}; a name starts with a letter a-z`
  const bad = /[^a-z0-9_-]/.exec(name)
  if (bad) return `has ${JSON.stringify(bad[0])} in its name part; allowed are a-z, 0-9, _ and -`
  if (name.length > 27) return `has a name part of ${name.length} characters; at most 27`
  if (code !== null && !/^[0-9]{4}$/.test(code)) return `has code ${quote(code)}; a code is exactly four digits`
  return 'does not match the handle grammar'
}

/**
 * Where a string stops matching the handle grammar: the 0-based position of the first
 * character `handleProblem` names, or the length when the handle ends too early; -1 when
 * valid. The checks run in `handleProblem`'s order, so the position is the problem's.
 */
export function handleProblemPosition(handle: string): number {
  if (isValidHandle(handle)) return -1
  if (handle.length === 0) return 0
  const hash = handle.indexOf('#')
  const name = hash < 0 ? handle : handle.slice(0, hash)
  const outside = handle.search(/[^\x20-\x7e]/)
  if (outside >= 0) return outside
  const upper = handle.search(/[A-Z]/)
  if (upper >= 0) return upper
  if (name.length === 0 || !/^[a-z]/.test(name)) return 0
  const bad = name.search(/[^a-z0-9_-]/)
  if (bad >= 0) return bad
  if (name.length > 27) return 27
  if (hash >= 0) {
    const code = handle.slice(hash + 1)
    const nonDigit = code.search(/[^0-9]/)
    if (nonDigit >= 0 && nonDigit < 4) return hash + 1 + nonDigit
    return hash + 1 + Math.min(code.length, 4)
  }
  return handle.length
}

/** API-299 / IDENT-085: a lookup entry with its ASCII uppercase letters lowercased, nothing else. */
export function lowercaseAscii(s: string): string {
  return s.replace(/[A-Z]/g, (c) => c.toLowerCase())
}

export interface HandleCheck {
  readonly accepted: boolean
  readonly reason: string
}

/**
 * IDENT-085: a GetInboxIds answer naming this inbox for `entry` may be used only if
 * the handles of a state the client derived contain the entry, ASCII-lowercased.
 */
export function checkHandleAnswer(state: AssociationState | null, entry: string): HandleCheck {
  const handle = lowercaseAscii(entry)
  if (!state)
    return {
      accepted: false,
      reason: `no association state was derived for the inbox, so nothing proves a claim of ${quote(handle)}`,
    }
  if (state.handles.includes(handle)) {
    const current = state.handles[state.handles.length - 1] === handle
    return {
      accepted: true,
      reason: `inbox ${state.inboxId} claimed ${quote(handle)} in its log${current ? ' (its display handle)' : ' (an older handle)'}, as of sequence id ${state.sequenceId}`,
    }
  }
  return {
    accepted: false,
    reason: `the state of inbox ${state.inboxId} at sequence id ${state.sequenceId} does not hold ${quote(handle)}${state.handles.length ? ` (it holds ${state.handles.map((h) => quote(h)).join(', ')})` : ' (it holds no handle)'}`,
  }
}

/** IDENT-086: the display handle as current, the others newest first. */
export function currentHandles(state: AssociationState | null): { current: string | null; others: string[] } {
  const handles = state?.handles ?? []
  if (handles.length === 0) return { current: null, others: [] }
  return { current: handles[handles.length - 1]!, others: handles.slice(0, -1).reverse() }
}
