/**
 * Reading a node into the run's snapshot (./store.ts), once: over d14n, every identity
 * envelope of the identity originator, paged (../network/identity-feed.ts), with the holes
 * in its sequence ids noted (a node skips an update that fails its own validation, or
 * withholds one: the report names each hole); over the identity API, which cannot list
 * inboxes, each inbox that `--inboxes` names, by GetIdentityUpdates.
 */
import { readFileSync } from 'node:fs'
import type { Transport } from '@connectrpc/connect'
import { createRemote, RemoteError, type Api, type RpcTransportKind, type TransportKind } from '../network/remote'
import { identityPages, type FeedPage, syncTarget } from '../network/identity-feed'
import { nodeTransportFor } from '../network/transports-node'
import type { WireLog } from './inputs'
import type { Summary } from './row'

export interface NodeSource {
  readonly url: string
  readonly api: Api
  readonly transport: TransportKind
  /** --inboxes: the file naming the inboxes (required for the identity API). */
  readonly inboxesFile?: string
  readonly pageSize?: number
}

/** The node could not be reached or answered with something that is not an answer (exit status 1). */
export class NodeFailure extends Error {
  override readonly name = 'NodeFailure'
}

export type Gap = NonNullable<Summary['sequence_gaps']>[number]

/** One sequence id of the identity originator, and the inbox of its update (null: not an identity update). */
export interface SeenSeq {
  readonly seq: bigint
  readonly inbox: string | null
}

/** The sequence ids of a page: its updates with their inboxes, and the envelopes skipped as not identity updates. */
export function seenOf(page: FeedPage): SeenSeq[] {
  return [
    ...page.updates.map((u) => ({ seq: u.sequenceId, inbox: u.inboxId })),
    ...page.skipped.flatMap((s) => (s.sequenceId === null ? [] : [{ seq: s.sequenceId, inbox: null }])),
  ]
}

/**
 * Tracks the identity originator's sequence ids as they are listed, and the holes between
 * them, each with the inboxes of the updates on either side (what can be told of whose
 * update is missing: see the summary's `sequence_gaps` in docs/audit.md).
 */
export class GapTracker {
  last = 0n
  /** The inbox of the update at `last` (null: none, or not an identity update). */
  lastInbox: string | null = null
  readonly gaps: Gap[] = []
  skipped = 0
  see(seen: readonly SeenSeq[]): void {
    for (const { seq: s, inbox } of [...seen].sort((a, b) => (a.seq < b.seq ? -1 : a.seq > b.seq ? 1 : 0))) {
      if (s <= this.last) continue
      if (s > this.last + 1n)
        this.gaps.push({
          after: this.last.toString(),
          before: s.toString(),
          missing: (s - this.last - 1n).toString(),
          after_inbox: this.lastInbox,
          before_inbox: inbox,
          ...(this.lastInbox !== null && this.lastInbox === inbox ? { inbox_id: inbox } : {}),
        })
      this.last = s
      this.lastInbox = inbox
    }
  }
}

/** The holes beside each inbox's updates, by inbox id (the rows' `sequence_gaps`). */
export function gapsByInbox(gaps: readonly Gap[]): Map<string, { after: string; before: string; missing: string }[]> {
  const m = new Map<string, { after: string; before: string; missing: string }[]>()
  for (const g of gaps) {
    const hole = { after: g.after, before: g.before, missing: g.missing }
    for (const inbox of new Set([g.after_inbox, g.before_inbox])) {
      if (inbox === null || inbox === undefined) continue
      const l = m.get(inbox)
      if (l) l.push(hole)
      else m.set(inbox, [hole])
    }
  }
  return m
}

export function transportOf(src: NodeSource): Transport {
  if (src.transport === 'gateway') throw new NodeFailure(`${src.url}: the d14n API has no HTTP gateway`)
  return nodeTransportFor(src.transport as RpcTransportKind, src.url.replace(/\/+$/, ''))
}

