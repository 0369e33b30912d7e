/** The playground's "Compose an update" tab: the action, its form, the draft with its dry run and slots, Sign, the signed update. */
import { type ReactNode, useId } from 'react'
import { bytesToHex } from '../../../../crypto/bytes'
import type { AssociationState } from '../../../../core/types'
import type { SignerRegistry } from '../../../model/app-signer'
import { clientTime } from '../../../ui/format'
import { ACTION_TITLE, actionsFor, type ComposeActionKind } from '../compose-form'
import type { useComposer } from '../useComposer'
import { ActionForm } from './ActionForm'
import { DryRunView, Previews, SignatureTextBlock, SlotsView } from './DraftView'
import { SignedView } from './SignedView'
import { TextList } from '../../../ui/TextList'

export function ComposeTab({
  c,
  state,
  registry,
}: {
  c: ReturnType<typeof useComposer>
  state: AssociationState | null
  registry: SignerRegistry
}) {
  const actions = actionsFor(state)
  const gateId = useId()
  const draft = c.draft
  let body: ReactNode = null
  if (draft) {
    body = (
      <>
        <SignatureTextBlock text={draft.text} />
        <DryRunView dry={c.dry} error={c.dryError} before={state} />
        <SlotsView slots={c.slots} />
      </>
    )
  }
  return (
    <div className="compose-body">
      <div role="radiogroup" aria-label="Action" className="compose-actions">
        {actions.map((a: ComposeActionKind) => (
          <label key={a} className={c.form.action === a ? 'active' : ''}>
            <input
              type="radio"
              name={`${gateId}-action`}
              checked={c.form.action === a}
              onChange={() => c.update({ action: a })}
            />{' '}
            {ACTION_TITLE[a]}
          </label>
        ))}
      </div>
      <ActionForm c={c} state={state} registry={registry} />
      <p className="muted small">
        Client time {clientTime(c.clientTimestampNs)} (in the signed text){' '}
        <button type="button" className="link" onClick={c.restamp}>
          use the time now
        </button>
      </p>
      <Previews build={c.build} />
      <TextList items={c.build.problems} className="compose-problems" label="What the draft still needs" />
      {body}
      <div className="compose-signbar">
        {c.build.confirmation && (
          <label className="compose-confirm">
            <input type="checkbox" checked={c.confirmed} onChange={(e) => c.setConfirmed(e.target.checked)} />{' '}
            {c.build.confirmation}
          </label>
        )}
        <div className="row-buttons">
          <button
            type="button"
            className="primary"
            disabled={!c.gate.enabled}
            aria-describedby={gateId}
            onClick={() => void c.sign()}
          >
            {c.slots.some((s) => s.state === 'signed' || s.state === 'failed')
              ? 'Ask the missing signers again'
              : 'Sign'}
          </button>
          <span id={gateId} className="muted small">
            {c.gate.enabled ? 'Asks each signer in turn, one prompt at a time.' : `Sign is disabled: ${c.gate.reason}`}
          </span>
        </div>
      </div>
      {c.outcome && (
        // Keyed by the signed bytes: a new signed update never shows the previous one's node answer.
        <SignedView key={bytesToHex(c.outcome.signed.bytes)} outcome={c.outcome} onDismiss={c.clearOutcome} />
      )}
    </div>
  )
}
