import { describe, expect, it } from 'vitest'
import { addMember, createInbox, ethKeySigner, revokeMember, signUpdate } from '../signing'
import { replay } from './replay'
import { resolveIdentifier } from './resolve'
import type { InboxLog, LogEntry } from './types'

const w = ethKeySigner(new Uint8Array(32).fill(7))
const other = ethKeySigner(new Uint8Array(32).fill(8))

async function log(seqs: bigint[], drafts: Parameters<typeof signUpdate>[0]['actions'][]): Promise<InboxLog> {
  const entries: LogEntry[] = []
  let inboxId: string | undefined
  for (const [i, actions] of drafts.entries()) {
    const u = await signUpdate({
      ...(inboxId ? { inboxId } : {}),
      clientTimestampNs: BigInt(i + 1) * 10n ** 18n,
      actions,
    })
    inboxId ??= u.update.inboxId
    entries.push({ sequenceId: seqs[i]!, update: { ...u.update, bytes: u.bytes, bytesSource: 'input' } })
  }
  return { entries, format: 'bundle-json' }
}

describe('resolveIdentifier', () => {
  it('resolves to the inbox of the live association with the highest sequence id, and exposes the older one after revocation (section 9)', async () => {
    const first = await log([1n], [[createInbox(w)]])
    const second = await log([5n, 9n], [[createInbox(other)], [addMember(other, w)]])
    const h1 = (await replay(first)).head
    const h2 = (await replay(second)).head
    const r = resolveIdentifier(w.identifier, [h1, h2])
    expect(r.inboxId).toBe(h2!.inboxId)
    expect(r.live).toHaveLength(2)
    expect(r.reason).toMatch(/2 inboxes/)
    const revoked = await log([5n, 9n, 12n], [[createInbox(other)], [addMember(other, w)], [revokeMember(w, other)]])
    const r2 = resolveIdentifier(w.identifier, [h1, (await replay(revoked)).head])
    expect(r2.inboxId).toBe(h1!.inboxId)
    expect(resolveIdentifier({ kind: 'ethereum', text: `0x${'00'.repeat(20)}` }, [h1]).inboxId).toBeNull()
  })
})
