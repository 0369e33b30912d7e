import fc from 'fast-check'
import { describe, expect, it, vi } from 'vitest'
import { readLogs } from '../decode/logs'
import { replay, type ReplayOptions } from '../replay'
import type { InboxLog, LogEntry, UnverifiedUpdate } from '../types'
import { syntheticBundle } from '../../../e2e/synthetic-log'
import { comparableTrace, fixtureLogs, inProcessWorkers } from '../../../test/verify/kit'
import { LruVerdictCache } from './cache'
import { MISS_STREAK, VerifyPool, VerifyPoolClosed, type SpawnVerifyWorker } from './pool'
import { rememberVerdicts, verifyUpdate, type UpdateVerifyOptions } from './update'

const defer = (f: () => void) => void setTimeout(f, 0)

function poolFor(ctx: UpdateVerifyOptions, extra: Partial<ConstructorParameters<typeof VerifyPool>[0]> = {}) {
  const { spawn, control } = inProcessWorkers({})
  const pool = new VerifyPool({ spawn, size: 2, local: (u) => verifyUpdate(u, ctx), ...extra })
  return { pool, control }
}

/**
 * A synthetic log of `n` updates and a pool with a verdict cache: `run` replays the log
 * through the pool, `configure` reconfigures it with the cache (or `more` over it).
 */
async function cachedPool(n: number) {
  const [log] = readLogs(await syntheticBundle(n))
  const cache = new LruVerdictCache()
  const { pool } = poolFor({}, { verdicts: cache })
  const run = () => replay(log!, { verify: pool.verify, verifyAhead: pool.ahead })
  const configure = (more: Partial<Parameters<VerifyPool['configure']>[0]> = {}) =>
    pool.configure({ local: (u) => verifyUpdate(u), verdicts: cache, ...more })
  return { log: log!, cache, pool, run, configure }
}

async function both(
  log: InboxLog,
  ctx: UpdateVerifyOptions,
  opts: Partial<ReplayOptions> = {},
  extra: Partial<ConstructorParameters<typeof VerifyPool>[0]> = {},
) {
  const plain = await replay(log, { ...ctx, ...opts })
  const { pool, control } = poolFor(ctx, extra)
  try {
    const fast = await replay(log, { ...ctx, ...opts, verify: pool.verify, verifyAhead: pool.ahead })
    return { plain, fast, pool, control }
  } finally {
    pool.close()
  }
}

/** A synthetic log with one update made undecodable (IDENT-001) and the entries shuffled (IDENT-004). */
function damaged(log: InboxLog, undecodableAt: number | null, seed: number): InboxLog {
  const entries: LogEntry[] = log.entries.map((e, i) =>
    i === undecodableAt ? { sequenceId: e.sequenceId, update: { error: 'IDENT-001: test: not an update' } } : e,
  )
  const shuffled = [...entries].sort(
    (a, b) => ((Number(a.sequenceId) * 7919 + seed) % 101) - ((Number(b.sequenceId) * 7919 + seed) % 101),
  )
  return { ...log, entries: shuffled }
}

describe('VerifyPool: the Trace is the Trace of single verification', () => {
  const fixtures = fixtureLogs()
  it('every fixture of test/fixtures/index.json (all rules, IDENT-001 … IDENT-082), with and without verifyAfterStop', async () => {
    expect(fixtures.length).toBeGreaterThan(50)
    for (const f of fixtures) {
      for (const verifyAfterStop of [false, true]) {
        const { plain, fast } = await both(f.log, f.ctx, { verifyAfterStop })
        expect(comparableTrace(fast), `${f.file} verifyAfterStop=${verifyAfterStop}`).toEqual(comparableTrace(plain))
      }
    }
  }, 120_000)

  it('random synthetic logs: valid, IDENT-040 rejected at a random update, an undecodable update, shuffled order', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.integer({ min: 1, max: 24 }),
        fc.option(fc.integer({ min: 2, max: 24 }), { nil: undefined }),
        fc.option(fc.integer({ min: 0, max: 23 }), { nil: null }),
        fc.integer({ min: 0, max: 100 }),
        fc.boolean(),
        fc.integer({ min: 1, max: 5 }),
        async (n, rejectAt, undecodableAt, seed, verifyAfterStop, batchSize) => {
          const [log] = readLogs(await syntheticBundle(n, rejectAt === undefined ? {} : { rejectAt }))
          const input = damaged(log!, undecodableAt !== null && undecodableAt < n ? undecodableAt : null, seed)
          const { plain, fast } = await both(input, {}, { verifyAfterStop }, { batchSize, defer })
          expect(comparableTrace(fast)).toEqual(comparableTrace(plain))
        },
      ),
      { numRuns: 12, seed: 7 },
    )
  }, 240_000)
})

