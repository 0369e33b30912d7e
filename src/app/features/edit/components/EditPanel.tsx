/**
 * The edit drawer (issue #16): break-it buttons, the edits made so far, undo and the
 * original one click away. Every edit goes through the session (core applyEdits, then the
 * worker's replay of the edited copy), so the timeline and every panel show the edited log.
 */
import { useEffect, useId, useMemo, useState } from 'react'
import type { AssociationState } from '../../../../core/types'
import { generateInstallationKey } from '../../../../signing/local-keys'
import { useSignerRegistryContext } from '../../../model/app-context'
import type { Loaded } from '../../../trace/useInspector'
import type { TransferStep } from '../../../../worker/transfer'
import { STATUS_LABEL } from '../../../ui/format'
import { BREAK_ITS, type BreakId, type BreakResult, type BreakSigners } from '../break-it'
import { describeOp } from '../describe-op'
import { editBaseOf } from '../session'
import type { EditSession } from '../useEditSession'
import { whatChanged } from '../what-changed'
import { UpdateEditor } from './UpdateEditor'
import { type HeadDiff, WhatChanged } from './WhatChanged'

export interface EditPanelProps {
  readonly loaded: Loaded
  readonly session: EditSession
  /** The state feature's diff of two states (features/state/diff.ts, passed in by the shell). */
  /** The selected update, to edit. */
  readonly selected: TransferStep | null
  readonly compareStates: (before: AssociationState | null, after: AssociationState | null) => HeadDiff
  readonly onClose: () => void
}

