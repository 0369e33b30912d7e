import { describeMember } from '../../../../core/text/identifier'
import { memberKey, type AssociationState } from '../../../../core/types'
import { clientTime, shortId } from '../../../ui/format'
import type { FlowId } from './flow-ids'
import type { InboxHealth } from './health'
import { Meter } from './Meter'

/** The inbox's health: entries, installations and handles against their limits, and the tasks that help. */
export function HealthView({
  health,
  state,
  onFlow,
  onSettings,
}: {
  health: InboxHealth
  state: AssociationState
  onFlow: (f: FlowId) => void
  onSettings: () => void
}) {
  const h = health
  return (
    <div className="compose-body flow-health" aria-label="Inbox health">
      <p className="muted small">
        Inbox <code title={h.inboxId}>{shortId(h.inboxId)}</code> at sequence id {state.sequenceId.toString()}, as this
        browser replayed it (IDENT-071).
      </p>
      {h.warnings.length > 0 && (
        <ul className="flow-warnings" aria-label="Warnings">
          {h.warnings.map((w) => (
            <li key={w} className="note warn">
              {w}
            </li>
          ))}
        </ul>
      )}
      <div className="meters">
        <Meter label="Log entries used" used={h.entries.used} limit={h.entries.limit} />
        <Meter label="Installations" used={h.installations.count} limit={h.installations.ceiling} />
        <Meter label="Handle claims" used={h.handles.claimCount} limit={64} />
      </div>
      <p className="small">
        Log limit of this deployment: {h.entries.limit.toLocaleString('en')} updates per inbox ·{' '}
        <button type="button" className="link" onClick={onSettings}>
          change it in Settings…
        </button>
      </p>
      <dl className="kv">
        <dt>Display handle</dt>
        <dd>{h.handles.current ?? <span className="muted">none</span>}</dd>
        {h.handles.others.length > 0 && (
          <>
            <dt>Other handles</dt>
            <dd>{h.handles.others.join(', ')}</dd>
          </>
        )}
        <dt>Recovery identifier</dt>
        <dd>
          {describeMember(h.recovery.id)}{' '}
          <span className="muted">
            (
            {h.recovery.isMember
              ? 'also a member'
              : 'not a member: it holds the recovery role only (revoke members, rotate recovery)'}
            )
          </span>
        </dd>
      </dl>
      <h3>Installations, unused the longest first</h3>
      {h.installations.oldestFirst.length === 0 ? (
        <p className="muted">No installation.</p>
      ) : (
        <ol className="flow-installs" aria-label="Installations, oldest client time first">
          {h.installations.oldestFirst.map((m) => (
            <li key={memberKey(m.id)}>
              <code title={m.id.text}>{shortId(m.id.text)}</code>{' '}
              <span className="muted">
                added {clientTime(m.clientTimestampNs)} at sequence id {m.addedAt.toString()}
                {m.adder ? ` by ${shortId(m.adder.text)}` : ''}
              </span>
            </li>
          ))}
        </ol>
      )}
      <h3>What the remaining entries can buy</h3>
      <ul>
        {h.buys.map((b) => (
          <li key={b}>{b}</li>
        ))}
      </ul>
      <div className="row-buttons">
        <button type="button" onClick={() => onFlow('cleanup')}>
          Clean up installations…
        </button>
        <button type="button" onClick={() => onFlow('claim')}>
          Claim a handle…
        </button>
        <button type="button" onClick={() => onFlow('recovery')}>
          Rotate recovery…
        </button>
      </div>
    </div>
  )
}