describe('VerifyPool: scheduling and fallback', () => {
  it('asks the workers in log order, in batches, and every update crosses the boundary (no local help without defer)', async () => {
    const [log] = readLogs(await syntheticBundle(20))
    const { fast, pool, control } = await both(log!, {}, {}, { batchSize: 3 })
    expect(fast.ok).toBe(true)
    const seqs = control.received.flat().flatMap((m) => m.jobs.map((j) => j.seq))
    expect([...seqs].sort((a, b) => a - b)).toEqual([...Array(20).keys()])
    expect(control.received.flat().every((m) => m.jobs.length <= 3)).toBe(true)
    expect(pool.stats()).toMatchObject({ size: 2, remote: 20, local: 0, backends: ['in-process', 'in-process'] })
  })

  it('falls back to one thread when no worker can start', async () => {
    const [log] = readLogs(await syntheticBundle(8))
    const spawn: SpawnVerifyWorker = () => {
      throw new Error('Worker is not defined')
    }
    const pool = new VerifyPool({ spawn, size: 2, local: (u) => verifyUpdate(u) })
    const t = await replay(log!, { verify: pool.verify, verifyAhead: pool.ahead })
    expect(comparableTrace(t)).toEqual(comparableTrace(await replay(log!)))
    expect(pool.stats()).toMatchObject({ live: 0, local: 8, remote: 0 })
    expect(pool.stats().failures).toEqual([
      'worker 0 could not start: Worker is not defined',
      'worker 1 could not start: Worker is not defined',
    ])
  })

  it('a worker that crashes mid-replay hands its jobs back: the others (then this thread) verify them', async () => {
    const [log] = readLogs(await syntheticBundle(16))
    const { spawn, control } = inProcessWorkers()
    control.crashNext(0)
    const pool = new VerifyPool({ spawn, size: 2, local: (u) => verifyUpdate(u), batchSize: 2 })
    const t = await replay(log!, { verify: pool.verify, verifyAhead: pool.ahead })
    expect(comparableTrace(t)).toEqual(comparableTrace(await replay(log!)))
    expect(pool.stats().live).toBe(1)
    expect(pool.stats().failures).toEqual(['worker 0 crashed (test)'])
    pool.close()
  })

  it('a batch the worker reports failed is verified on this thread', async () => {
    const [log] = readLogs(await syntheticBundle(6))
    const spawn: SpawnVerifyWorker = (_i, events) => ({
      post: (m) =>
        setTimeout(() => events.message({ type: 'failed', batch: m.batch, message: 'out of memory (test)' }), 0),
      terminate: () => undefined,
    })
    const pool = new VerifyPool({ spawn, size: 1, local: (u) => verifyUpdate(u) })
    const t = await replay(log!, { verify: pool.verify, verifyAhead: pool.ahead })
    expect(comparableTrace(t)).toEqual(comparableTrace(await replay(log!)))
    expect(pool.stats().local).toBe(6)
  })

  it('with defer, this thread helps while no worker is ready', async () => {
    const [log] = readLogs(await syntheticBundle(10))
    // Workers that never answer: every update must be verified by the helping thread.
    const spawn: SpawnVerifyWorker = () => ({ post: () => undefined, terminate: () => undefined })
    const pool = new VerifyPool({ spawn, size: 2, local: (u) => verifyUpdate(u), defer })
    const t = await replay(log!, { verify: pool.verify, verifyAhead: pool.ahead })
    expect(comparableTrace(t)).toEqual(comparableTrace(await replay(log!)))
    expect(pool.stats()).toMatchObject({ local: 10, remote: 0 })
  })

  it('close() terminates every worker and rejects what is not answered with VerifyPoolClosed (cancellation)', async () => {
    const [log] = readLogs(await syntheticBundle(6))
    let terminated = 0
    let spawned = 0
    const spawn: SpawnVerifyWorker = () => {
      spawned++
      return { post: () => undefined, terminate: () => void terminated++ }
    }
    const pool = new VerifyPool({ spawn, size: 3, local: (u) => verifyUpdate(u) })
    const running = replay(log!, { verify: pool.verify, verifyAhead: pool.ahead })
    await vi.waitFor(() => expect(spawned).toBe(3))
    pool.close('cancelled by the test')
    await expect(running).rejects.toBeInstanceOf(VerifyPoolClosed)
    expect(terminated).toBe(3)
    await expect(pool.verify(log!.entries[0]!.update as UnverifiedUpdate, 0)).rejects.toThrow(
      'verification stopped: cancelled by the test',
    )
  })

  it('with a verdict cache: a warm replay is served from the cache alone and gives the same Trace', async () => {
    const [log] = readLogs(await syntheticBundle(12))
    const cache = new LruVerdictCache()
    const cold = poolFor({}, { verdicts: cache })
    const t1 = await replay(log!, { verify: cold.pool.verify, verifyAhead: cold.pool.ahead })
    cold.pool.close()
    const warm = poolFor({}, { verdicts: cache })
    const t2 = await replay(log!, { verify: warm.pool.verify, verifyAhead: warm.pool.ahead })
    warm.pool.close()
    expect(warm.pool.stats()).toMatchObject({ cached: 12, remote: 0, local: 0 })
    expect(comparableTrace(t2)).toEqual(comparableTrace(t1))
    expect(comparableTrace(t2)).toEqual(comparableTrace(await replay(log!)))
  })

  it('configure() reuses warm workers for the next replay, with fresh counts and its own local verification', async () => {
    const [a] = readLogs(await syntheticBundle(6))
    const [b] = readLogs(await syntheticBundle(9))
    const { spawn } = inProcessWorkers()
    let locals = 0
    const pool = new VerifyPool({ spawn, size: 2, local: (u) => verifyUpdate(u) })
    const ta = await replay(a!, { verify: pool.verify, verifyAhead: pool.ahead })
    expect(pool.stats().remote).toBe(6)
    pool.configure({ local: (u) => (locals++, verifyUpdate(u)), verdicts: new LruVerdictCache() })
    const tb = await replay(b!, { verify: pool.verify, verifyAhead: pool.ahead })
    expect(pool.stats()).toMatchObject({ remote: 9, live: 2, ready: 2 })
    expect(locals).toBe(0)
    expect(comparableTrace(ta)).toEqual(comparableTrace(await replay(a!)))
    expect(comparableTrace(tb)).toEqual(comparableTrace(await replay(b!)))
    pool.close()
  })

  it(`stops looking up after ${MISS_STREAK} misses in a row (a log the cache has not seen), still keeps the verdicts`, async () => {
    const { log, cache, pool, run, configure } = await cachedPool(MISS_STREAK + 16)
    await run()
    const looked = cache.hits + cache.misses
    expect(cache.size).toBeGreaterThan(looked) // verdicts of every update kept, lookups only for the first ones
    configure()
    const warm = await run()
    expect(pool.stats().cached).toBe(MISS_STREAK + 16)
    expect(comparableTrace(warm)).toEqual(comparableTrace(await replay(log)))
    pool.close()
  })

  it('configure({ lookups: false }) keeps the verdicts found without looking any up', async () => {
    const { log, cache, pool, run, configure } = await cachedPool(40)
    configure({ lookups: false })
    const cold = await run()
    expect(cache.hits + cache.misses).toBe(0)
    expect(cache.size).toBeGreaterThan(0)
    expect(pool.stats().cached).toBe(0)
    configure()
    const warm = await run()
    expect(pool.stats().cached).toBe(40)
    expect(comparableTrace(warm)).toEqual(comparableTrace(cold))
    expect(comparableTrace(cold)).toEqual(comparableTrace(await replay(log)))
    pool.close()
  })

  it('configure({ keepLater: true }) keeps nothing, during the replay or after it: takeFound() hands every update to the caller', async () => {
    const { log, cache, pool, run, configure } = await cachedPool(40)
    // Some verified by the workers, some on this thread (the helper): both kinds are deferred.
    configure({ lookups: false, keepLater: true })
    const cold = await run()
    expect(cache.size, 'nothing kept by the replay').toBe(0)
    const found = pool.takeFound()
    expect(found).toHaveLength(40)
    expect(cache.size, 'nor by takeFound: the caller keeps them in its own time').toBe(0)
    expect(pool.takeFound(), 'once').toEqual([])
    for (const v of found) rememberVerdicts(v, cache)
    const kept = cache.size
    expect(kept).toBeGreaterThan(0)
    configure()
    const warm = await run()
    expect(pool.stats().cached).toBe(40)
    expect(comparableTrace(warm)).toEqual(comparableTrace(cold))
    expect(comparableTrace(cold)).toEqual(comparableTrace(await replay(log)))
    // Without keepLater the verdicts are kept at once, as before.
    const fresh = new LruVerdictCache()
    configure({ verdicts: fresh, lookups: false })
    await run()
    expect(fresh.size).toBe(kept)
    expect(pool.takeFound()).toEqual([])
    pool.close()
  })
})
