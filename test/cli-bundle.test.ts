/**
 * The command line's bundle (issue #13): `npm run cli` runs dist-cli/cli.mjs, and its pool's
 * worker threads load the bundled worker (dist-cli/verify-worker.mjs), not TypeScript.
 */
import { existsSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import { Worker } from 'node:worker_threads'
import { describe, expect, it } from 'vitest'
import { readLogs } from '../src/core/decode/logs'
import { fromResult, toJob, type FromVerifyWorker } from '../src/core/verify/transfer'
import { verifyUpdate } from '../src/core/verify/update'
import { ROOT, runCli } from './support/cli'

const FILE = join(ROOT, 'test', 'fixtures', 'valid-full-life.json')

async function run(env: Record<string, string>) {
  const r = await runCli(['replay', '--json', FILE], { env, timeoutMs: 120_000 })
  return { status: r.code, stdout: r.stdout.toString('utf8'), stderr: r.stderr }
}

const big = (_k: string, v: unknown) => (typeof v === 'bigint' ? v.toString() : v instanceof Uint8Array ? [...v] : v)

describe('the bundled command line', () => {
  it('with its pool forced on (INBOX_CLI_POOL_THRESHOLD=1) prints the report of one thread', async () => {
    const one = await run({ INBOX_CLI_POOL_STATS: '1' })
    expect(one.status, one.stderr).toBe(0)
    expect(one.stderr).toBe('') // below the threshold: no pool, no stats
    const pooled = await run({ INBOX_CLI_POOL_THRESHOLD: '1', INBOX_CLI_POOL_STATS: '1' })
    expect(pooled.status, pooled.stderr).toBe(0)
    expect(pooled.stdout).toBe(one.stdout)
    // A pool was started and no worker failed (a 13-update log may finish before one is ready).
    expect(pooled.stderr).toMatch(/^pool: \d+\/[1-9]\d* workers ready/m)
    expect(pooled.stderr).not.toMatch(/failures/)
  })

  it('its worker (dist-cli/verify-worker.mjs) starts as a plain worker thread, loads the fast backend and verifies as one thread does', async () => {
    expect((await run({})).status).toBe(0) // the launcher has (re)built the bundle if it was stale
    const [log] = readLogs(readFileSync(FILE), FILE)
    const updates = log!.entries.flatMap((e) => ('error' in e.update ? [] : [e.update]))
    const w = new Worker(join(ROOT, 'dist-cli', 'verify-worker.mjs'), { execArgv: [] })
    try {
      const next = () =>
        new Promise<FromVerifyWorker>((resolve, reject) => {
          w.once('message', resolve)
          w.once('error', reject)
        })
      expect(await next()).toEqual({ type: 'ready', backend: 'fast' })
      w.postMessage({ type: 'verify', batch: 1, jobs: updates.map((u, i) => toJob(i, u)) })
      const answer = await next()
      expect(answer.type).toBe('verified')
      if (answer.type !== 'verified') return
      expect(answer.results).toHaveLength(updates.length)
      for (const [i, u] of updates.entries()) {
        const local = await verifyUpdate(u)
        expect(JSON.stringify(fromResult(u, answer.results[i]!), big)).toBe(JSON.stringify(local, big))
      }
    } finally {
      await w.terminate()
    }
  }, 120_000)

  it('a start that does not fetch loads neither viem nor Connect-ES (both only on use)', async () => {
    expect((await run({})).status).toBe(0) // the launcher has (re)built the bundle if it was stale
    // The files cli.mjs loads before it runs: its static imports, followed to the end.
    const eager = new Set<string>()
    const next = ['cli.mjs']
    while (next.length) {
      const file = next.pop()!
      if (eager.has(file)) continue
      eager.add(file)
      const text = readFileSync(join(ROOT, 'dist-cli', file), 'utf8')
      for (const m of text.matchAll(/(?:from|import)\s*"\.\/([\w.-]+\.mjs)"/g)) next.push(m[1]!)
    }
    const loaded = [...eager].map((f) => readFileSync(join(ROOT, 'dist-cli', f), 'utf8')).join('\n')
    // Names that only these libraries define (identifiers survive the bundle's minification).
    expect(loaded).toContain('function replay') // the scan does reach the core
    expect(loaded).not.toMatch(/function createPublicClient\b/) // viem
    expect(loaded).not.toMatch(/function createConnectTransport\b|function createGrpcTransport\b/) // Connect-ES
    expect([...eager].every((f) => existsSync(join(ROOT, 'dist-cli', f)))).toBe(true)
  })
})
