/**
 * `watch --api d14n` on a node that streams: a small in-test node (connect-node's router
 * on the local node's one-port listener) that serves QueryApi.QueryEnvelopes and
 * ReplicationApi.SubscribeEnvelopes from memory, the envelopes wrapped as xmtpd wraps them
 * (test/network/fake-node.ts) around real signed updates. The real command line follows it
 * over each transport: a new update arrives over the stream (no poll runs meanwhile); the
 * node drops every connection and comes back on the same port with an update published
 * while it was away: printed once, and the stream resumes after the last printed id.
 */
import type { ConnectRouter } from '@connectrpc/connect'
import { connectNodeAdapter } from '@connectrpc/connect-node'
import { afterAll, describe, expect, it } from 'vitest'
import { NodeListener } from '../src/devnode/listener'
import type { EnvelopesQuery } from '../src/gen/xmtpv4/message_api/message_api_pb'
import { QueryApi, ReplicationApi } from '../src/gen/xmtpv4/message_api/query_api_pb'
import { verbatimMethod, verbatimOf } from '../src/network/verbatim'
import { add, installation, newInbox, wallet } from './devnode/updates'
import { envelope, envelopesAnswer, identityTopicOf } from './network/fake-node'
import { nodeArgs, spawnCli, stopAllCli } from './support/cli'

/** An in-memory d14n node with a stream; survives its listener being closed and reopened. */
class StreamingNode {
  readonly envelopes: { seq: bigint; bytes: Uint8Array }[] = []
  /** The cursor (originator 1) of each SubscribeEnvelopes call, and of each QueryEnvelopes call. */
  readonly subscriptions: bigint[] = []
  readonly queries: bigint[] = []
  /** A hung node: it accepts calls and never answers, and its streams send nothing. */
  frozen = false
  private seq = 100n
  private readonly changed = new Set<() => void>()
  private listener: NodeListener | null = null
  port = 0

  publish(inboxId: string, update: Uint8Array): bigint {
    // Sequence ids with gaps, as an originator's are (other topics take the ids between).
    this.seq += 3n
    this.envelopes.push({
      seq: this.seq,
      bytes: envelope({ sequenceId: this.seq, update, topic: identityTopicOf(inboxId) }),
    })
    this.poke()
    return this.seq
  }

  /** Resolves once `check` holds (checked after every call and publish). */
  until(check: () => boolean): Promise<void> {
    return new Promise((resolve) => {
      const tick = () => {
        if (!check()) return
        this.changed.delete(tick)
        resolve()
      }
      this.changed.add(tick)
      tick()
    })
  }

  freeze(): void {
    this.frozen = true
  }

  thaw(): void {
    this.frozen = false
    this.poke()
  }

  private poke(): void {
    for (const f of [...this.changed]) f()
  }

  private after(query: EnvelopesQuery | undefined): bigint {
    return query?.lastSeen?.nodeIdToSequenceId[1] ?? 0n
  }

  private routes = (router: ConnectRouter) => {
    const rpc = router.rpc.bind(router) as unknown as (method: unknown, impl: unknown) => ConnectRouter
    rpc(verbatimMethod(QueryApi.method.queryEnvelopes), async (req: { query?: EnvelopesQuery }) => {
      const after = this.after(req.query)
      this.queries.push(after)
      this.poke()
      await this.until(() => !this.frozen)
      return verbatimOf(envelopesAnswer(this.envelopes.filter((e) => e.seq > after).map((e) => e.bytes)))
    })
    const node = this
    rpc(
      verbatimMethod(ReplicationApi.method.subscribeEnvelopes),
      async function* (req: { query?: EnvelopesQuery }, ctx: { signal: AbortSignal }) {
        let after = node.after(req.query)
        node.subscriptions.push(after)
        node.poke()
        // The catch-up after the cursor (possibly empty, which opens the stream), then each new envelope.
        for (;;) {
          const batch = node.envelopes.filter((e) => e.seq > after)
          if (batch.length) after = batch.at(-1)!.seq
          yield verbatimOf(envelopesAnswer(batch.map((e) => e.bytes)))
          await new Promise<void>((resolve) => {
            const wake = () => {
              node.changed.delete(check)
              ctx.signal.removeEventListener('abort', wake)
              resolve()
            }
            const check = () => {
              if (!node.frozen && node.envelopes.some((e) => e.seq > after)) wake()
            }
            node.changed.add(check)
            ctx.signal.addEventListener('abort', wake)
          })
          if (ctx.signal.aborted) return
        }
      },
    )
  }

