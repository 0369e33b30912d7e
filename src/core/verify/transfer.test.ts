import { describe, expect, it } from 'vitest'
import type { UnverifiedUpdate } from '../types'
import { fixtureLogs } from '../../../test/verify/kit'
import { fromResult, jobUpdate, packedCopy, toJob, toJobs, toResult } from './transfer'
import { verifyUpdate } from './update'

const decoded = () =>
  fixtureLogs()
    .filter((f) => f.file.endsWith('.json') && !f.file.includes('gateway'))
    .flatMap((f) => f.log.entries.map((e) => ({ f, u: e.update })))
    .filter((x): x is { f: (typeof x)['f']; u: UnverifiedUpdate } => !('error' in x.u))

describe('toJob / jobUpdate', () => {
  it("a batch's jobs survive structuredClone, their byte arrays share one buffer of their own, and each clone verifies to the same checks and text", async () => {
    const all = decoded()
    expect(all.length).toBeGreaterThan(100)
    for (let i = 0; i < all.length; i += 4) {
      const batch = all.slice(i, i + 4)
      const jobs = structuredClone(toJobs(batch.map(({ u }, k) => ({ seq: i + k, update: u }))))
      const arrays: Uint8Array[] = []
      const sizes: number[] = []
      JSON.stringify(jobs, (_k, v: unknown) =>
        v instanceof Uint8Array ? (arrays.push(v), null) : typeof v === 'bigint' ? String(v) : v,
      )
      for (const { u } of batch)
        JSON.stringify(u.actions, (_k, v: unknown) =>
          v instanceof Uint8Array ? (sizes.push(v.length), null) : typeof v === 'bigint' ? String(v) : v,
        )
      // One buffer, exactly as large as the batch's byte arrays: no input buffer came along.
      expect(new Set(arrays.map((a) => a.buffer)).size).toBeLessThanOrEqual(1)
      expect(arrays[0]?.buffer.byteLength ?? 0).toBe(sizes.reduce((a, b) => a + b, 0))
      for (const [k, { f, u }] of batch.entries()) {
        const job = jobs[k]!
        expect(job.seq).toBe(i + k)
        const there = await verifyUpdate(jobUpdate(job), f.ctx)
        const here = await verifyUpdate(u, f.ctx)
        expect(there.text).toBe(here.text)
        expect(there.checks).toEqual(here.checks)
      }
    }
  })
  it('toJob is the batch of one', () => {
    const { u } = decoded()[0]!
    expect(toJob(3, u)).toEqual(toJobs([{ seq: 3, update: u }])[0])
  })
  it('a job does not carry the update bytes (the sender keeps them)', () => {
    const { u } = decoded()[0]!
    expect(Object.keys(toJob(0, u).update).sort()).toEqual(['actions', 'clientTimestampNs', 'inboxId'])
  })
})

describe('toResult / fromResult', () => {
  it("round-trips a VerifiedUpdate through structuredClone: same text and checks, the sender's own update", async () => {
    for (const { f, u } of decoded()) {
      const v = await verifyUpdate(u, f.ctx)
      const back = fromResult(u, structuredClone(toResult(3, v)))
      expect(back.update).toBe(u)
      expect(back).toEqual(v)
    }
  })
})

describe('packedCopy', () => {
  it('copies byte arrays into views of one new buffer, in order, and keeps bigints', () => {
    const big = new Uint8Array(100).map((_, i) => i)
    const c = packedCopy({ a: big.subarray(10, 12), n: 5n, list: [big.subarray(0, 1)], none: null })
    expect(c.a).toEqual(new Uint8Array([10, 11]))
    expect(c.list[0]).toEqual(new Uint8Array([0]))
    expect(c.a.buffer).toBe(c.list[0]!.buffer)
    expect(c.a.buffer.byteLength).toBe(3)
    expect(c.n).toBe(5n)
    expect(c.none).toBeNull()
    // A copy: changing the input later does not change it.
    big[10] = 99
    expect(c.a[0]).toBe(10)
  })
  it('refuses class instances, which would not survive the boundary as themselves', () => {
    class Thing {
      x = 1
    }
    expect(() => packedCopy({ t: new Thing() })).toThrow('a Thing instance cannot cross a worker boundary')
  })
})
