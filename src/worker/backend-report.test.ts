import { describe, expect, it } from 'vitest'
import { buildFastBackend, defaultFastLoaders } from '../crypto/backend'
import { nobleBackend } from '../crypto/noble-backend'
import { describeBackend, timedBackend, type PrimitiveTimings } from './backend-report'

describe('describeBackend', () => {
  it('names a complete fast backend, and each primitive that fell back to noble with its reason', async () => {
    expect(describeBackend(await buildFastBackend(), 12.4)).toBe('fast, loaded in 12 ms')
    const partial = await buildFastBackend({
      ...defaultFastLoaders,
      p256: () => Promise.reject(new Error('no subtle')),
    })
    expect(describeBackend(partial, 3)).toBe(
      'fast except p256-verify (OpenSSL (node:crypto) unavailable: no subtle), loaded in 3 ms',
    )
    expect(describeBackend(nobleBackend, 0)).toBe('noble, loaded in 0 ms')
  })

  it("timedBackend gives the backend's answers and counts each call", async () => {
    const fast = await buildFastBackend()
    const into: PrimitiveTimings = {}
    let clock = 0
    const timed = timedBackend(fast, into, () => (clock += 1))
    const data = new Uint8Array([1, 2, 3])
    expect(timed.keccak256(data)).toEqual(fast.keccak256(data))
    expect(timed.sha256(data)).toEqual(fast.sha256(data))
    expect(await timed.verifyEd25519ph(new Uint8Array(64), data, new Uint8Array(32), new Uint8Array(0))).toBe(
      await fast.verifyEd25519ph(new Uint8Array(64), data, new Uint8Array(32), new Uint8Array(0)),
    )
    expect(into).toEqual({
      keccak256: { calls: 1, ms: 1 },
      sha256: { calls: 1, ms: 1 },
      'ed25519ph-verify': { calls: 1, ms: 1 },
    })
  })
})
