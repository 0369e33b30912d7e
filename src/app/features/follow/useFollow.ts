/**
 * Following the open log on its node: the shared follower (src/network/follow.ts) reads
 * the node from the log's head on (the updates shown are passed as already printed, so a
 * node that later contradicts them raises a fork); each batch of new updates is written
 * out with every update's exact bytes and handed to the inspector to judge, at the step
 * placement() picks. One follow per open address; it ends when the switch is turned off,
 * another log is opened, or the page goes.
 */
import { useCallback, useEffect, useReducer, useRef } from 'react'
import { digestOf, followInbox } from '../../../network/follow'
import { bundleOf, createRemote } from '../../../network/remote'
import { webTransportFor } from '../../../network/transports-web'
import type { InspectRequest } from '../../model/inspect-request'
import {
  bundleOfEntries,
  type FollowAddress,
  followReducer,
  INITIAL_VIEW,
  placement,
  type StepAt,
} from './follow-model'

export interface FollowInputs {
  readonly address: FollowAddress | null
  readonly on: boolean
  /** The open log's fetch query (`?node=…&inbox=…`), kept by the logs it opens. */
  readonly fetch: string
  readonly label: string
  /** The updates the open log holds, with their bytes (read when the follow starts). */
  readonly entries: () => ReadonlyMap<bigint, Uint8Array>
  /** Where the user is now: at the head, and on which step. */
  readonly position: () => { readonly atHead: boolean; readonly current: StepAt | null }
  /** False while the inspector is busy with something else: the new log waits. */
  readonly canOpen: () => boolean
  readonly open: (request: InspectRequest) => Promise<boolean> | void
  /** Wait before showing a batch (coalesces updates that land together), ms. */
  readonly settleMs?: number
}

const remoteOf = (a: FollowAddress, signal?: AbortSignal) =>
  createRemote({
    node: a.url,
    api: a.api,
    transport: a.transport,
    transportFor: webTransportFor,
    fetch: (input, init) => globalThis.fetch(input, init),
    timeoutMs: 10_000,
    ...(signal ? { signal } : {}),
  })

export function useFollow(i: FollowInputs) {
  const [view, dispatch] = useReducer(followReducer, INITIAL_VIEW)
  const now = useRef(i)
  now.current = i
  const key = i.on && i.address ? `${i.address.url}|${i.address.api}|${i.address.transport}|${i.address.inboxId}` : null

  useEffect(() => {
    dispatch({ type: 'reset' })
    const address = now.current.address
    if (key === null || !address) return
    const ac = new AbortController()
    const entries = new Map(now.current.entries())
    let after = 0n
    for (const s of entries.keys()) if (s > after) after = s
    const printed = [...entries].map(([s, b]) => [s, digestOf(b)] as const)
    let pending = 0
    let timer: ReturnType<typeof setTimeout> | null = null
    const settle = now.current.settleMs ?? 120

    const flush = async () => {
      timer = null
      if (ac.signal.aborted || pending === 0) return
      const n = now.current
      if (!n.canOpen()) {
        timer = setTimeout(() => void flush(), 200)
        return
      }
      let head = 0n
      for (const s of entries.keys()) if (s > head) head = s
      const pos = n.position()
      const { step, follows } = placement(pos.atHead, pos.current, head)
      const count = pending
      pending = 0
      await n.open({
        kind: 'node',
        label: n.label,
        name: `follow-${address.inboxId}`,
        input: bundleOfEntries(address.inboxId, entries),
        fetch: n.fetch,
        step,
      })
      if (!ac.signal.aborted) dispatch({ type: 'shown', count, atHead: follows })
    }

    void (async () => {
      try {
        for await (const e of followInbox({
          source: remoteOf(address),
          inboxId: address.inboxId,
          after,
          printed,
          signal: ac.signal,
          giveUpMs: Number.POSITIVE_INFINITY,
        })) {
          if (ac.signal.aborted) break
          dispatch({ type: 'event', event: e })
          if (e.type === 'update' && !entries.has(e.sequenceId)) {
            entries.set(e.sequenceId, e.bytes)
            pending++
            timer ??= setTimeout(() => void flush(), settle)
          }
        }
      } catch (e) {
        if (!ac.signal.aborted) dispatch({ type: 'failed', message: e instanceof Error ? e.message : String(e) })
      }
    })()
    return () => {
      ac.abort()
      if (timer !== null) clearTimeout(timer)
    }
  }, [key])

  /** The node's log as it serves it now (the other version of a fork), opened at `sequenceId`. */
  const openServed = useCallback(async (sequenceId: bigint): Promise<string | null> => {
    const n = now.current
    if (!n.address) return 'this log was not read from a node'
    try {
      const log = await remoteOf(n.address).fetchLog({ kind: 'inbox', value: n.address.inboxId })
      const has = log.updates.some((u) => u.sequenceId === sequenceId)
      await n.open({
        kind: 'paste',
        label: `${n.address.url}: inbox ${n.address.inboxId.slice(0, 10)}… as the node serves it now`,
        name: `served-${n.address.inboxId}`,
        input: JSON.stringify(bundleOf(log)),
        ...(has ? { step: { sequenceId, action: 0 } } : {}),
      })
      return null
    } catch (e) {
      return `the node's log could not be read: ${e instanceof Error ? e.message : String(e)}`
    }
  }, [])

  const seen = useCallback(() => dispatch({ type: 'seen' }), [])
  return { view, seen, openServed }
}
