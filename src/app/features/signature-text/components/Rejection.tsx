import type { TransferStep } from '../../../../worker/transfer'
import { KIND_LABEL } from '../../../ui/format'
import { rationaleFor } from '../rationale'
import { specRule } from '../spec-rules'

/**
 * Why an update did not apply: the rule with its title and requirement, the failing
 * action, what was found. A pending update (IDENT-061) offers a Retry that replays the
 * log again, e.g. once a chain route is set or the chain is up.
 */
export function Rejection({
  step,
  stopAt,
  onRetry,
  retrying = false,
}: {
  step: TransferStep
  stopAt: TransferStep | null
  onRetry?: () => void
  retrying?: boolean
}) {
  if (step.status === 'not_applied') {
    return (
      <section className="panel rejection not-applied" aria-labelledby="rej-title">
        <h2 id="rej-title">Not applied</h2>
        <p>
          {step.message}.{' '}
          {stopAt && (
            <>
              The update at sequence id {stopAt.sequenceId.toString()}{' '}
              {stopAt.status === 'pending' ? 'is pending (IDENT-061)' : `was rejected under ${stopAt.rule}`}, and the
              state at any later sequence id is defined only through every update before it (IDENT-004, IDENT-070), so
              replay does not read past it. This update&apos;s signatures are still checked for the inspector.
            </>
          )}
        </p>
        {stopAt?.status === 'pending' && onRetry && (
          <button
            type="button"
            onClick={onRetry}
            disabled={retrying}
            aria-label={`Retry sequence id ${stopAt.sequenceId.toString()}: replay the log again`}
          >
            {retrying ? 'Retrying…' : 'Retry'}
          </button>
        )}
      </section>
    )
  }
  if (step.status !== 'rejected' && step.status !== 'pending') return null
  const rule = specRule(step.rule ?? 'IDENT-001')
  const action = step.actionIndex !== null ? step.update?.actions[step.actionIndex] : undefined
  // The rationale of this failure class (IDENT-001's own "why" is about empty updates only).
  const why = rationaleFor(rule.id, step.message, rule.why)
  return (
    <section className={`panel rejection ${step.status}`} aria-labelledby="rej-title">
      <h2 id="rej-title">
        {step.status === 'pending' ? 'Pending' : 'Rejected'}: <span className="rule-id">{rule.id}</span>{' '}
        <span className="rule-title">{rule.title}</span>
      </h2>
      <blockquote className="requirement" aria-label={`Requirement of ${rule.id}`}>
        {rule.requirement}
      </blockquote>
      {why && <p className="why muted">Why: {why}</p>}
      <dl className="kv">
        <dt>failing action</dt>
        <dd>
          {step.actionIndex === null
            ? 'the update as a whole'
            : `action ${step.actionIndex}${action ? ` (${KIND_LABEL[action.kind]})` : ''}`}
        </dd>
        <dt>found</dt>
        <dd className="found">{step.message}</dd>
        <dt>effect</dt>
        <dd>
          {step.status === 'pending'
            ? 'The update is not applied and not rejected: it stays eligible for a later attempt, and the log is not read past it.'
            : 'The whole update is rejected and the state stays as it was before it (IDENT-002); the log is not read past it.'}
        </dd>
      </dl>
      {step.status === 'pending' && onRetry && (
        <p className="retry">
          <button
            type="button"
            onClick={onRetry}
            disabled={retrying}
            aria-label={`Retry sequence id ${step.sequenceId.toString()}: replay the log again`}
          >
            {retrying ? 'Retrying…' : 'Retry'}
          </button>{' '}
          <span className="muted small">
            Unreachable is not invalid: set or fix the chain route (Chain routes, above) or start the chain, then
            replay.
          </span>
        </p>
      )}
    </section>
  )
}
