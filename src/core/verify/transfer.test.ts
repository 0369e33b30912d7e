import { describe, expect, it } from 'vitest'
import type { UnverifiedUpdate } from '../types'
import { fixtureLogs } from '../../../test/verify/kit'
import { fromResult, jobUpdate, ownedCopy, toJob, toResult } from './transfer'
import { verifyUpdate } from './update'

const decoded = () =>
  fixtureLogs()
    .filter((f) => f.file.endsWith('.json') && !f.file.includes('gateway'))
    .flatMap((f) => f.log.entries.map((e) => ({ f, u: e.update })))
    .filter((x): x is { f: (typeof x)['f']; u: UnverifiedUpdate } => !('error' in x.u))

describe('toJob / jobUpdate', () => {
  it('a job survives structuredClone, its byte arrays own their buffers, and the clone verifies to the same checks and text', async () => {
    const all = decoded()
    expect(all.length).toBeGreaterThan(100)
    for (const { f, u } of all) {
      const job = structuredClone(toJob(7, u))
      expect(job.seq).toBe(7)
      const arrays: Uint8Array[] = []
      JSON.stringify(job.update, (_k, v: unknown) =>
        v instanceof Uint8Array ? (arrays.push(v), null) : typeof v === 'bigint' ? String(v) : v,
      )
      for (const a of arrays) expect(a.byteLength).toBe(a.buffer.byteLength)
      const there = await verifyUpdate(jobUpdate(job), f.ctx)
      const here = await verifyUpdate(u, f.ctx)
      expect(there.text).toBe(here.text)
      expect(there.checks).toEqual(here.checks)
    }
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

describe('ownedCopy', () => {
  it('copies subarrays into their own buffers and keeps bigints', () => {
    const big = new Uint8Array(100).map((_, i) => i)
    const c = ownedCopy({ a: big.subarray(10, 12), n: 5n, list: [big.subarray(0, 1)] })
    expect(c.a).toEqual(new Uint8Array([10, 11]))
    expect(c.a.buffer.byteLength).toBe(2)
    expect(c.n).toBe(5n)
  })
  it('refuses class instances, which would not survive the boundary as themselves', () => {
    class Thing {
      x = 1
    }
    expect(() => ownedCopy({ t: new Thing() })).toThrow('a Thing instance cannot cross a worker boundary')
  })
})
