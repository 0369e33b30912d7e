/**
 * `audit --db`: a run killed with SIGKILL and started again with the same file redoes only
 * what was not finished and prints every inbox once, with the verdicts of an uninterrupted
 * run; a finished run's file makes the next run judge nothing again (incremental).
 */
import { join } from 'node:path'
import { afterAll, describe, expect, it } from 'vitest'
import { tempDir } from '../devnode/harness'
import { auditRun, fixtureDir, killAll, parseReport, rowKey, startCli, verdictOf } from './support'

const tmp = tempDir('audit-resume-')
afterAll(() => {
  killAll()
  tmp.remove()
})

/** A row's verdict and state, the fields a resumed run must reproduce. */
const verdict = (r: Record<string, unknown>) =>
  verdictOf(r, ['ok', 'updates', 'head', 'first_failure', 'members', 'state_digest'])

describe('audit --db after SIGKILL', () => {
  it('resumes: every inbox printed once, verdicts equal to an uninterrupted run', async () => {
    const dir = tmp.path('logs')
    for (let i = 0; i < 12; i++) fixtureDir(join(dir, `copy-${String(i).padStart(2, '0')}`))
    const db = tmp.path('audit.db')
    const first = startCli(['audit', '--json', '--jobs', '1', '--db', db, dir])
    // Killed once some rows are printed (committed) and before the summary.
    await first.until((out) => out.split('\n').length > 40)
    first.proc.kill('SIGKILL')
    await first.exited
    const partial = parseReport(first.stdout())
    expect(partial.summary).toBeNull()
    expect(partial.rows.length).toBeGreaterThan(30)

    const again = await auditRun(['audit', '--json', '--jobs', '2', '--db', db, dir])
    expect(again.code, again.stderr).toBe(0)
    expect(again.stderr).toMatch(/resuming run/)
    const keys = again.report!.rows.map(rowKey)
    expect(new Set(keys).size).toBe(keys.length)

    const clean = await auditRun(['audit', '--json', '--jobs', '2', dir])
    expect(clean.code).toBe(0)
    expect(again.report!.rows.length).toBe(clean.report!.rows.length)
    const byKey = new Map(clean.report!.rows.map((r) => [rowKey(r), r]))
    for (const r of again.report!.rows) expect(verdict(r), rowKey(r)).toEqual(verdict(byKey.get(rowKey(r))!))
    // The resumed run judged less than the whole (what the killed run committed was kept).
    expect(again.report!.summary!.checked as number).toBeLessThan(clean.report!.summary!.checked as number)
    expect(again.report!.summary).toMatchObject({
      inboxes: clean.report!.summary!.inboxes,
      updates: clean.report!.summary!.updates,
      ok: clean.report!.summary!.ok,
    })

    // A later run over the same files: every head is kept, nothing is judged again.
    const later = await auditRun(['audit', '--json', '--db', db, dir])
    expect(later.code).toBe(0)
    expect(later.stderr).not.toMatch(/resuming run/)
    expect(later.report!.rows.length).toBe(clean.report!.rows.length)
    const unchanged = later.report!.rows.filter(
      (r) => (r.first_failure as { status: string } | null)?.status !== 'pending',
    )
    for (const r of unchanged) expect(r.checked, rowKey(r)).toBe(0)
    for (const r of later.report!.rows) expect(verdict(r)).toEqual(verdict(byKey.get(rowKey(r))!))
  })
})
