/**
 * The distributed audit on PostgreSQL: `audit --store` reads the sources into a snapshot
 * and enqueues one job per shard; two `audit-worker` processes take the jobs, one killed
 * with SIGKILL mid-run: its job is retried by the other after --job-timeout, and the
 * report is the embedded run's, each inbox once.
 */
import { join } from 'node:path'
import { afterAll, describe, expect, it } from 'vitest'
import { startNode, stopAll, tempDir } from '../devnode/harness'
import { installation, newInbox, wallet } from '../devnode/updates'
import { pgMissing, startPg, type TempPg } from './postgres'
import { auditRun, fixtureDir, killAll, parseReport, rowKey, startCli, verdictOf } from './support'

const missing = pgMissing()
if (missing) console.log(`skipped: ${missing}`)

const tmp = tempDir('audit-pg-test-')
let pg: TempPg | null = null
afterAll(async () => {
  killAll()
  await stopAll()
  await pg?.stop()
  tmp.remove()
})

describe.skipIf(missing !== null)('audit --store postgres:// with audit-worker processes', () => {
  it('two workers, one killed mid-run: every inbox reported once, as the embedded run reports it', async () => {
    pg = await startPg()
    const dir = tmp.path('logs')
    for (let i = 0; i < 6; i++) fixtureDir(join(dir, `copy-${i}`))
    const embedded = await auditRun(['audit', '--json', '--jobs', '2', dir])
    expect(embedded.code).toBe(0)

    const coordinator = startCli(['audit', '--json', '--store', pg.url, '--job-timeout', '3', dir])
    await coordinator.until((_, err) => /shards done/.test(err))
    const doomed = startCli(['audit-worker', '--store', pg.url, '--jobs', '1'])
    // Killed once it has done one job, so it most likely holds the next.
    await doomed.until((_, err) => /1 jobs done/.test(err))
    doomed.proc.kill('SIGKILL')
    await doomed.exited
    const survivor = startCli(['audit-worker', '--store', pg.url, '--jobs', '1'])
    const code = await coordinator.exited
    expect(code, coordinator.stderr()).toBe(0)
    survivor.proc.kill('SIGTERM')
    expect(await survivor.exited).toBe(0)

    const report = parseReport(coordinator.stdout())
    const keys = report.rows.map(rowKey)
    expect(new Set(keys).size).toBe(keys.length)
    expect(report.rows.length).toBe(embedded.report!.rows.length)
    const byKey = new Map(embedded.report!.rows.map((r) => [rowKey(r), r]))
    for (const r of report.rows) expect(verdictOf(r), rowKey(r)).toEqual(verdictOf(byKey.get(rowKey(r))!))
    const { seconds: _a, checked: _b, ...counts } = embedded.report!.summary!
    expect(report.summary).toMatchObject(counts)
  })

  it('a node read once into PostgreSQL: the workers report what the embedded audit of the node reports', async () => {
    pg ??= await startPg()
    const node = await startNode({ db: tmp.path('node.db') })
    for (let i = 0; i < 6; i++) {
      const created = await newInbox(wallet(`audit pg ${i}`), { install: installation(`audit pg ${i} a`) })
      await node.client().publishIdentityUpdate(created.bytes)
    }
    const embedded = await auditRun(['audit', '--json', '--node', node.url])
    expect(embedded.code, embedded.stderr).toBe(0)
    const worker = startCli(['audit-worker', '--store', pg.url, '--jobs', '1'])
    const distributed = await auditRun(['audit', '--json', '--store', pg.url, '--node', node.url])
    worker.proc.kill('SIGTERM')
    await worker.exited
    expect(distributed.code, distributed.stderr).toBe(0)
    expect(distributed.report!.rows.length).toBe(6)
    const byKey = new Map(embedded.report!.rows.map((r) => [rowKey(r), r]))
    for (const r of distributed.report!.rows) {
      expect(r.source).toBe(node.url)
      expect(verdictOf(r)).toEqual(verdictOf(byKey.get(rowKey(r))!))
    }
    expect(distributed.report!.summary).toMatchObject({ inboxes: 6, ok: 6, sequence_gaps: [] })
  })

  it('an unreachable store exits 1 with one line', async () => {
    const r = await auditRun(['audit', '--json', '--store', 'postgres://postgres@127.0.0.1:1/none', tmp.path('x')])
    expect(r.code).toBe(1)
    expect(r.stderr).toMatch(/^error: --store postgres:\/\/postgres@127\.0\.0\.1:1\/none: cannot use the store/m)
  })
})