  async start(): Promise<void> {
    this.listener = new NodeListener(connectNodeAdapter({ routes: this.routes }) as never)
    this.port = (await this.listener.listen('127.0.0.1', this.port)).port
  }

  /** Closes every connection at once, as a killed process would. */
  async drop(): Promise<void> {
    await this.listener?.close(0)
    this.listener = null
  }

  get url(): string {
    return `http://127.0.0.1:${this.port}`
  }
}

const nodes: StreamingNode[] = []
afterAll(async () => {
  await stopAllCli()
  for (const n of nodes) await n.drop()
})

const seqs = (lines: string[]) =>
  lines.filter((l) => l.trim()).map((l) => (JSON.parse(l) as { sequence_id: string }).sequence_id)

describe.each(['connect', 'grpc', 'grpc-web'] as const)(
  'watch --api d14n --transport %s on a streaming node',
  (transport) => {
    it('prints new updates from the stream, and resumes the stream after the node drops every connection', async () => {
      const node = new StreamingNode()
      nodes.push(node)
      await node.start()
      const w = wallet(`stream ${transport}`)
      const created = await newInbox(w)
      const inbox = created.inboxId
      const published = [node.publish(inbox, created.bytes)]
      published.push(node.publish(inbox, (await add(inbox, w, installation(`stream ${transport} 1`))).bytes))

      // Polls only at the catch-up and once when the stream opens: --timeout-ms keeps the
      // silent-stream check minutes away, so what comes next comes over the stream.
      const cli = spawnCli([
        'watch',
        '--json',
        ...nodeArgs(node.url, 'd14n', transport),
        '--inbox',
        inbox,
        '--timeout-ms',
        '600000',
      ])
      await cli.waitFor((l) => seqs(l).length === 2, 'the existing log')
      await cli.waitForStderr(/live: following the node’s stream/)
      // The catch-up (two pages) and the poll when the stream opened (one).
      await node.until(() => node.queries.length === 3)
      expect(node.subscriptions).toEqual([published[1]])

      published.push(node.publish(inbox, (await add(inbox, w, installation(`stream ${transport} 2`))).bytes))
      await cli.waitFor((l) => seqs(l).length === 3, 'the streamed update')
      expect(node.queries).toHaveLength(3)

      // Every connection dropped; an update published while the node is away; back on the same port.
      const from = cli.stderr().length
      await node.drop()
      await cli.waitForStderr(/connection lost/, from)
      published.push(node.publish(inbox, (await add(inbox, w, installation(`stream ${transport} 3`))).bytes))
      await node.start()
      await cli.waitForStderr(/resumed after sequence id \d+; following the node’s stream/, from)
      await cli.waitFor((l) => seqs(l).length === 4, 'the update published while the node was away')
      await node.until(() => node.subscriptions.length === 2)
      expect(node.subscriptions[1]).toBe(published[3])
      published.push(node.publish(inbox, (await add(inbox, w, installation(`stream ${transport} 4`))).bytes))
      await cli.waitFor((l) => seqs(l).length === 5, 'a streamed update after the restart')

      cli.signal('SIGINT')
      expect((await cli.exited).code).toBe(0)
      expect(seqs(cli.lines)).toEqual(published.map(String))
      for (const l of cli.lines.filter((x) => x.trim())) expect(JSON.parse(l)).toMatchObject({ status: 'applied' })
      await node.drop()
    })
  },
)

describe('watch on a node that hangs', () => {
  it('finds a stream that went silent on a node that stopped answering, and resumes once it answers again', async () => {
    const node = new StreamingNode()
    nodes.push(node)
    await node.start()
    const w = wallet('stream hung')
    const created = await newInbox(w)
    const inbox = created.inboxId
    const published = [node.publish(inbox, created.bytes)]
    const cli = spawnCli(['watch', '--json', ...nodeArgs(node.url, 'd14n'), '--inbox', inbox, '--timeout-ms', '1500'])
    await cli.waitFor((l) => seqs(l).length === 1, 'the existing log')
    await cli.waitForStderr(/live: following the node’s stream/)
    // The connection stays open; nothing comes over it and no call is answered.
    const from = cli.stderr().length
    node.freeze()
    published.push(node.publish(inbox, (await add(inbox, w, installation('stream hung 1'))).bytes))
    await cli.waitForStderr(/connection lost/, from)
    node.thaw()
    await cli.waitForStderr(/resumed after sequence id \d+/, from)
    await cli.waitFor((l) => seqs(l).length === 2, 'the update published while the node hung')
    cli.signal('SIGINT')
    expect((await cli.exited).code).toBe(0)
    expect(seqs(cli.lines)).toEqual(published.map(String))
    await node.drop()
  })
})
