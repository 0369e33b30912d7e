import type { StateDiff } from '../diff'
import { chainText, MEMBER_KIND_LABEL, shortId } from '../../../ui/format'

/** What the selected step changed, keyed by identifier. */
export function DiffPanel({
  diff,
  tentative,
  caption,
}: {
  diff: StateDiff
  tentative: string | null
  caption: string
}) {
  return (
    <section className="panel diff" aria-labelledby="diff-title">
      <h2 id="diff-title">Change from the previous step</h2>
      <p className="caption">{caption}</p>
      {tentative && <p className="note warn">{tentative}</p>}
      {diff.empty ? (
        <p className="empty">No change to the association state.</p>
      ) : (
        <ul className="changes" aria-label="Changes">
          {diff.created && (
            <li className="mark-added">
              <span className="rowmark">+</span> inbox created
            </li>
          )}
          {diff.members.map((c) => {
            const m = (c.after ?? c.before)!
            return (
              <li key={c.key} className={`mark-${c.mark}`}>
                <span className="rowmark">{c.mark === 'added' ? '+' : c.mark === 'removed' ? '−' : '~'}</span>{' '}
                <span className="kind-tag">{MEMBER_KIND_LABEL[m.id.kind]}</span>{' '}
                <code title={m.id.text}>{shortId(m.id.text)}</code> {c.mark}
                {c.mark === 'added' && m.adder && (
                  <>
                    {' '}
                    by <code title={m.adder.text}>{shortId(m.adder.text)}</code>
                  </>
                )}
                {c.mark === 'removed' && c.before?.adder && c.before.id.kind === 'installation' && (
                  <span className="muted"> (added by {shortId(c.before.adder.text)})</span>
                )}
                {c.mark === 'changed' && <span className="muted"> ({c.fields.join(', ')})</span>}
              </li>
            )
          })}
          {diff.recovery && (
            <li className="mark-changed">
              <span className="rowmark">~</span> recovery{' '}
              {diff.recovery.before ? (
                <code title={diff.recovery.before.id.text}>{shortId(diff.recovery.before.id.text)}</code>
              ) : (
                '—'
              )}{' '}
              {diff.recovery.before ? chainText(diff.recovery.before.chainId) : ''} →{' '}
              {diff.recovery.after ? (
                <code title={diff.recovery.after.id.text}>{shortId(diff.recovery.after.id.text)}</code>
              ) : (
                '—'
              )}{' '}
              {diff.recovery.after ? chainText(diff.recovery.after.chainId) : ''}
            </li>
          )}
          {diff.handlesAdded.map((h) => (
            <li key={`h-${h}`} className="mark-added">
              <span className="rowmark">+</span> handle <span className="handle">{h}</span>
            </li>
          ))}
          {diff.displayHandle && (
            <li className="mark-changed">
              <span className="rowmark">~</span> display handle{' '}
              <span className="handle">{diff.displayHandle.before ?? '—'}</span> →{' '}
              <span className="handle">{diff.displayHandle.after ?? '—'}</span>
            </li>
          )}
          {diff.claimCount && (
            <li className="mark-changed">
              <span className="rowmark">~</span> claim count {diff.claimCount.before} → {diff.claimCount.after}
            </li>
          )}
          {diff.replayKeysAdded > 0 && (
            <li className="mark-added">
              <span className="rowmark">+</span> {diff.replayKeysAdded} replay key{diff.replayKeysAdded > 1 ? 's' : ''}{' '}
              recorded (IDENT-050)
            </li>
          )}
        </ul>
      )}
    </section>
  )
}
