/** Small formatting helpers shared by the features (no React). */
import { formatTimestamp } from '../../core/text/timestamp'
import type { ActionKind, MemberId } from '../../core/types'
import type { ActionStatus } from '../trace/trace-model'

/** 0x1234…abcd / 1234ab…cdef: the short form of an identifier. */
export function shortId(text: string, head = 6, tail = 4): string {
  if (text.length <= head + tail + 3) return text
  const h = text.startsWith('0x') ? head + 2 : head
  return `${text.slice(0, h)}…${text.slice(-tail)}`
}

export const KIND_LABEL: Record<ActionKind, string> = {
  create_inbox: 'CreateInbox',
  add: 'AddAssociation',
  revoke: 'RevokeAssociation',
  change_recovery_address: 'ChangeRecoveryAddress',
  claim_handle: 'ClaimHandle',
}

export const MEMBER_KIND_LABEL: Record<MemberId['kind'], string> = {
  ethereum: 'wallet',
  passkey: 'passkey',
  installation: 'installation',
}

export const STATUS_LABEL: Record<ActionStatus, string> = {
  applied: 'applied',
  rejected: 'rejected',
  rolled_back: 'rolled back',
  pending: 'pending',
  not_reached: 'not reached',
  not_applied: 'not applied',
}

export const STATUS_MARK: Record<ActionStatus, string> = {
  applied: '✓',
  rejected: '✗',
  rolled_back: '↺',
  pending: '⧗',
  not_reached: '·',
  not_applied: '–',
}

export function clientTime(ns: bigint): string {
  return formatTimestamp(ns)
}

export function chainText(c: bigint | null): string {
  return c === null ? '—' : `eip155:${c}`
}

/** "1 action", "2 actions", "1,000 updates". */
export function plural(n: number, word: string): string {
  return `${n.toLocaleString('en')} ${word}${n === 1 ? '' : 's'}`
}
