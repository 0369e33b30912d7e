/**
 * Follow, as data: where a followed log comes from (the fetch address of a log opened
 * from a node, `?node=…&api=…&transport=…&inbox=…`, with `follow=1` or `follow=0` recorded
 * beside it), the follow view's state (the connection, the updates that landed, forks
 * and withheld updates, what the user has not seen yet) as one reducer over the shared
 * follower's events (src/network/follow.ts), and where the view goes when the log grows:
 * to the new head when the user was at the head, else nowhere (a notice counts the
 * updates below).
 */
import { encodeBundleJson } from '../../../core/encode/bundle'
import type { FollowEvent } from '../../../network/follow'
import { APIS, type Api, DEFAULT_TRANSPORT, TRANSPORTS, type TransportKind } from '../../../network/target'

export interface FollowAddress {
  readonly url: string
  readonly api: Api
  readonly transport: TransportKind
  readonly inboxId: string
}

/**
 * The node a log opened from a fetch address is followed on. A fetch by address, passkey or
 * handle follows the inbox it resolved to (`inboxId`, from the log). Null when there is none.
 */
export function followAddressOf(fetch: string | undefined, inboxId: string | null): FollowAddress | null {
  if (!fetch || !inboxId) return null
  const q = new URLSearchParams(fetch)
  const url = q.get('node')
  if (!url) return null
  const api = (q.get('api') ?? 'identity') as Api
  if (!APIS.includes(api)) return null
  const transport = (q.get('transport') ?? DEFAULT_TRANSPORT[api]) as TransportKind
  if (!TRANSPORTS.includes(transport) || transport === 'grpc') return null
  return { url, api, transport, inboxId }
}

export type ConnectionState = 'connecting' | 'live' | 'reconnecting' | 'stopped'

export interface ForkNote {
  readonly sequenceId: bigint
  /** gone: the node withholds an update it served before; different-bytes: it serves other bytes now; inserted: a new update below the head. */
  readonly reason: 'gone' | 'different-bytes' | 'inserted'
  /** SHA-256 of the version shown (null: none was shown). */
  readonly shownDigest: string | null
  /** SHA-256 of the version the node serves now (null: it serves none). */
  readonly servedDigest: string | null
}

export interface FollowView {
  readonly connection: ConnectionState
  readonly mode: 'stream' | 'poll' | null
  readonly detail: string | null
  /** The updates that arrived while following (not those the log opened with), oldest first. */
  readonly landed: readonly bigint[]
  readonly forks: readonly ForkNote[]
  /** New updates below the user's step, not yet seen. */
  readonly unseen: number
  /** Envelopes the node served that were left out (d14n), newest first, bounded. */
  readonly skipped: readonly string[]
}

export const INITIAL_VIEW: FollowView = {
  connection: 'connecting',
  mode: null,
  detail: null,
  landed: [],
  forks: [],
  unseen: 0,
  skipped: [],
}

export type FollowAction =
  | { readonly type: 'event'; readonly event: FollowEvent }
  /** New updates were shown; `atHead`: the view moved to the new head with them. */
  | { readonly type: 'shown'; readonly count: number; readonly atHead: boolean }
  /** The user reached the head: nothing below is unseen. */
  | { readonly type: 'seen' }
  | { readonly type: 'failed'; readonly message: string }
  | { readonly type: 'reset' }

const MAX_LANDED = 200
const MAX_FORKS = 50

export function followReducer(v: FollowView, a: FollowAction): FollowView {
  switch (a.type) {
    case 'reset':
      return INITIAL_VIEW
    case 'seen':
      return v.unseen === 0 ? v : { ...v, unseen: 0 }
    case 'shown':
      return a.atHead ? (v.unseen === 0 ? v : { ...v, unseen: 0 }) : { ...v, unseen: v.unseen + a.count }
    case 'failed':
      return { ...v, connection: 'stopped', mode: null, detail: a.message }
    case 'event': {
      const e = a.event
      switch (e.type) {
        case 'state':
          return {
            ...v,
            connection: e.state,
            mode: e.state === 'live' ? (e.mode ?? null) : null,
            detail: e.detail ?? null,
          }
        case 'update':
          return { ...v, landed: [...v.landed, e.sequenceId].slice(-MAX_LANDED) }
        case 'fork':
          return {
            ...v,
            forks: [
              ...v.forks,
              {
                sequenceId: e.sequenceId,
                reason: e.reason,
                shownDigest: e.printedDigest,
                servedDigest: e.servedDigest,
              },
            ].slice(-MAX_FORKS),
          }
        case 'skipped':
          return {
            ...v,
            skipped: [`${e.sequenceId === null ? '' : `sequence id ${e.sequenceId}: `}${e.reason}`, ...v.skipped].slice(
              0,
              5,
            ),
          }
      }
    }
  }
}

/** A step of the timeline, as the inspector selects it. */
export interface StepAt {
  readonly sequenceId: bigint
  readonly action: number
}

/**
 * Where the view goes when the log grows to `newHead`: the new head when the user was at
 * the head (or nowhere yet), else the step the user is on.
 */
export function placement(
  atHead: boolean,
  current: StepAt | null,
  newHead: bigint,
): { step: StepAt; follows: boolean } {
  if (atHead || current === null) return { step: { sequenceId: newHead, action: 0 }, follows: true }
  return { step: current, follows: false }
}

/** The log bundle of the updates, ascending by sequence id, with their exact bytes. */
export function bundleOfEntries(inboxId: string, entries: ReadonlyMap<bigint, Uint8Array>): string {
  const updates = [...entries.entries()]
    .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
    .map(([sequenceId, bytes]) => ({ sequenceId, bytes }))
  return encodeBundleJson({ inboxId, updates })
}

/** "3 new updates" */
export function unseenText(n: number): string {
  return `${n} new update${n === 1 ? '' : 's'}`
}

const REASON_TEXT: Record<ForkNote['reason'], string> = {
  gone: 'withheld: the node no longer serves this update, which it served before',
  'different-bytes': 'fork: the node now serves other bytes under this sequence id',
  inserted: 'fork: the node now serves an update below the head that it did not serve before',
}

export function forkText(f: ForkNote): string {
  return `Sequence id ${f.sequenceId}: ${REASON_TEXT[f.reason]}.`
}
