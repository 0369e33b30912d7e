/**
 * An audit report read into the view's model: the inbox rows, the counts by verdict and
 * by rule, the lines that did not fit the contract (by line number), and the summary
 * checked against the rows. Built incrementally (`AuditAccumulator.add`) so a large
 * report can be read in chunks, and filtered (`filterRows`) in one linear pass.
 */
import { type AuditRow, type AuditSummary, type LineError, type ParsedLine, VERDICTS, type Verdict } from './report'

/** At most this many line errors are kept (all are counted). */
const MAX_KEPT_ERRORS = 500

export interface RuleCount {
  /** A rule id, or null for failures that name none (an unreadable file). */
  readonly rule: string | null
  readonly count: number
}

export interface AuditReport {
  readonly rows: readonly AuditRow[]
  readonly byVerdict: Readonly<Record<Verdict, number>>
  /** Failing inboxes per rule, most frequent first (ties by rule id). */
  readonly byRule: readonly RuleCount[]
  readonly errors: readonly LineError[]
  readonly errorCount: number
  readonly summary: AuditSummary | null
  /** Where the summary and the rows disagree, one sentence each. */
  readonly mismatches: readonly string[]
  /** How many rows are marked changed. */
  readonly changed: number
  readonly lines: number
}

export class AuditAccumulator {
  private readonly rows: AuditRow[] = []
  private readonly verdicts: Record<Verdict, number> = { ok: 0, rejected: 0, pending: 0, unreadable: 0 }
  private readonly rules = new Map<string | null, number>()
  private readonly errors: LineError[] = []
  private errorCount = 0
  private summary: AuditSummary | null = null
  private changed = 0
  private lines = 0

  add(p: ParsedLine, line: number): void {
    this.lines = Math.max(this.lines, line)
    switch (p.kind) {
      case 'blank':
        return
      case 'error':
        this.error(p.error)
        return
      case 'summary':
        if (this.summary)
          this.error({ line: p.summary.line, message: `a second summary (the first is on line ${this.summary.line})` })
        else this.summary = p.summary
        return
      case 'row': {
        const r = p.row
        if (this.summary)
          this.error({
            line: r.line,
            message: `an inbox row after the summary (line ${this.summary.line}), which comes last`,
          })
        this.rows.push(r)
        this.verdicts[r.verdict]++
        if (r.failure) this.rules.set(r.failure.rule, (this.rules.get(r.failure.rule) ?? 0) + 1)
        if (r.changed && r.changed.length > 0) this.changed++
      }
    }
  }

  private error(e: LineError): void {
    this.errorCount++
    if (this.errors.length < MAX_KEPT_ERRORS) this.errors.push(e)
  }

  /** The report so far (a snapshot: later adds do not change it, except that rows are shared). */
  report(): AuditReport {
    const byRule = [...this.rules.entries()]
      .map(([rule, count]) => ({ rule, count }))
      .sort((a, b) => b.count - a.count || byRuleId(a.rule, b.rule))
    return {
      rows: this.rows.slice(),
      byVerdict: { ...this.verdicts },
      byRule,
      errors: this.errors.slice(),
      errorCount: this.errorCount,
      summary: this.summary,
      mismatches: this.summary ? mismatchesOf(this.summary, this.rows.length, this.verdicts) : [],
      changed: this.changed,
      lines: this.lines,
    }
  }
}

/** Rule ids in order, the failures that name none last. */
function byRuleId(a: string | null, b: string | null): number {
  if (a === b) return 0
  if (a === null) return 1
  if (b === null) return -1
  return a < b ? -1 : 1
}

function mismatchesOf(s: AuditSummary, rows: number, v: Record<Verdict, number>): string[] {
  const out: string[] = []
  if (s.inboxes !== null && s.inboxes !== rows)
    out.push(`the summary counts ${s.inboxes} inboxes, the report lists ${rows}`)
  for (const k of VERDICTS) {
    const said = s[k]
    if (said !== null && said !== v[k]) out.push(`the summary counts ${said} ${k}, the rows ${v[k]}`)
  }
  return out
}

export interface AuditFilter {
  /** null: every verdict. */
  readonly verdict: Verdict | null
  /** A rule id, '(none)' for failures that name none, or null: every rule. */
  readonly rule: string | null
  /** An inbox id prefix (any case), '' for all. */
  readonly prefix: string
  readonly changedOnly: boolean
}

export const NO_FILTER: AuditFilter = { verdict: null, rule: null, prefix: '', changedOnly: false }

/** The rows the filter keeps, in report order. */
export function filterRows(rows: readonly AuditRow[], f: AuditFilter): readonly AuditRow[] {
  if (f.verdict === null && f.rule === null && f.prefix === '' && !f.changedOnly) return rows
  const prefix = f.prefix.trim().toLowerCase().replace(/^0x/, '')
  return rows.filter(
    (r) =>
      (f.verdict === null || r.verdict === f.verdict) &&
      (f.rule === null || (r.failure !== null && (r.failure.rule ?? '(none)') === f.rule)) &&
      (prefix === '' || (r.inboxId ?? '').toLowerCase().startsWith(prefix)) &&
      (!f.changedOnly || (r.changed !== null && r.changed.length > 0)),
  )
}
