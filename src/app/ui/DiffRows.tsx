/**
 * The rows of a state diff (model/state-diff), one list item per change: the inspector's
 * Diff tab and the composer's dry run render the same rows with this one component.
 */
import type { StateDiff } from '../model/state-diff'
import { chainText, MEMBER_KIND_LABEL, shortId } from './format'

const MARK = { added: '+', removed: '−', changed: '~' } as const

export function DiffRows({
  diff,
  label,
  planned = false,
}: {
  diff: StateDiff
  /** The list's accessible name ("Changes", "Changes the update makes"). */
  label: string
  /** A dry run: the replay keys are still to be recorded. */
  planned?: boolean
}) {
  return (
    <ul className="changes" aria-label={label}>
      {diff.created && (
        <li className="mark-added">
          <span className="rowmark">+</span> inbox created
        </li>
      )}
      {diff.members.map((c) => {
        const m = (c.after ?? c.before)!
        return (
          <li key={c.key} className={`mark-${c.mark}`}>
            <span className="rowmark">{MARK[c.mark]}</span>{' '}
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
      {diff.replayKeysAdded !== 0 && (
        <li className={diff.replayKeysAdded > 0 ? 'mark-added' : 'mark-removed'}>
          <span className="rowmark">{diff.replayKeysAdded > 0 ? '+' : '−'}</span> {Math.abs(diff.replayKeysAdded)}{' '}
          replay key{Math.abs(diff.replayKeysAdded) > 1 ? 's' : ''}{' '}
          {diff.replayKeysAdded < 0 ? 'fewer (an earlier state)' : planned ? 'to be recorded' : 'recorded'} (IDENT-050)
        </li>
      )}
    </ul>
  )
}
