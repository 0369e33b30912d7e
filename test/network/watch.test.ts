/**
 * `watch` against independent fake nodes (./fake-node.ts), in process through the CLI's
 * `run`: a handle whose answer the log does not back (IDENT-085) is refused with nothing
 * printed; a node whose first answer is not an answer of the API is refused at once; a
 * caller's signal ends a watch with status 0.
 */
import { afterAll, describe, expect, it } from 'vitest'
import { run } from '../../src/cli/main'
import { add, installation, newInbox, wallet } from '../devnode/updates'
import { type FakeNode, identityUpdatesAnswer, inboxIdsAnswer, startFakeNode } from './fake-node'

const fakes: FakeNode[] = []
afterAll(async () => {
  for (const f of fakes) await f.close()
})

async function watch(argv: string[], signal?: AbortSignal, onOut?: (s: string) => void) {
  let stdout = ''
  let stderr = ''
  const status = await run(['watch', ...argv], {
    out: (s) => {
      const t = typeof s === 'string' ? s : Buffer.from(s).toString()
      stdout += t
      onOut?.(t)
    },
    err: (s) => (stderr += s),
    ...(signal ? { signal } : {}),
  })
  return { status, stdout, stderr }
}

describe('watch against fake nodes', () => {
  it('--handle: an answer whose log does not hold the handle is refused (IDENT-085), printing nothing', async () => {
    const w = wallet('watch mallory')
    const created = await newInbox(w)
    const inbox = created.inboxId
    const log = identityUpdatesAnswer(inbox, [{ sequenceId: 1n, serverTimestampNs: 5n, update: created.bytes }])
    for (const t of ['gateway', 'grpc-web'] as const) {
      const f = await startFakeNode(t, (c) =>
        c.path.endsWith('get-inbox-ids') || c.path.endsWith('/GetInboxIds')
          ? { message: inboxIdsAnswer('mallory', inbox, 3) }
          : { message: log },
      )
      fakes.push(f)
      const r = await watch(['--node', f.url, '--transport', t, '--handle', 'Mallory', '--json'])
      expect(r.status).toBe(1)
      expect(r.stdout).toBe('')
      expect(r.stderr.trim().split('\n').at(-1)).toMatch(new RegExp(`^error: .*inbox ${inbox}.*IDENT-085`))
    }
  })

  it('a first answer that is not an answer of the API is refused at once (exit 1)', async () => {
    const f = await startFakeNode('gateway', () => ({
      http: { status: 200, contentType: 'text/html', body: '<html>not a node</html>' },
    }))
    fakes.push(f)
    const r = await watch(['--node', f.url, '--inbox', 'ab'.repeat(32)])
    expect(r.status).toBe(1)
    expect(r.stderr).toMatch(/error: .*answered text\/html, not binary protobuf/)
    expect(f.calls).toHaveLength(1)
  })

  it("judges each update on the state the earlier ones left, and ends with status 0 on the caller's signal", async () => {
    const w = wallet('watch fake judge')
    const created = await newInbox(w)
    const inbox = created.inboxId
    // An add signed by a wallet that is not a member: rejected, and the log stops there.
    const stranger = await add(inbox, wallet('watch fake stranger'), installation('watch fake x'))
    const later = await add(inbox, w, installation('watch fake y'))
    const rows = [
      { sequenceId: 1n, serverTimestampNs: 7n, update: created.bytes },
      { sequenceId: 4n, serverTimestampNs: 8n, update: stranger.bytes },
      { sequenceId: 9n, serverTimestampNs: 9n, update: later.bytes },
    ]
    const f = await startFakeNode('gateway', () => ({ message: identityUpdatesAnswer(inbox, rows) }))
    fakes.push(f)
    const stop = new AbortController()
    let lines = 0
    const r = await watch(['--node', f.url, '--inbox', inbox, '--json'], stop.signal, (s) => {
      lines += s.split('\n').length - 1
      if (lines === 3) stop.abort()
    })
    expect(r.status).toBe(0)
    const out = r.stdout
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l))
    expect(out.map((o) => [o.sequence_id, o.status, o.server_timestamp_ns])).toEqual([
      ['1', 'applied', '7'],
      ['4', 'rejected', '8'],
      ['9', 'not_applied', '9'],
    ])
    expect(out[1].rule).toMatch(/^IDENT-0\d\d$/)
    expect(out[2].message).toBe('log cannot be read past sequence id 4')
  })
})
