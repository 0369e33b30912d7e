import { type ReactNode, useId } from 'react'
import { bytesToHex } from '../../../../crypto/bytes'
import { useNodeService } from '../../../model/node-service'
import type { ComposeBuild } from '../compose-model'
import { DryRunView, SignatureTextBlock, SlotsView } from '../components/DraftView'
import { SignedView } from '../components/SignedView'
import type { useSignDraft } from '../useSignDraft'
import type { FlowProps } from './flow-props'
import { spendWarning } from './health'
import { useFreshness } from './useFreshness'
import { TextList } from '../../../ui/TextList'

/** The end every task shares: what will change, the dry run, the signers, Sign, and the signed update. */

export function SignEnd({
  p,
  build,
  s,
  changes,
  confirm,
  signLabel,
  refuse = null,
}: {
  /** Why the node would refuse the update, found before signing; Sign stays disabled with it. */
  refuse?: string | null
  p: FlowProps
  build: ComposeBuild
  s: ReturnType<typeof useSignDraft>
  /** What will change, in plain words. */
  changes: ReactNode
  /** The confirmation control; the default is the consequence checkbox. */
  confirm?: ReactNode
  signLabel: string
}) {
  const gateId = useId()
  const nodeUrl = useNodeService().url
  const warning = spendWarning(p.health)
  const fresh = useFreshness(p)
  const stale = fresh.newest !== null && fresh.newest > p.state.sequenceId
  const staleText = stale
    ? `the inbox changed on the node: it holds updates up to sequence id ${fresh.newest}, and this log's head is ${p.state.sequenceId}`
    : null
  const blockedBy = refuse ?? staleText
  return (
    <>
      <TextList items={build.problems} className="compose-problems" label="What the task still needs" />
      {build.draft && (
        <section className="panel flow-changes" aria-label="What will change">
          <h3>What will change</h3>
          {changes}
          <p className="muted small">
            {p.health.entries.left === 1
              ? 'One update: it spends the last log entry.'
              : `One update: it spends one of the ${p.health.entries.left.toLocaleString('en')} log entries left.`}
          </p>
        </section>
      )}
      {stale && (
        <div className="note warn" role="alert" aria-label="Inbox changed on the node">
          The inbox changed on the node: it holds updates up to sequence id {String(fresh.newest)}, this log's head is{' '}
          {p.state.sequenceId.toString()}. Re-fetch it, so the dry run judges the newest state; nothing has been signed.{' '}
          <button type="button" disabled={fresh.refetching} onClick={() => void fresh.refetch()}>
            {fresh.refetching ? 'Re-fetching…' : 'Re-fetch from the node'}
          </button>
        </div>
      )}
      {fresh.note && (
        <p className="note" role="status" aria-label="Re-fetch result">
          {fresh.note}
        </p>
      )}
      {warning && build.draft && (
        <p className="note warn" role="alert">
          {warning}
        </p>
      )}
      {build.draft && (
        <>
          <DryRunView dry={s.dry} error={s.dryError} before={p.state} />
          <details>
            <summary>The exact text the signer will sign</summary>
            <SignatureTextBlock text={build.draft.text} />
          </details>
          <SlotsView slots={s.slots} />
        </>
      )}
      <div className="compose-signbar">
        {confirm ??
          (build.confirmation && (
            <label className="compose-confirm">
              <input type="checkbox" checked={s.confirmed} onChange={(e) => s.setConfirmed(e.target.checked)} />{' '}
              {build.confirmation}
            </label>
          ))}
        <div className="row-buttons">
          <button
            type="button"
            className="primary"
            disabled={!s.gate.enabled || p.health.entries.left === 0 || blockedBy !== null || fresh.checking}
            aria-describedby={gateId}
            onClick={async () => {
              // Asked again at the prompt: the inbox may have moved on the node since the dry run.
              if (await fresh.recheck()) void s.sign()
            }}
          >
            {signLabel}
          </button>
          <span id={gateId} className="muted small">
            {p.health.entries.left === 0
              ? 'Sign is disabled: the log is full.'
              : blockedBy !== null && s.gate.enabled
                ? `Sign is disabled: ${blockedBy}`
                : s.gate.enabled
                  ? `Asks each signer once, then publishes to ${nodeUrl}.`
                  : `Sign is disabled: ${s.gate.reason}`}
          </span>
        </div>
      </div>
      {s.outcome && (
        <SignedView
          key={bytesToHex(s.outcome.signed.bytes)}
          outcome={s.outcome}
          onDismiss={s.clearOutcome}
          autoPublish
        />
      )}
    </>
  )
}
