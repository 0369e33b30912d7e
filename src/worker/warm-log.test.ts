import { readFileSync } from 'node:fs'
import { describe, expect, it } from 'vitest'
import { readLogs } from '../core/decode/logs'
import { nobleBackend } from '../crypto/noble-backend'
import { warmJobs } from './warm-jobs'
import { roundsAfterReplay, WARM_LOG_UPDATES, warmJobsOf, warmLogOf, warmReplay } from './warm-log'

const fixture = (name: string) =>
  readLogs(new Uint8Array(readFileSync(new URL(`../../test/fixtures/${name}`, import.meta.url))), name)[0]!
const pause = (): Promise<void> => Promise.resolve()
const ctx = { crypto: nobleBackend }

describe('warm-up on a log (./warm-log.ts)', () => {
  it('counts a real replay as rounds of WARM_LOG_UPDATES updates, up to the most', () => {
    expect(roundsAfterReplay(0, 13, 24), 'the demo log: less than a round').toBe(0)
    expect(roundsAfterReplay(2, 256, 24)).toBe(2 + 256 / WARM_LOG_UPDATES)
    expect(roundsAfterReplay(3, 10_000, 24), 'a large log leaves none to run').toBe(24)
    expect(roundsAfterReplay(24, 1, 24)).toBe(24)
  })

  it('replays at most WARM_LOG_UPDATES updates of a log, in its order', () => {
    const log = fixture('valid-full-life.json')
    expect(warmLogOf(log)).toBe(log)
    const long = { ...log, entries: Array.from({ length: 3 }, () => log.entries).flat() }
    const warm = warmLogOf(long)
    expect(warm.entries).toHaveLength(WARM_LOG_UPDATES)
    expect(warm.entries).toEqual(long.entries.slice(0, WARM_LOG_UPDATES))
    expect(warm.inboxId).toBe(log.inboxId)
  })

  it('replays and verifies the rounds asked for, and says how many it did', async () => {
    const log = fixture('valid-full-life.json')
    expect(await warmReplay(log, ctx, { rounds: 2, stop: () => false, pause })).toBe(2)
    const jobs = warmJobsOf(log)
    expect(jobs).toHaveLength(log.entries.filter((e) => !('error' in e.update)).length)
    expect(await warmJobs(jobs, ctx, { rounds: 2, stop: () => false, pause })).toBe(2)
  })

  it('stops between updates once real work arrives, without throwing', async () => {
    const log = fixture('valid-full-life.json')
    let calls = 0
    const counting = { crypto: { ...nobleBackend, sha256: (b: Uint8Array) => (calls++, nobleBackend.sha256(b)) } }
    let work = false
    const stopAfterFirst = (): boolean => {
      if (calls > 0) work = true
      return work
    }
    expect(await warmReplay(log, counting, { rounds: 5, stop: stopAfterFirst, pause })).toBe(0)
    let seen = 0
    const rounds = await warmJobs(warmJobsOf(log), ctx, {
      rounds: 5,
      stop: () => ++seen > 3,
      pause,
    })
    expect(rounds).toBe(0)
    expect(seen).toBe(4)
  })
})
