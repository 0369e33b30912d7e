/**
 * The Audit view (features/audit) on reports generated here: one from the fixture corpus'
 * expected reports (each fixture's first failure, as `audit --json` reports it, with a
 * file source), with one row from the e2e node (a URL source), one malformed line and a
 * summary; and one of 100,000 lines, read without holding the page. An inbox opens in
 * the inspector at its first failure, from the log file the user hands over or fetched
 * from the node.
 */
import { readdirSync, readFileSync, writeFileSync } from 'node:fs'
import type { Page } from '@playwright/test'
import { demoInboxes } from '../src/devnode/demo'
import { expect, expectNoA11yViolations, test } from './fixtures'
import { fixture, shot, waitForLog } from './helpers'

const NODE = `http://127.0.0.1:${process.env.E2E_NODE_PORT}`

// Code inside page.evaluate runs in the page; tsconfig.node.json has no DOM lib.
declare const window: any, PerformanceObserver: any

interface Expected {
  readonly inbox_id: string
  readonly ok: boolean
  readonly updates: readonly { sequence_id: string; status: string; rule: string | null; action_index: number | null }[]
  readonly state: { readonly members: readonly unknown[] } | null
}

/** One audit row per fixture with an expected report, from that report. */
function fixtureRows(): Record<string, unknown>[] {
  const dir = new URL('../test/fixtures/', import.meta.url)
  return readdirSync(dir)
    .filter((f) => f.endsWith('.expected.json'))
    .sort()
    .map((f) => {
      const e = JSON.parse(readFileSync(new URL(f, dir), 'utf8')) as Expected
      const fail = e.updates.find((u) => u.status !== 'applied')
      return {
        source: `test/fixtures/${f.replace('.expected.json', '.json')}`,
        inbox_id: e.inbox_id,
        ok: e.ok,
        updates: e.updates.length,
        head: e.updates.at(-1)?.sequence_id ?? null,
        first_failure: fail
          ? {
              sequence_id: fail.sequence_id,
              status: fail.status,
              rule: fail.rule,
              action_index: fail.action_index,
              message: `fixture ${f}`,
            }
          : null,
        members: e.state?.members.length ?? 0,
        state_digest: 'ab'.repeat(32),
      }
    })
}

async function openReport(page: Page, name: string, text: string) {
  await page
    .locator('[data-drawer="audit"]')
    .getByLabel('Open an audit report')
    .setInputFiles({ name, mimeType: 'application/x-ndjson', buffer: Buffer.from(text) })
}

test.beforeEach(async ({ page }) => {
  await page.goto('/')
  await waitForLog(page)
  await page.getByRole('button', { name: 'Audit…' }).click()
})

test('audit view: counts by verdict and rule, a malformed line by number, filters, open at the first failure', async ({
  page,
}, info) => {
  const rows = fixtureRows()
  const alice = demoInboxes().find((d) => d.name === 'alice')!.inboxId
  rows.push({
    source: NODE,
    inbox_id: alice,
    ok: true,
    updates: 4,
    head: '6',
    first_failure: null,
    members: 3,
    state_digest: 'cd'.repeat(32),
    changed: ['new'],
  })
  const bad = rows.filter((r) => !r.ok).length
  const ident040 = rows.filter((r) => (r.first_failure as { rule?: string } | null)?.rule === 'IDENT-040').length
  const lines = [...rows.map((r) => JSON.stringify(r))]
  lines.splice(3, 0, '{"source": "cut short')
  lines.push(JSON.stringify({ summary: { inboxes: rows.length, ok: rows.length - bad, updates: 99, seconds: 1.5 } }))
  await openReport(page, 'audit.jsonl', lines.join('\n'))

  const view = page.locator('[data-drawer="audit"]')
  await expect(view.getByRole('status', { name: 'Report summary' })).toContainText(`${rows.length} inboxes`)
  await expect(view.getByRole('list', { name: 'Malformed lines' })).toContainText('line 4: not JSON')
  await expect(view.getByRole('button', { name: `ok: ${rows.length - bad} inboxes` })).toBeVisible()
  await expect(
    view.getByRole('button', { name: `IDENT-040: ${ident040} inbox${ident040 === 1 ? '' : 'es'}` }),
  ).toBeVisible()
  await expectNoA11yViolations(page)
  await shot(page, info, 'audit-view')

  // The rule's bar filters the table to it and shows the rule's text.
  await view.getByRole('button', { name: /^IDENT-040: / }).click()
  await expect(view.getByRole('region', { name: 'Rule IDENT-040' })).toBeVisible()
  await expect(view.getByLabel('Inboxes shown')).toHaveText(`${ident040} of ${rows.length} shown`)
  await view.getByRole('button', { name: /^IDENT-040: / }).click()
  await view.getByRole('checkbox', { name: /changed only/ }).check()
  await expect(view.getByLabel('Inboxes shown')).toHaveText(`1 of ${rows.length} shown`)
  await view.getByRole('checkbox', { name: /changed only/ }).uncheck()

  // A file source: the user hands over the log file; the inspector opens at the first failure.
  await view.getByRole('searchbox', { name: 'Inbox id starts with' }).fill('9de91141')
  await view.getByRole('combobox', { name: 'Rule' }).selectOption('IDENT-040')
  await view
    .getByRole('button', { name: /^Open inbox 9de91141418f940e in the inspector at its first failure$/ })
    .first()
    .click()
  const source = rows.find((r) => (r.first_failure as { rule?: string } | null)?.rule === 'IDENT-040')!.source as string
  await view.getByLabel(`Log file for ${source}`).setInputFiles({
    name: source.split('/').at(-1)!,
    mimeType: 'application/json',
    buffer: fixture(source.split('/').at(-1)!),
  })
  await expect(view).toHaveCount(0)
  await waitForLog(page)
  await expect(page.getByLabel('Open log')).toContainText('stops at sequence id 2: IDENT-040')
  await expect(page.locator('.step-summary')).toContainText('sequence id 2')

  // A node source: fetched from the node the report names.
  await page.getByRole('button', { name: 'Audit…' }).click()
  await openReport(page, 'audit.jsonl', lines.join('\n'))
  await page
    .locator('[data-drawer="audit"]')
    .getByRole('searchbox', { name: 'Inbox id starts with' })
    .fill(alice.slice(0, 12))
  await page
    .locator('[data-drawer="audit"]')
    .getByRole('button', { name: /^Open inbox / })
    .click()
  await expect(page.locator('[data-drawer="audit"]')).toHaveCount(0)
  await waitForLog(page)
  await expect(page.getByLabel('Open log')).toContainText(NODE)
  await expect(page.getByLabel('Open log')).toContainText('every update applies')
})

