/**
 * `audit --follow`: after the audit, keeps every inbox's row current as the node takes new
 * identity updates: ReplicationApi/SubscribeEnvelopes by the identity originator after the
 * listing's cursor where the node serves it, else QueryEnvelopes from the cursor once a
 * second. Each new update joins the run's snapshot; each inbox it touches is judged again
 * from its stored head (only the new updates are checked) and its row printed again. A new
 * hole in the originator's sequence ids is a notice. Runs until `signal` aborts; a dropped
 * stream is resumed after the last sequence id read, so no update is missed or read twice.
 */
import type { AuditOutcome } from './job'
import { pageLogs, GapTracker, type NodeSource, seenOf, transportOf } from './sources'
import type { AuditRequest, Run } from './run'
import { runBatch } from './work'
import { type FeedPage, identityPages, isUnimplemented, subscribeIdentity } from '../network/identity-feed'

const sleep = (ms: number, signal: AbortSignal) =>
  new Promise<void>((resolve) => {
    const t = setTimeout(resolve, ms)
    signal.addEventListener(
      'abort',
      () => {
        clearTimeout(t)
        resolve()
      },
      { once: true },
    )
  })

export async function follow(r: AuditRequest & { node: NodeSource; run: Run; signal: AbortSignal }): Promise<void> {
  const { store, run, node, signal, progress } = r
  const gaps = new GapTracker()
  gaps.last = BigInt(run.meta.cursor ?? '0')
  const length = run.meta.shardLength ?? 0
  const transport = transportOf(node)
  const apply = async (all: FeedPage): Promise<void> => {
    const after = gaps.last
    const page = { ...all, updates: all.updates.filter((u) => u.sequenceId > after) }
    const before = gaps.gaps.length
    gaps.see(seenOf(page))
    for (const g of gaps.gaps.slice(before))
      progress.note(
        `the node's identity sequence ids skip ${g.missing} after ${g.after} (before ${g.before}): an update the node did not accept, or withholds${g.inbox_id ? ` (between two updates of inbox ${g.inbox_id})` : ''}`,
      )
    const logs = pageLogs(node.url, page)
    if (!logs.length) return
    await store.putSnapshot(run, logs)
    const outcomes: { unit: string; outcome: AuditOutcome }[] = []
    for (const l of logs) {
      const shard = await store.shard(run, l.key)
      for (const o of await runBatch({ kind: 'logs', logs: shard.filter((x) => x.key === l.key) }, r.chains))
        outcomes.push({ unit: l.key.slice(0, length), outcome: o })
    }
    await store.commit(run, [], outcomes)
    for (const o of outcomes) r.emit(o.outcome.row)
  }
  let streaming = true
  progress.note(`following ${node.url} (d14n) after sequence id ${gaps.last}`)
  while (!signal.aborted) {
    try {
      if (streaming) {
        for await (const page of subscribeIdentity({ transport, signal }, gaps.last)) await apply(page)
        if (!signal.aborted) await sleep(1000, signal) // the stream ended: resume after the cursor
      } else {
        for await (const page of identityPages({ transport, signal }, gaps.last)) await apply(page)
        await sleep(1000, signal)
      }
    } catch (e) {
      if (signal.aborted) break
      if (streaming && isUnimplemented(e)) {
        streaming = false
        progress.note('the node does not stream (SubscribeEnvelopes unimplemented): polling once a second')
        continue
      }
      progress.note(`the node could not be read (${e instanceof Error ? e.message : String(e)}); retrying`)
      await sleep(2000, signal)
    }
  }
}
