/**
 * The audit's counts as bars: by verdict and by failing rule. Each bar is a button
 * (it filters the table to that verdict or rule) whose accessible name and visible
 * text carry the number; the bar itself is decoration (CSS width).
 */
import type { RuleCount } from '../aggregate'
import type { Verdict } from '../report'
import { VERDICTS } from '../report'

const VERDICT_LABEL: Record<Verdict, string> = {
  ok: 'ok',
  rejected: 'rejected',
  pending: 'pending',
  unreadable: 'unreadable',
}

export const NO_RULE = '(none)'

/** At most this many rules get a bar; the rest are summed in one line. */
const MAX_RULE_BARS = 12

function Bar({
  label,
  count,
  max,
  pressed,
  tone,
  onClick,
  unit,
}: {
  label: string
  count: number
  max: number
  pressed: boolean
  tone: string
  onClick: () => void
  unit: string
}) {
  const pct = max === 0 ? 0 : Math.max(count > 0 ? 1 : 0, Math.round((count / max) * 100))
  return (
    <li>
      <button
        type="button"
        className="audit-bar"
        aria-pressed={pressed}
        aria-label={`${label}: ${count.toLocaleString('en')} ${unit}`}
        onClick={onClick}
      >
        <span className="audit-bar-label" title={label}>
          {label}
        </span>
        <span className="audit-bar-track" aria-hidden="true">
          <span className={`audit-bar-fill tone-${tone}`} style={{ width: `${pct}%` }} />
        </span>
        <span className="audit-bar-count">{count.toLocaleString('en')}</span>
      </button>
    </li>
  )
}

export function AuditChart({
  byVerdict,
  byRule,
  verdict,
  rule,
  onVerdict,
  onRule,
}: {
  byVerdict: Readonly<Record<Verdict, number>>
  byRule: readonly RuleCount[]
  verdict: Verdict | null
  rule: string | null
  onVerdict: (v: Verdict | null) => void
  onRule: (r: string | null) => void
}) {
  const vmax = Math.max(...VERDICTS.map((v) => byVerdict[v]))
  const shown = byRule.slice(0, MAX_RULE_BARS)
  const rest = byRule.slice(MAX_RULE_BARS).reduce((n, r) => n + r.count, 0)
  const rmax = Math.max(0, ...shown.map((r) => r.count))
  return (
    <div className="audit-charts">
      <figure className="audit-chart">
        <figcaption id="audit-by-verdict">Inboxes by verdict</figcaption>
        <ul aria-labelledby="audit-by-verdict">
          {VERDICTS.map((v) => (
            <Bar
              key={v}
              label={VERDICT_LABEL[v]}
              count={byVerdict[v]}
              max={vmax}
              tone={v}
              unit={byVerdict[v] === 1 ? 'inbox' : 'inboxes'}
              pressed={verdict === v}
              onClick={() => onVerdict(verdict === v ? null : v)}
            />
          ))}
        </ul>
      </figure>
      <figure className="audit-chart">
        <figcaption id="audit-by-rule">Failing inboxes by rule</figcaption>
        {shown.length === 0 ? (
          <p className="muted">No inbox failed.</p>
        ) : (
          <ul aria-labelledby="audit-by-rule">
            {shown.map((r) => {
              const id = r.rule ?? NO_RULE
              return (
                <Bar
                  key={id}
                  label={r.rule ?? 'unreadable'}
                  count={r.count}
                  max={rmax}
                  tone={r.rule === 'IDENT-061' ? 'pending' : r.rule ? 'rejected' : 'unreadable'}
                  unit={r.count === 1 ? 'inbox' : 'inboxes'}
                  pressed={rule === id}
                  onClick={() => onRule(rule === id ? null : id)}
                />
              )
            })}
          </ul>
        )}
        {rest > 0 && (
          <p className="muted small">
            and {rest.toLocaleString('en')} more under {byRule.length - MAX_RULE_BARS} other rules (pick them in the
            rule filter)
          </p>
        )}
      </figure>
    </div>
  )
}
