/**
 * Inbox health (issue 15): what an inbox owner needs before changing an inbox, derived
 * from the head state the core replayed, never from a node's word: log entries used
 * against the deployment's limit (the network keeps a bounded number of updates per
 * inbox and never compacts them), installations against the client ceiling (CONF-044),
 * the handles (IDENT-086), the recovery identifier and whether it is a member, the
 * installations unused the longest, and what the remaining entries can still buy. The
 * log limit setting is ./log-limit.ts (the header's chip reads it; this module loads with
 * the inbox tasks).
 */
import { currentHandles, MAX_CLAIMS } from '../../../../core/handles'
import { memberKey, type AssociationState, type Member } from '../../../../core/types'
import { LAST_ENTRIES } from './log-limit'

export interface InboxHealth {
  readonly inboxId: string
  readonly entries: { readonly used: number; readonly limit: number; readonly left: number }
  readonly installations: {
    readonly count: number
    readonly ceiling: number
    /** At or above the ceiling: this browser cannot register (CONF-044); cleaning up needs the recovery identifier. */
    readonly atCeiling: boolean
    /** Oldest client time first: the ones most likely forgotten. */
    readonly oldestFirst: readonly Member[]
  }
  readonly handles: {
    readonly current: string | null
    readonly others: readonly string[]
    readonly claimCount: number
    readonly claimsLeft: number
  }
  readonly recovery: { readonly id: Member['id']; readonly isMember: boolean }
  /** What the remaining entries can still buy, one line each. */
  readonly buys: readonly string[]
  /** Warnings, most urgent first (a full log, one of the last entries, the ceiling). */
  readonly warnings: readonly string[]
}

const plural = (n: number, one: string, many = `${one}s`): string => `${n.toLocaleString('en')} ${n === 1 ? one : many}`

export function inboxHealth(
  state: AssociationState,
  opts: { readonly logEntries: number; readonly logLimit: number; readonly ceiling: number },
): InboxHealth {
  const used = opts.logEntries
  const left = Math.max(0, opts.logLimit - used)
  const installs = [...state.members.values()]
    .filter((m) => m.id.kind === 'installation')
    .sort((a, b) =>
      a.clientTimestampNs < b.clientTimestampNs ? -1 : a.clientTimestampNs > b.clientTimestampNs ? 1 : 0,
    )
  const { current, others } = currentHandles(state)
  const claimsLeft = Math.max(0, MAX_CLAIMS - state.claimCount)
  const atCeiling = installs.length >= opts.ceiling
  const recoveryIsMember = state.members.has(memberKey(state.recovery.id))
  const buys: string[] = []
  const warnings: string[] = []
  if (left === 0) {
    warnings.push(
      `The log is full: ${plural(used, 'entry', 'entries')} of ${opts.logLimit}. The network stores no more updates for this inbox and never compacts it, so nothing can be revoked or claimed any more.`,
    )
  } else {
    buys.push(
      `Each of the ${plural(left, 'entry', 'entries')} left is one update. One update can revoke any number of installations at once (signed once by the recovery identifier), so clean up in one update, not one per installation.`,
    )
    buys.push(
      claimsLeft > 0
        ? `A handle claim takes a whole entry (a claim travels alone); ${plural(claimsLeft, 'claim')} of ${MAX_CLAIMS} left (IDENT-080).`
        : `No handle claims left: the log holds ${MAX_CLAIMS} claims, the most it may (IDENT-080).`,
    )
    const room = Math.max(0, opts.ceiling - installs.length)
    buys.push(
      room > 0
        ? `${plural(room, 'more installation')} before the ceiling of ${opts.ceiling}; each registration is one entry.`
        : `No registration: ${installs.length} installations at a ceiling of ${opts.ceiling} (CONF-044). Revoke some first.`,
    )
    buys.push('Rotating the recovery identifier takes one entry and is signed by the current one alone.')
    if (left <= LAST_ENTRIES)
      warnings.push(
        `Only ${plural(left, 'log entry', 'log entries')} left of ${opts.logLimit}: keep the last one for revoking a lost installation.`,
      )
  }
  if (atCeiling)
    warnings.push(
      `At the installation ceiling (${installs.length} of ${opts.ceiling}): no new installation can register. The recovery identifier can still revoke installations from a wallet, without any installation of this browser.`,
    )
  if (state.claimCount >= MAX_CLAIMS) warnings.push(`All ${MAX_CLAIMS} handle claims are used (IDENT-080).`)
  return {
    inboxId: state.inboxId,
    entries: { used, limit: opts.logLimit, left },
    installations: { count: installs.length, ceiling: opts.ceiling, atCeiling, oldestFirst: installs },
    handles: { current, others, claimCount: state.claimCount, claimsLeft },
    recovery: { id: state.recovery.id, isMember: recoveryIsMember },
    buys,
    warnings,
  }
}

/** The warning a flow shows before its prompt when its one update would spend one of the last entries; null otherwise. */
export function spendWarning(h: InboxHealth): string | null {
  if (h.entries.left === 0)
    return `The log is full (${h.entries.used} of ${h.entries.limit} entries): the network would not store this update.`
  if (h.entries.left <= LAST_ENTRIES)
    return `This update spends one of the last entries: ${h.entries.left - 1} will be left of ${h.entries.limit}${h.entries.left - 1 === 0 ? ', and the log is then full for good (no compaction)' : ''}.`
  return null
}
