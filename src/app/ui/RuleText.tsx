/**
 * A spec rule's title and requirement text (src/app/generated/spec-rules.json, the same
 * text the Rejection view quotes), shown where a live view names a rule: the audit's
 * rule counts, a refused call in the node traffic panel.
 */
import rules from '../generated/spec-rules.json'
import { RULES } from '../../core/rules'
import './rule-text.css'

const TABLE = rules as Record<string, { title: string; requirement: string; why: string } | undefined>

export function RuleText({ id, onClose }: { id: string; onClose?: () => void }) {
  const r = TABLE[id]
  const title = r?.title ?? (RULES as Record<string, string | undefined>)[id] ?? 'a rule this app does not know'
  return (
    <section className="rule-text" aria-label={`Rule ${id}`}>
      <h3>
        <code>{id}</code> {title}
      </h3>
      {r ? <p>{r.requirement}</p> : <p className="muted">The embedded spec has no text for this rule id.</p>}
      {r?.why && <p className="muted">Why: {r.why}</p>}
      {onClose && (
        <button type="button" className="link" onClick={onClose} aria-label={`Hide the text of ${id}`}>
          hide
        </button>
      )}
    </section>
  )
}