test('audit view: a report of 100,000 lines is read in slices, the page answering while it reads', async ({
  page,
}, info) => {
  const lines: string[] = []
  for (let i = 0; i < 100_000; i++) {
    const id = i.toString(16).padStart(64, '0')
    lines.push(
      i % 50 === 0
        ? `{"source":"logs/${i}.json","inbox_id":"${id}","ok":false,"updates":3,"head":"3","first_failure":{"sequence_id":"2","status":"rejected","rule":"IDENT-050","action_index":0,"message":"replay key seen"},"members":1,"state_digest":"ab"}`
        : `{"source":"logs/${i}.json","inbox_id":"${id}","ok":true,"updates":3,"head":"3","first_failure":null,"members":2,"state_digest":"cd"}`,
    )
  }
  lines.push(
    '{"summary":{"inboxes":100000,"ok":98000,"rejected":2000,"pending":0,"unreadable":0,"updates":300000,"seconds":12}}',
  )
  // Long tasks while reading (reported, not asserted: timings belong to the benchmarks).
  await page.evaluate(() => {
    const w = window as unknown as { __long: number[] }
    w.__long = []
    new PerformanceObserver((l: { getEntries(): { duration: number }[] }) => {
      for (const e of l.getEntries()) w.__long.push(e.duration)
    }).observe({ type: 'longtask', buffered: false })
  })
  // From a file on disk (a buffer would be built inside the page, in one long task of its own).
  const path = info.outputPath('big.jsonl')
  writeFileSync(path, lines.join('\n'))
  await page.locator('[data-drawer="audit"]').getByLabel('Open an audit report').setInputFiles(path)
  const view = page.locator('[data-drawer="audit"]')
  // While it reads, the page answers: the progress is rendered as it goes.
  await expect(view.getByRole('status', { name: 'Report summary' })).toContainText('100,000 inboxes', {
    timeout: 60_000,
  })
  await expect(view.getByRole('button', { name: 'rejected: 2,000 inboxes' })).toBeVisible()
  await expect(view.getByRole('list', { name: 'Summary mismatches' })).toHaveCount(0)
  // Only a window of the 100,000 rows is in the page.
  const rendered = await view.getByRole('table', { name: 'Audited inboxes' }).getByRole('row').count()
  expect(rendered).toBeLessThan(100)
  await view.getByRole('searchbox', { name: 'Inbox id starts with' }).fill(`${'0'.repeat(59)}186a`)
  await expect(view.getByLabel('Inboxes shown')).toHaveText('0 of 100,000 shown')
  const long = await page.evaluate(() => (window as unknown as { __long: number[] }).__long)
  test
    .info()
    .annotations.push({ type: 'long tasks while reading (ms)', description: JSON.stringify(long.map(Math.round)) })
})
