/**
 * Issue #14, findings 1 and 8, in the core: work counted, never timed.
 */
import { describe, expect, it } from 'vitest'
import type { VerifyBackend } from '../crypto/backend'
import { nobleBackend } from '../crypto/noble-backend'
import { Ed25519phPrehash } from '../crypto/ed25519ph'
import { applyUpdate } from './apply/update'
import { decodeUpdate } from './decode/update'
import { replay } from './replay'
import type { UnverifiedUpdate } from './types'
import { verifyUpdate } from './verify/update'
import { countingBackend } from '../../test/support/counting-backend'
import { signedBigUpdate } from '../../test/support/big-update'

async function bigUpdate(adds: number, claim: boolean): Promise<UnverifiedUpdate> {
  return decodeUpdate(await signedBigUpdate('hostile-test-', adds, { claim }))
}

describe('issue #14: the order and amount of verification work', () => {
  it('finding 1: a rule that needs no signature refuses before any signature is verified', async () => {
    const u = await bigUpdate(20, true)
    const counting = countingBackend()
    const trace = await replay(
      { entries: [{ sequenceId: 1n, update: u }], format: 'single-update' },
      { crypto: counting.backend },
    )
    expect(counting.count()).toBe(0)
    const step = trace.steps[0]!
    expect(step.status).toBe('rejected')
    expect(step.rule).toBe('IDENT-079')
    expect(step.signatures.every((c) => c.verdict === 'unchecked' && /IDENT-079/.test(c.reason))).toBe(true)
  })

  it('guard for finding 1: the inspector (verifyAfterStop) still verifies every signature of a refused update', async () => {
    const u = await bigUpdate(2, true)
    const trace = await replay(
      { entries: [{ sequenceId: 1n, update: u }], format: 'single-update' },
      { verifyAfterStop: true },
    )
    expect(trace.steps[0]!.rule).toBe('IDENT-079')
    expect(trace.steps[0]!.signatures.every((c) => c.verdict === 'valid')).toBe(true)
  })

  it('finding 8: the signature text is hashed once per update, not once per signature', async () => {
    const u = await bigUpdate(12, false)
    const messages: unknown[] = []
    const counting: VerifyBackend = {
      ...nobleBackend,
      verifyEd25519ph: (sig, message, pk, ctx) => {
        messages.push(message)
        return nobleBackend.verifyEd25519ph(sig, message, pk, ctx)
      },
    }
    const v = await verifyUpdate(u, { crypto: counting })
    expect(v.checks.every((c) => c.verdict === 'valid')).toBe(true)
    expect(messages).toHaveLength(12)
    // Every installation signature got the one prehash object, computed once.
    expect(messages.every((m) => m instanceof Ed25519phPrehash && m === messages[0])).toBe(true)
  })

  it('finding 8: judging an update reads each signature check a bounded number of times, not once per lookup', async () => {
    const u = await bigUpdate(60, false)
    const v = await verifyUpdate(u)
    let reads = 0
    const checks = new Proxy([...v.checks], {
      get(target, p, r) {
        if (typeof p === 'string' && /^\d+$/.test(p)) reads++
        return Reflect.get(target, p, r)
      },
    })
    applyUpdate(null, { ...v, checks }, 1n)
    // 121 checks: an index is one pass; a find per lookup is about 121 * 121 / 2 reads.
    expect(reads).toBeLessThanOrEqual(2 * v.checks.length)
  })
})
