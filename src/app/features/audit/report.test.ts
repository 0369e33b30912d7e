import { describe, expect, it } from 'vitest'
import { AuditAccumulator, filterRows, NO_FILTER } from './aggregate'
import { LIMITS, parseAuditLine } from './report'
import { readReport } from './read-report'

function accumulate(lines: readonly string[]): AuditAccumulator {
  const acc = new AuditAccumulator()
  lines.forEach((l, i) => {
    acc.add(parseAuditLine(l, i + 1), i + 1)
  })
  return acc
}

const A = 'a'.repeat(64)
const B = 'b'.repeat(64)
const okLine = (inbox = A, extra: object = {}) =>
  JSON.stringify({
    source: 'logs/a.json',
    inbox_id: inbox,
    ok: true,
    updates: 3,
    head: '3',
    first_failure: null,
    members: 2,
    state_digest: 'ab12',
    ...extra,
  })
const failLine = (inbox: string, status: string, rule: string | null, extra: object = {}) =>
  JSON.stringify({
    source: 'http://127.0.0.1:5555',
    inbox_id: inbox,
    ok: false,
    updates: 4,
    head: '4',
    first_failure: { sequence_id: '2', status, rule, action_index: rule ? 0 : null, message: 'signer differs' },
    members: 1,
    state_digest: 'cd34',
    ...extra,
  })
const summaryLine = (s: object) => JSON.stringify({ summary: s })

describe('parseAuditLine', () => {
  it('reads an ok row and a failing row of the contract', () => {
    const ok = parseAuditLine(okLine(), 1)
    expect(ok).toMatchObject({ kind: 'row', row: { line: 1, verdict: 'ok', inboxId: A, head: '3', members: 2 } })
    const bad = parseAuditLine(failLine(B, 'rejected', 'IDENT-040'), 2)
    expect(bad).toMatchObject({
      kind: 'row',
      row: { verdict: 'rejected', failure: { sequenceId: '2', rule: 'IDENT-040', actionIndex: 0, status: 'rejected' } },
    })
  })

  it('reads the summary, changed and gap', () => {
    expect(parseAuditLine(summaryLine({ inboxes: 2, ok: 1, seconds: 0.5 }), 9)).toMatchObject({
      kind: 'summary',
      summary: { line: 9, inboxes: 2, ok: 1, rejected: null, seconds: 0.5 },
    })
    const r = parseAuditLine(okLine(A, { changed: ['head'], gap: ['5', '6'] }), 1)
    expect(r).toMatchObject({ kind: 'row', row: { changed: ['head'], gap: '["5","6"]' } })
  })

  it("reads an unreadable file row, which names no inbox, and the summary's sequence gaps", () => {
    const r = parseAuditLine(
      JSON.stringify({
        source: 'logs/bad.bin',
        inbox_id: null,
        ok: false,
        updates: 0,
        head: null,
        first_failure: {
          sequence_id: null,
          status: 'unreadable',
          rule: null,
          action_index: null,
          message: 'not a log',
        },
        members: 0,
        state_digest: 'ff',
      }),
      1,
    )
    expect(r).toMatchObject({ kind: 'row', row: { inboxId: null, verdict: 'unreadable' } })
    const s = parseAuditLine(summaryLine({ inboxes: 1, sequence_gaps: [{ after: '4', before: '7', missing: '2' }] }), 2)
    expect(s).toMatchObject({ kind: 'summary', summary: { gaps: ['after 4, before 7: 2 missing'] } })
  })

  it('reports what is wrong with a malformed line, with its line number', () => {
    expect(parseAuditLine('{"source": ', 7)).toMatchObject({ kind: 'error', error: { line: 7 } })
    expect(parseAuditLine('[1,2]', 3)).toEqual({
      kind: 'error',
      error: { line: 3, message: 'expected a JSON object, found an array' },
    })
    const cases: [string, string][] = [
      [okLine(A, { ok: 'yes' }), '"ok" should be true or false'],
      [okLine(A, { updates: -1 }), '"updates" should be a whole number'],
      [okLine(A, { inbox_id: 5 }), '"inbox_id" should be a string'],
      [okLine(A, { head: 'x1' }), '"head" should be a sequence id'],
      [failLine(A, 'exploded', null), '"first_failure.status" should be'],
      [failLine(A, 'rejected', 'RULE-1'), '"first_failure.rule" should be a rule id'],
      [okLine(A, { ok: false }), '"ok" is false but "first_failure" is null'],
      [failLine(A, 'rejected', 'IDENT-040', { ok: true }), '"ok" is true but'],
      [summaryLine({ inboxes: 'many' }), '"summary.inboxes" should be'],
    ]
    for (const [text, want] of cases) {
      const p = parseAuditLine(text, 4)
      expect(p.kind, text).toBe('error')
      if (p.kind === 'error') expect(p.error.message, text).toContain(want)
    }
  })

  it('bounds long strings and refuses an over-long line', () => {
    const r = parseAuditLine(okLine('f'.repeat(5000)), 1)
    expect(r.kind).toBe('row')
    if (r.kind === 'row') expect(r.row.inboxId?.length).toBeLessThan(LIMITS.inboxId + 40)
    expect(parseAuditLine(`"${'x'.repeat(LIMITS.line + 1)}"`, 2)).toMatchObject({ kind: 'error', error: { line: 2 } })
  })
})

