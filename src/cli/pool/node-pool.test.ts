import { describe, expect, it } from 'vitest'
import { readLogs } from '../../core/decode/logs'
import { replay } from '../../core/replay'
import { syntheticBundle } from '../../../e2e/synthetic-log'
import { comparableTrace, fixtureLogs } from '../../../test/verify/kit'
import type { UnverifiedUpdate } from '../../core/types'
import type { UpdateVerifyOptions } from '../../core/verify/update'
import { fastReplayOptions, nodeVerifyPool, POOL_MIN_CORES, POOL_THRESHOLD, spawnNodeWorker } from './node-pool'

describe('nodeVerifyPool (worker_threads under tsx)', () => {
  it('a worker thread starts, loads its backend and says so', async () => {
    const backend = await new Promise<string>((resolve, reject) => {
      const port = spawnNodeWorker(0, {
        message: (m) => {
          if (m.type === 'ready') {
            port.terminate()
            resolve(m.backend)
          }
        },
        error: (r) => reject(new Error(r)),
      })
    })
    expect(typeof backend).toBe('string')
  })

  it('replays every fixture and a 300-update synthetic log with the same Trace as one thread', async () => {
    const [big] = readLogs(await syntheticBundle(300, { rejectAt: 290 }))
    const logs = [
      ...fixtureLogs().filter((f) => f.file.endsWith('.json')),
      { file: 'synthetic-300', log: big!, ctx: {} as UpdateVerifyOptions },
    ]
    const pool = nodeVerifyPool({}, { size: 2 })
    try {
      for (const f of logs) {
        // The local verification carries the fixture's smart wallet verifier (erc_6492 stays on this thread).
        const p = f.ctx.smartWallets ? nodeVerifyPool(f.ctx, { size: 0 }) : pool
        const fast = await replay(f.log, { ...f.ctx, verify: p.verify, verifyAhead: p.ahead, verifyAfterStop: true })
        expect(comparableTrace(fast), f.file).toEqual(
          comparableTrace(await replay(f.log, { ...f.ctx, verifyAfterStop: true })),
        )
      }
      const s = pool.stats()
      expect(s.failures).toEqual([])
      expect(s.live).toBe(2)
      expect(s.remote).toBeGreaterThan(0)
    } finally {
      pool.close()
    }
  }, 180_000)

  it('falls back to the main thread when worker threads cannot start', async () => {
    const [log] = readLogs(await syntheticBundle(12))
    const pool = nodeVerifyPool(
      {},
      {
        size: 2,
        spawn: () => {
          throw new Error('ERR_WORKER_INIT_FAILED (test)')
        },
      },
    )
    const t = await replay(log!, { verify: pool.verify, verifyAhead: pool.ahead })
    expect(comparableTrace(t)).toEqual(comparableTrace(await replay(log!)))
    expect(pool.stats()).toMatchObject({ live: 0, local: 12 })
  })
})

describe('fastReplayOptions', () => {
  it(`uses no pool below POOL_THRESHOLD (${POOL_THRESHOLD}) decoded updates, and a pool at it`, async () => {
    const [log] = readLogs(await syntheticBundle(3))
    const small = fastReplayOptions([log!], {})
    expect(small.pool).toBeNull()
    expect(small.replay.verify).toBeUndefined()
    const big = fastReplayOptions(
      [log!],
      {},
      { threshold: 3, size: 1, spawn: () => ({ post: () => undefined, terminate: () => undefined }) },
    )
    expect(big.replay.verify).toBeTypeOf('function')
    void big.replay.verify!(log!.entries[0]!.update as UnverifiedUpdate, 0).catch(() => undefined)
    expect(big.pool).not.toBeNull()
    big.close()
  })

  it(`at POOL_THRESHOLD updates uses a pool only on ${POOL_MIN_CORES} cores or more (on two it measured slower)`, async () => {
    const [log] = readLogs(await syntheticBundle(3))
    const e = log!.entries[1]!
    const big = { ...log!, entries: Array.from({ length: POOL_THRESHOLD }, () => e) }
    const none = () => ({ post: () => undefined, terminate: () => undefined })
    for (const cores of [1, 2, POOL_MIN_CORES, 8]) {
      const f = fastReplayOptions([big], {}, { cores, size: 1, spawn: none })
      expect(f.replay.verify !== undefined, `${cores} cores`).toBe(cores >= POOL_MIN_CORES)
      f.close()
    }
  })

  it('finding 8: a log that stops at its first update starts no worker thread', async () => {
    const [log] = readLogs(await syntheticBundle(3))
    // The first update, applied to no state, is refused without a signature (no CreateInbox first).
    const entries = log!.entries.slice(1)
    let spawned = 0
    const fast = fastReplayOptions(
      [{ ...log!, entries }],
      {},
      {
        threshold: 1,
        size: 1,
        spawn: () => {
          spawned++
          return { post: () => undefined, terminate: () => undefined }
        },
      },
    )
    const trace = await replay({ ...log!, entries }, fast.replay)
    fast.close()
    expect(trace.steps[0]!.status).toBe('rejected')
    expect(spawned).toBe(0)
    expect(fast.pool).toBeNull()
  })
})
