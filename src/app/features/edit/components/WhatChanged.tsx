/**
 * The "What changed" view of the edit drawer: the edited log's verdicts, signature texts,
 * signatures and head state against the original's (what-changed.ts).
 */
import { memo } from 'react'
import type { MemberId } from '../../../../core/types'
import { STATUS_LABEL } from '../../../ui/format'
import type { Verdict, WhatChanged as Changes } from '../what-changed'

/** What the view reads of the state feature's diff (StateDiff, passed in by the shell). */
export interface HeadDiff {
  readonly members: readonly {
    readonly key: string
    readonly mark: 'added' | 'removed' | 'changed'
    readonly fields: readonly string[]
  }[]
  readonly recovery: {
    readonly before: { readonly id: MemberId } | null
    readonly after: { readonly id: MemberId } | null
  } | null
  readonly handlesAdded: readonly string[]
  readonly displayHandle: { readonly before: string | null; readonly after: string | null } | null
  readonly claimCount: { readonly before: number; readonly after: number } | null
  readonly empty: boolean
}

const SHOWN = 24

/** What a signature's change is called. */
const SIGNATURE_CHANGE = { broken: 'no longer verifies', signer: 'another signer', fixed: 'verifies again' } as const

/** A head member's mark, said of the two logs. */
const HEAD_MARK = { added: 'only in the edited', removed: 'only in the original', changed: 'changed' } as const

function VerdictText({ v, absent }: { v: Verdict | null; absent: string }) {
  if (!v) return <span className="muted">{absent}</span>
  return (
    <>
      <span className={`badge st-${v.status}`}>{STATUS_LABEL[v.status]}</span>
      {v.rule && (
        <>
          {' '}
          under <strong className="rule-id">{v.rule}</strong>
        </>
      )}
    </>
  )
}

const ROLE = (r: string): string => r.replaceAll('_', ' ')

export const WhatChanged = memo(function WhatChanged({
  changes,
  against,
}: {
  changes: Changes<HeadDiff>
  against: string
}) {
  const { verdicts, texts, signatures, head } = changes
  const nothing = verdicts.length === 0 && texts.length === 0 && signatures.length === 0 && head.empty
  return (
    <section className="what-changed" aria-label="What changed">
      <h3>What changed against {against}</h3>
      {nothing && (
        <p className="muted">Nothing: every verdict, text, signature and the head state are as in the original.</p>
      )}
      {verdicts.length > 0 && (
        <>
          <h4>Verdicts</h4>
          <ul aria-label="Verdicts that changed">
            {verdicts.slice(0, SHOWN).map((v) => (
              <li key={v.sequenceId.toString()}>
                sequence id {v.sequenceId.toString()}: <VerdictText v={v.before} absent="not in the original" /> →{' '}
                <VerdictText v={v.after} absent="not in the edited log" />
                {v.after?.rule && <span className="muted"> · {v.after.message}</span>}
              </li>
            ))}
            {verdicts.length > SHOWN && <li className="muted">… and {verdicts.length - SHOWN} more</li>}
          </ul>
        </>
      )}
      {texts.map((t) => (
        <div key={t.sequenceId.toString()} className="text-change">
          <h4>
            Signature text of sequence id {t.sequenceId.toString()}{' '}
            <span className="muted small">
              ({t.removed} character{t.removed === 1 ? '' : 's'} removed, {t.inserted} inserted)
            </span>
          </h4>
          <pre className="text-diff" aria-label={`Signature text diff of sequence id ${t.sequenceId}`}>
            {t.segments.map((s, k) =>
              s.op === 'same' ? (
                <span key={k}>{s.text}</span>
              ) : s.op === 'del' ? (
                <del key={k}>{s.text}</del>
              ) : (
                <ins key={k}>{s.text}</ins>
              ),
            )}
          </pre>
        </div>
      ))}
      {signatures.length > 0 && (
        <>
          <h4>Signatures</h4>
          <ul aria-label="Signatures that changed">
            {signatures.slice(0, SHOWN).map((s) => (
              <li key={`${s.sequenceId}:${s.actionIndex}:${s.role}`}>
                sequence id {s.sequenceId.toString()}, action {s.actionIndex}, {ROLE(s.role)} ({s.kind}):{' '}
                <strong className={s.change === 'fixed' ? 'ok' : 'bad'}>{SIGNATURE_CHANGE[s.change]}</strong>{' '}
                <span className="muted">· {s.why}</span>
              </li>
            ))}
            {signatures.length > SHOWN && <li className="muted">… and {signatures.length - SHOWN} more</li>}
          </ul>
        </>
      )}
      {!head.empty && (
        <>
          <h4>Head state</h4>
          <ul aria-label="How the head state differs">
            {head.members.slice(0, SHOWN).map((m) => (
              <li key={m.key}>
                <span className={`badge mark-${m.mark}`}>{HEAD_MARK[m.mark]}</span> <code>{m.key}</code>
                {m.fields.length > 0 && <span className="muted"> ({m.fields.join(', ')})</span>}
              </li>
            ))}
            {head.members.length > SHOWN && <li className="muted">… and {head.members.length - SHOWN} more members</li>}
            {head.recovery && (
              <li>
                recovery identifier: <code>{head.recovery.before?.id.text ?? 'none'}</code> →{' '}
                <code>{head.recovery.after?.id.text ?? 'none'}</code>
              </li>
            )}
            {head.displayHandle && (
              <li>
                display handle: {head.displayHandle.before ?? 'none'} → {head.displayHandle.after ?? 'none'}
              </li>
            )}
            {head.handlesAdded.length > 0 && <li>handles only in the edited: {head.handlesAdded.join(', ')}</li>}
            {head.claimCount && (
              <li>
                claims made: {head.claimCount.before} → {head.claimCount.after}
              </li>
            )}
          </ul>
        </>
      )}
    </section>
  )
})