describe('AuditAccumulator', () => {
  it('counts by verdict and by rule, and checks the summary against the rows', () => {
    const lines = [
      okLine(A),
      failLine(B, 'rejected', 'IDENT-040'),
      failLine('c'.repeat(64), 'rejected', 'IDENT-040'),
      failLine('d'.repeat(64), 'pending', 'IDENT-061'),
      failLine('e'.repeat(64), 'unreadable', null),
      summaryLine({ inboxes: 5, ok: 2, rejected: 2, pending: 1, unreadable: 1 }),
    ]
    const r = accumulate(lines).report()
    expect(r.byVerdict).toEqual({ ok: 1, rejected: 2, pending: 1, unreadable: 1 })
    expect(r.byRule).toEqual([
      { rule: 'IDENT-040', count: 2 },
      { rule: 'IDENT-061', count: 1 },
      { rule: null, count: 1 },
    ])
    expect(r.mismatches).toEqual(['the summary counts 2 ok, the rows 1'])
  })

  it('reports a row after the summary and a second summary', () => {
    const acc = accumulate([summaryLine({ inboxes: 0 }), okLine(), summaryLine({})])
    expect(acc.report().errors.map((e) => e.line)).toEqual([2, 3])
  })
})

describe('filterRows', () => {
  const acc = accumulate([
    okLine(A, { changed: ['head'] }),
    failLine(B, 'rejected', 'IDENT-040'),
    failLine('bc'.padEnd(64, '0'), 'unreadable', null),
  ])
  const rows = acc.report().rows

  it('filters by verdict, rule, inbox id prefix and changed', () => {
    expect(filterRows(rows, NO_FILTER)).toHaveLength(3)
    expect(filterRows(rows, { ...NO_FILTER, verdict: 'rejected' }).map((r) => r.line)).toEqual([2])
    expect(filterRows(rows, { ...NO_FILTER, rule: 'IDENT-040' }).map((r) => r.line)).toEqual([2])
    expect(filterRows(rows, { ...NO_FILTER, rule: '(none)' }).map((r) => r.line)).toEqual([3])
    expect(filterRows(rows, { ...NO_FILTER, prefix: '0xB' }).map((r) => r.line)).toEqual([2, 3])
    expect(filterRows(rows, { ...NO_FILTER, prefix: 'bc' }).map((r) => r.line)).toEqual([3])
    expect(filterRows(rows, { ...NO_FILTER, changedOnly: true }).map((r) => r.line)).toEqual([1])
  })
})

describe('readReport', () => {
  const yieldNow = () => Promise.resolve()

  it('reads lines split across chunks, reports malformed ones by line number and goes on', async () => {
    const text = `${okLine(A)}\nnot json\n\n${failLine(B, 'rejected', 'IDENT-040')}\n${summaryLine({ inboxes: 2 })}`
    const bytes = new TextEncoder().encode(text)
    const stream = new ReadableStream<Uint8Array>({
      start(c) {
        for (let i = 0; i < bytes.length; i += 7) c.enqueue(bytes.slice(i, i + 7))
        c.close()
      },
    })
    const r = await readReport(stream, { yieldNow })
    expect(r.rows.map((x) => x.line)).toEqual([1, 4])
    expect(r.errors).toHaveLength(1)
    expect(r.errors[0]).toMatchObject({ line: 2 })
    expect(r.errors[0]!.message).toMatch(/^not JSON/)
    expect(r.summary?.inboxes).toBe(2)
    expect(r.lines).toBe(5)
  })

  it('skips an over-long line as it streams and keeps reading', async () => {
    const long = `"${'x'.repeat(LIMITS.line * 2)}"`
    const r = await readReport(`${okLine(A)}\n${long}\n${okLine(B)}\n`, { yieldNow })
    expect(r.rows.map((x) => x.line)).toEqual([1, 3])
    expect(r.errors).toEqual([{ line: 2, message: expect.stringContaining('characters long') }])
  })

  it('yields while reading 100,000 lines, and stops when cancelled', async () => {
    const lines: string[] = []
    for (let i = 0; i < 100_000; i++)
      lines.push(
        i % 10 === 0
          ? failLine(i.toString(16).padStart(64, '0'), 'rejected', 'IDENT-050')
          : okLine(i.toString(16).padStart(64, '0')),
      )
    let yields = 0
    const r = await readReport(lines.join('\n'), {
      sliceMs: 0,
      yieldNow: async () => {
        yields++
      },
    })
    expect(r.rows).toHaveLength(100_000)
    expect(r.byVerdict.rejected).toBe(10_000)
    expect(yields).toBeGreaterThan(100)
    const ac = new AbortController()
    ac.abort()
    await expect(readReport(lines.join('\n'), { signal: ac.signal, yieldNow })).rejects.toThrow('cancelled')
  })
})
