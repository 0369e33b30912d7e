/**
 * Opening a call of the node's traffic in the inspector. A stored update: the inbox's log
 * fetched from the node, at that sequence id. A refused one: the inbox's log fetched from
 * the node with the refused update appended after its head (trace/append.ts keeps every
 * earlier update's exact bytes), so the inspector judges it as the node did and shows it
 * rejected with its rule. A call about an inbox: its log, at the head.
 */
import { hexToBytes } from '../../../crypto/bytes'
import { appendToBundle } from '../../trace/append'
import { fetchNodeLog, type InspectRequest } from '../../model/inspect-request'
import type { CallTarget, TrafficCall } from './traffic-model'

class OpenCallError extends Error {
  override readonly name = 'OpenCallError'
}

const short = (id: string) => (id.length > 12 ? `${id.slice(0, 10)}…` : id)

export async function requestForCall(
  nodeUrl: string,
  call: TrafficCall,
  target: Exclude<CallTarget, { kind: 'none' }>,
  signal?: AbortSignal,
): Promise<InspectRequest> {
  const { log, bundle } = await fetchNodeLog(nodeUrl, target.inboxId, signal)
  const where = `${nodeUrl}: inbox ${short(target.inboxId)}`
  switch (target.kind) {
    case 'inbox':
      return { kind: 'node', label: `${where} (call #${call.id})`, name: `traffic-${target.inboxId}`, input: bundle }
    case 'stored': {
      if (!log.updates.some((u) => u.sequenceId === target.sequenceId))
        throw new OpenCallError(
          `the node's log of inbox ${target.inboxId} no longer holds sequence id ${target.sequenceId} (call #${call.id} stored it; the node may have restarted on another store)`,
        )
      return {
        kind: 'node',
        label: `${where} (call #${call.id})`,
        name: `traffic-${target.inboxId}`,
        input: bundle,
        step: { sequenceId: target.sequenceId, action: 0 },
      }
    }
    case 'refused': {
      const appended = appendToBundle(
        log.updates.map((u) => ({ sequenceId: u.sequenceId, bytes: u.bytes })),
        target.inboxId,
        hexToBytes(target.updateHex),
      )
      return {
        kind: 'paste',
        label: `${where} + the update call #${call.id} was refused (appended after the head)`,
        name: `traffic-${target.inboxId}-refused-${call.id}`,
        input: appended.bundle,
        step: { sequenceId: appended.sequenceId, action: 0 },
      }
    }
  }
}
