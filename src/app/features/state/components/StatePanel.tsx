import { memo, useState } from 'react'
import { currentHandles } from '../../../../core/handles'
import { MAX_CLAIMS } from '../../../../core/handles'
import type { AssociationState, Member } from '../../../../core/types'
import { memberKey } from '../../../../core/types'
import { Id } from '../../../ui/Id'
import { chainText, clientTime, MEMBER_KIND_LABEL, shortId } from '../../../ui/format'
import { memberMarks, type RowMark, type StateDiff } from '../../../model/state-diff'
import { sortedMembers } from '../sorted'

const PAGE = 100

export interface StatePanelProps {
  readonly state: AssociationState | null
  /** The state before the step (makes the member order incremental). */
  readonly before: AssociationState | null
  readonly diff: StateDiff
  readonly caption: string
  readonly entriesUsed: number
  readonly entriesTotal: number
  /** When this changes (another update), the member list and the handles fold up again. */
  readonly resetKey?: unknown
}

const MARK_TEXT: Record<RowMark, string> = { added: '+', removed: '−', changed: '~' }

/** The association state at the selected step, with the rows this step changed marked. */
export function StatePanel({ state, before, diff, caption, entriesUsed, entriesTotal, resetKey }: StatePanelProps) {
  const [limit, setLimit] = useState(PAGE)
  const [showAllHandles, setShowAllHandles] = useState(false)
  // Stepping re-renders the panel (unchanged member rows are skipped) instead of mounting
  // it again; what a person unfolded belongs to the update it was unfolded on.
  const [foldedFor, setFoldedFor] = useState(resetKey)
  if (foldedFor !== resetKey) {
    setFoldedFor(resetKey)
    setLimit(PAGE)
    setShowAllHandles(false)
  }
  const marks = memberMarks(diff)
  if (!state) {
    return (
      <section className="panel state" aria-labelledby="state-title">
        <h2 id="state-title">Association state</h2>
        <p className="caption">{caption}</p>
        <p className="empty">No association state: no update has been applied yet.</p>
      </section>
    )
  }
  const removed = diff.members.filter((c) => c.mark === 'removed' && c.before).map((c) => c.before!)
  const members = sortedMembers(state.members, before?.members, diff)
  // only the rows on screen are built (a state can hold thousands of members)
  const rows: { m: Member; mark: RowMark | null }[] = [
    ...members.slice(0, limit).map((m) => ({ m, mark: marks.size ? (marks.get(memberKey(m.id)) ?? null) : null })),
    ...removed.map((m) => ({ m, mark: 'removed' as const })),
  ]
  const { current, others } = currentHandles(state)
  return (
    <section className="panel state" aria-labelledby="state-title">
      <h2 id="state-title">Association state</h2>
      <p className="caption">{caption}</p>
      <div className="inbox-name">
        {current ? (
          <>
            <span className="display-handle" title="display handle (IDENT-087)">
              {current}
            </span>
            <span className="muted"> inbox </span>
            <Id text={state.inboxId} what="inbox id" />
          </>
        ) : (
          <>
            <span className="muted">inbox </span>
            <Id text={state.inboxId} what="inbox id" />
          </>
        )}
      </div>
      <dl className="facts">
        <dt>recovery</dt>
        <dd className={diff.recovery ? 'mark-changed' : ''}>
          {diff.recovery && <span className="rowmark">~</span>}
          <span className="kind-tag">{MEMBER_KIND_LABEL[state.recovery.id.kind]}</span>{' '}
          <Id text={state.recovery.id.text} what="recovery identifier" /> <span className="muted">chain</span>{' '}
          {chainText(state.recovery.chainId)}
        </dd>
        <dt>handles</dt>
        <dd className={diff.displayHandle || diff.handlesAdded.length ? 'mark-changed' : ''}>
          {current ? (
            <ul className="handles" aria-label="Handles, display handle first">
              <li>
                <span className="handle">{current}</span> <span className="badge ok">display</span>
              </li>
              {(showAllHandles ? others : others.slice(0, 8)).map((h) => (
                <li key={h}>
                  <span className="handle secondary">{h}</span>
                </li>
              ))}
              {others.length > 8 && (
                <li>
                  <button type="button" className="link" onClick={() => setShowAllHandles(!showAllHandles)}>
                    {showAllHandles ? 'fewer' : `${others.length - 8} older handles`}
                  </button>
                </li>
              )}
            </ul>
          ) : (
            <span className="muted">none</span>
          )}
        </dd>
        <dt>claims</dt>
        <dd className={diff.claimCount ? 'mark-changed' : ''}>
          {state.claimCount} of {MAX_CLAIMS}
        </dd>
        <dt>replay keys</dt>
        <dd className={diff.replayKeysAdded ? 'mark-changed' : ''}>
          {state.seen.size}
          {diff.replayKeysAdded > 0 && <span className="muted"> (+{diff.replayKeysAdded})</span>}
        </dd>
        <dt>log entries used</dt>
        <dd>
          {entriesUsed} of {entriesTotal}{' '}
          <span className="muted">(updates applied up to sequence id {state.sequenceId.toString()})</span>
        </dd>
      </dl>
      <table className="members" aria-label={`Members (${members.length})`}>
        <caption>
          Members <span className="muted">({members.length})</span>
        </caption>
        <thead>
          <tr>
            <th scope="col">
              <span className="sr-only">change</span>
            </th>
            <th scope="col">kind</th>
            <th scope="col">identifier</th>
            <th scope="col">added by</th>
            <th scope="col">time added</th>
            <th scope="col">chain id</th>
          </tr>
        </thead>
        <tbody>
          {rows.map(({ m, mark }) => (
            <MemberRow key={memberKey(m.id) + (mark === 'removed' ? ':removed' : '')} m={m} mark={mark} />
          ))}
        </tbody>
      </table>
      {members.length > limit && (
        <button type="button" onClick={() => setLimit(limit + 1000)}>
          Show more members ({members.length - limit} not shown)
        </button>
      )}
    </section>
  )
}

/** One member row; members keep their identity across states, so unchanged rows skip rendering. */
const MemberRow = memo(function MemberRow({ m, mark }: { m: Member; mark: RowMark | null }) {
  return (
    <tr className={mark ? `mark-${mark}` : ''}>
      <td className="rowmark" aria-label={mark ?? 'unchanged'}>
        {mark ? MARK_TEXT[mark] : ''}
      </td>
      <td>
        <span className="kind-tag">{MEMBER_KIND_LABEL[m.id.kind]}</span>
      </td>
      <td>
        <Id text={m.id.text} what={`${MEMBER_KIND_LABEL[m.id.kind]} identifier`} />
        {m.relyingParty !== undefined && <span className="muted rp"> {m.relyingParty}</span>}
      </td>
      <td>
        {m.adder ? <code title={m.adder.text}>{shortId(m.adder.text)}</code> : <span className="muted">creator</span>}
      </td>
      <td className="mono">
        {clientTime(m.clientTimestampNs)} <span className="muted">#{m.addedAt.toString()}</span>
      </td>
      <td className="mono">{chainText(m.chainId)}</td>
    </tr>
  )
})