export function EditPanel({ loaded, session, selected, compareStates, onClose }: EditPanelProps) {
  const headId = useId()
  // The signers of this browser (the providers layer's registry): local keys sign without a prompt.
  const { signers } = useSignerRegistryContext()
  const mark = loaded.source.edited
  const held = useMemo(() => signers.filter((s) => !s.interactive).map((s) => s.signer), [signers])
  const breakSigners = useMemo(
    (): BreakSigners => ({ held, freshInstallation: () => generateInstallationKey().signer() }),
    [held],
  )
  const [plans, setPlans] = useState<{ loadId: number; results: ReadonlyMap<BreakId, BreakResult> } | null>(null)
  const [last, setLast] = useState<{ title: string; target: bigint; summary: string } | null>(null)

  // Which break-its this log offers (and why not): built against the open log, edited or not.
  useEffect(() => {
    let live = true
    const steps = loaded.model.steps
    const base = editBaseOf(steps, loaded.model.stateAfter(steps.length - 1))
    void Promise.all(
      BREAK_ITS.map(async (b) => {
        try {
          return [b.id, await b.build(base, breakSigners)] as const
        } catch (e) {
          return [b.id, { ok: false, reason: e instanceof Error ? e.message : String(e) }] as const
        }
      }),
    ).then((rs) => {
      if (live) setPlans({ loadId: loaded.loadId, results: new Map(rs) })
    })
    return () => {
      live = false
    }
  }, [loaded, breakSigners])

  const root = session.root
  const changes = useMemo(() => {
    if (!mark || !root || root.loadId === loaded.loadId) return null
    const head = (l: Loaded) => l.model.stateAfter(l.model.steps.length - 1)
    return whatChanged(
      { steps: root.model.steps, head: head(root) },
      { steps: loaded.model.steps, head: head(loaded) },
      compareStates,
    )
  }, [mark, root, loaded, compareStates])

  const results = plans?.loadId === loaded.loadId ? plans.results : null
  const lastStep = last ? loaded.model.steps.find((s) => s.sequenceId === last.target) : undefined

  return (
    <section className="compose panel edit-panel" aria-labelledby={headId}>
      <div className="compose-head">
        <h2 id={headId}>Edit mode</h2>
        <div className="spacer" />
        <button type="button" onClick={onClose} aria-label="Close edit mode">
          Close
        </button>
      </div>
      <p className="hint">
        {mark
          ? `This is an edited copy of ${mark.originalLabel} (${mark.edits} edit operation${mark.edits === 1 ? '' : 's'}). Every view shows the edited log, replayed by the core.`
          : `Edits make an edited copy of ${loaded.source.label}; the original is never changed and stays one click away.`}
      </p>
      {mark && (
        <div className="row-buttons">
          <button
            type="button"
            onClick={() => void session.restore()}
            disabled={session.restorable !== null}
            title={session.restorable ?? `Open ${mark.originalLabel} again`}
          >
            Restore original
          </button>
          {session.edits.length > 0 && (
            <button type="button" onClick={() => void session.undo()} disabled={session.working !== null}>
              Undo {session.edits.at(-1)!.what}
            </button>
          )}
          {session.restorable && <span className="muted small">{session.restorable}</span>}
        </div>
      )}
      {session.error && (
        <p className="edit-error" role="alert">
          {session.error}{' '}
          <button type="button" className="link" onClick={session.clearError} aria-label="Dismiss the edit error">
            dismiss
          </button>
        </p>
      )}
      {session.working && (
        <p className="muted" role="status">
          Replaying the edited log: {session.working}…
        </p>
      )}
      {mark && last && lastStep && (
        <div className="edit-result" role="status" aria-label="Result of the last edit">
          <strong>{last.title}:</strong> {last.summary}. Sequence id {last.target.toString()} is now{' '}
          <span className={`badge st-${lastStep.status}`}>{STATUS_LABEL[lastStep.status]}</span>
          {lastStep.rule && (
            <>
              {' '}
              under <strong className="rule-id">{lastStep.rule}</strong>:{' '}
              <span className="muted">{lastStep.message}</span>
            </>
          )}
        </div>
      )}
      {changes && root && (
        <WhatChanged changes={changes} against={root.source.edited ? 'the log the link held' : 'the original'} />
      )}
      {mark && !root && (
        <p className="muted">
          What changed is shown against the original once this page holds it: restore the original, or make an edit (it
          is then compared with the log the link held).
        </p>
      )}
      {selected && (
        <UpdateEditor
          step={selected}
          original={
            (root ?? loaded).model.steps.find((s) => s.sequenceId === selected.sequenceId)?.signatures ??
            selected.signatures
          }
          held={held}
          busy={session.working !== null}
          apply={session.apply}
          fail={session.fail}
        />
      )}
      <h3>Break it</h3>
      <ul className="break-its">
        {BREAK_ITS.map((b) => {
          const r = results?.get(b.id)
          const reasonId = `${headId}-${b.id}`
          return (
            <li key={b.id}>
              <button
                type="button"
                disabled={!r?.ok || session.working !== null}
                aria-describedby={reasonId}
                onClick={async () => {
                  if (!r?.ok) return
                  const { plan } = r
                  const done = await session.apply(`break it: ${b.title.toLowerCase()}`, plan.ops, plan.target)
                  setLast(done.ok ? { title: b.title, target: plan.target, summary: plan.summary } : null)
                }}
              >
                {b.title}
              </button>{' '}
              <span className="badge">{b.teaches}</span>
              <span id={reasonId} className="break-line">
                {b.line}
                {r && !r.ok && (
                  <span className="warn">
                    {' '}
                    Not here: {r.reason}
                    {r.reason.endsWith('…') ? '' : '.'}
                  </span>
                )}
                {!r && <span className="muted"> (looking for a target…)</span>}
              </span>
            </li>
          )
        })}
      </ul>
      {session.edits.length > 0 && (
        <>
          <h3>Edits</h3>
          <ol className="edit-list">
            {session.edits.map((e, k) => (
              <li key={k}>
                {e.what}
                <span className="muted"> ({e.ops.map(describeOp).join('; ')})</span>
              </li>
            ))}
          </ol>
        </>
      )}
    </section>
  )
}