/** A page's updates grouped into wire logs by inbox. */
export function pageLogs(url: string, page: FeedPage): WireLog[] {
  const by = new Map<string, { seq: bigint; ts: bigint; bytes: Uint8Array }[]>()
  for (const u of page.updates) {
    let l = by.get(u.inboxId)
    if (!l) by.set(u.inboxId, (l = []))
    l.push({ seq: u.sequenceId, ts: u.originatorNs, bytes: u.update })
  }
  return [...by].map(([inboxId, entries]) => ({ source: url, key: inboxId, inboxId, entries }))
}

const messageOf = (e: unknown): string => (e instanceof Error ? e.message : String(e)).replace(/\s+/g, ' ').trim()

/**
 * Lists every identity update of a d14n node into `put`, page by page; returns the holes
 * and the last sequence id. `progress` gets the updates listed and the node's target (null
 * when the node does not say).
 */
export async function listD14n(
  src: NodeSource,
  put: (logs: WireLog[]) => Promise<void>,
  progress: (listed: number, target: bigint | null) => void,
  signal?: AbortSignal,
): Promise<GapTracker> {
  const transport = transportOf(src)
  const o = { transport, ...(src.pageSize ? { pageSize: src.pageSize } : {}), ...(signal ? { signal } : {}) }
  let target: bigint | null = null
  try {
    target = await syncTarget(o)
  } catch {
    target = null // progress without a target
  }
  const gaps = new GapTracker()
  let listed = 0
  try {
    for await (const page of identityPages(o)) {
      gaps.see(seenOf(page))
      gaps.skipped += page.skipped.length
      await put(pageLogs(src.url, page))
      listed += page.updates.length
      progress(listed, target)
    }
  } catch (e) {
    throw new NodeFailure(
      `${src.url} (d14n API over ${src.transport}): listing the identity updates failed: ${messageOf(e)}`,
    )
  }
  return gaps
}

/** The inbox ids of an `--inboxes` file: one a line; blank lines and `#` comments skipped; repeats once. */
export function readInboxList(file: string): string[] {
  let text: string
  try {
    text = readFileSync(file, 'utf8')
  } catch (e) {
    throw new NodeFailure(`--inboxes ${file}: cannot read: ${messageOf(e)}`)
  }
  const out = new Set<string>()
  for (const raw of text.split(/\r?\n/)) {
    const line = raw.trim()
    if (line === '' || line.startsWith('#')) continue
    out.add(/^[0-9a-fA-F]{64}$/.test(line) ? line.toLowerCase() : line)
  }
  return [...out]
}

/**
 * Reads each named inbox's whole log over the API (8 at a time) into `put`. A node that
 * cannot be reached is a NodeFailure; an inbox whose answer is malformed is that inbox's
 * `unreadable` row.
 */
export async function listByInboxes(
  src: NodeSource,
  inboxes: readonly string[],
  put: (logs: WireLog[]) => Promise<void>,
  progress: (listed: number, target: bigint | null) => void,
): Promise<void> {
  const remote = createRemote({
    node: src.url,
    api: src.api,
    transport: src.transport,
    transportFor: nodeTransportFor,
    ...(src.pageSize ? { pageSize: src.pageSize } : {}),
  })
  let next = 0
  let done = 0
  const one = async (inboxId: string): Promise<WireLog> => {
    try {
      const log = await remote.fetchLog({ kind: 'inbox', value: inboxId })
      return {
        source: src.url,
        key: inboxId,
        inboxId: log.inboxId,
        entries: log.updates.map((u) => ({ seq: u.sequenceId, ts: u.serverTimestampNs, bytes: u.bytes })),
      }
    } catch (e) {
      if (e instanceof RemoteError && e.kind !== 'unreachable' && e.kind !== 'unimplemented')
        return { source: src.url, key: inboxId, inboxId, unreadable: e.message }
      throw new NodeFailure(messageOf(e))
    }
  }
  const lane = async (): Promise<void> => {
    while (next < inboxes.length) {
      const id = inboxes[next++]!
      await put([await one(id)])
      progress(++done, BigInt(inboxes.length))
    }
  }
  await Promise.all(Array.from({ length: Math.min(8, inboxes.length) }, lane))
}
