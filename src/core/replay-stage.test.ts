import { describe, expect, it } from 'vitest'
import { readLogs } from './decode/logs'
import { replay, type VerifyStage } from './replay'
import type { InboxLog } from './types'
import { verifyUpdate } from './verify/update'
import { syntheticBundle } from '../../e2e/synthetic-log'
import { comparableTrace } from '../../test/verify/kit'

async function log(n: number, rejectAt?: number): Promise<InboxLog> {
  return readLogs(await syntheticBundle(n, rejectAt === undefined ? {} : { rejectAt }))[0]!
}

/** A stage that records when it is asked, against how many updates were applied. */
function recording() {
  const asked: { index: number; applied: number }[] = []
  let applied = 0
  const stage: VerifyStage = (u, index) => {
    asked.push({ index, applied })
    return verifyUpdate(u)
  }
  return { asked, stage, onProgress: (done: number) => void (applied = done) }
}

describe('replay with a verification stage (ReplayOptions.verify)', () => {
  it('asks for every update once, in log order, at most verifyAhead ahead of application; the Trace is unchanged', async () => {
    const l = await log(30)
    for (const ahead of [0, 1, 5, 64]) {
      const r = recording()
      const t = await replay(l, { verify: r.stage, verifyAhead: ahead, onProgress: r.onProgress })
      expect(r.asked.map((a) => a.index)).toEqual([...Array(30).keys()])
      for (const a of r.asked) expect(a.index - a.applied).toBeLessThanOrEqual(ahead)
      expect(comparableTrace(t)).toEqual(comparableTrace(await replay(l)))
    }
  })

  it('IDENT-040: a rejected update stops the log as before; updates asked ahead past it are dropped, and their failures never surface', async () => {
    const l = await log(20, 8)
    let failed = 0
    const stage: VerifyStage = async (u, index) => {
      if (index > 8) {
        failed++
        throw new Error(`stage failure for ${index} (must not surface)`)
      }
      return verifyUpdate(u)
    }
    const unhandled: unknown[] = []
    const onUnhandled = (e: unknown) => unhandled.push(e)
    process.on('unhandledRejection', onUnhandled)
    try {
      const t = await replay(l, { verify: stage, verifyAhead: 6 })
      // One turn of the event loop: Node reports an unhandled rejection after the microtasks run.
      await new Promise((r) => setImmediate(r))
      expect(t.steps.map((s) => s.status).slice(6, 10)).toEqual(['applied', 'rejected', 'not_applied', 'not_applied'])
      expect(t.steps[7]!.rule).toBe('IDENT-040')
      expect(comparableTrace(t)).toEqual(comparableTrace(await replay(l)))
      expect(failed).toBeGreaterThan(0)
      expect(unhandled).toEqual([])
    } finally {
      process.off('unhandledRejection', onUnhandled)
    }
  })

  it('with verifyAfterStop, updates after the stop are verified through the stage too (the inspector)', async () => {
    const l = await log(12, 4)
    const r = recording()
    const t = await replay(l, { verify: r.stage, verifyAhead: 3, verifyAfterStop: true, onProgress: r.onProgress })
    expect(r.asked.map((a) => a.index)).toEqual([...Array(12).keys()])
    expect(comparableTrace(t)).toEqual(comparableTrace(await replay(l, { verifyAfterStop: true })))
    expect(t.steps[11]!.signatures.every((s) => s.verdict !== 'unchecked')).toBe(true)
  })

  it('a stage failure for the update being applied rejects the replay', async () => {
    const l = await log(4)
    await expect(
      replay(l, { verify: async () => Promise.reject(new Error('pool gone')), verifyAhead: 2 }),
    ).rejects.toThrow('pool gone')
  })
})
