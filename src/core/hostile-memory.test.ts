/**
 * Issue #14, finding 8: the Trace of a huge log keeps what the views need without
 * building, per update it never reaches, a signature text and its unchecked signatures.
 * Counted: every signature text built goes through the wrapped signatureText.
 */
import { beforeEach, describe, expect, it, vi } from 'vitest'
import { encodeUpdate } from './encode/update'
import { decodeUpdate } from './decode/update'
import { replay } from './replay'
import type { LogEntry } from './types'

const built = vi.hoisted(() => ({ texts: 0 }))
vi.mock('./text/signature-text', async (importOriginal) => {
  const real = await importOriginal<typeof import('./text/signature-text')>()
  return {
    ...real,
    signatureText: (u: Parameters<typeof real.signatureText>[0]) => {
      built.texts++
      return real.signatureText(u)
    },
  }
})

beforeEach(() => {
  built.texts = 0
})

/** `n` tiny updates (a claim with a junk signature): the first is refused, the rest are not reached. */
function tinyLog(n: number): LogEntry[] {
  const bytes = encodeUpdate({
    inboxId: 'tiny',
    clientTimestampNs: 1n,
    actions: [{ kind: 'claim_handle', handle: 'tiny', signature: { kind: 'erc_191', bytes: new Uint8Array(8) } }],
  })
  const update = decodeUpdate(bytes)
  return Array.from({ length: n }, (_, i) => ({ sequenceId: BigInt(i + 1), update }))
}

describe('issue #14: Trace memory', () => {
  it('finding 8: a log that stops early builds no signature text for the updates it does not reach', async () => {
    const trace = await replay({ entries: tinyLog(5000), format: 'single-update' })
    expect(trace.steps[0]!.status).toBe('rejected')
    expect(trace.steps.slice(1).every((s) => s.status === 'not_applied')).toBe(true)
    // At most the refused update's own text: not one per unreached update.
    expect(built.texts).toBeLessThanOrEqual(1)
    // A view that reads a step still gets its text and its unchecked signatures, once.
    const s = trace.steps[4999]!
    expect(s.signatureText).toContain('Claim handle')
    expect(s.signatures.map((c) => c.verdict)).toEqual(['unchecked'])
    expect(s.signatureText).toBe(s.signatureText)
    expect(built.texts).toBeLessThanOrEqual(2)
  })
})
