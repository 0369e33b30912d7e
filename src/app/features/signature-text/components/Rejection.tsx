import type { TransferStep } from '../../../../worker/transfer'
import { KIND_LABEL } from '../../../ui/format'
import type { ViolationDetails } from '../../../../core/errors'
import { fixItFor } from '../rationale'
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
  onShowText,
}: {
  step: TransferStep
  stopAt: TransferStep | null
  onRetry?: () => void
  retrying?: boolean
  /** Opens the signature text (in the inspector, its tab). */
  onShowText?: () => void
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
          <RetryButton pending={stopAt} onRetry={onRetry} retrying={retrying} />
        )}
      </section>
    )
  }
  if (step.status !== 'rejected' && step.status !== 'pending') return null
  const rule = specRule(step.rule ?? 'IDENT-001')
  const action = step.actionIndex !== null ? step.update?.actions[step.actionIndex] : undefined
  // The rationale and fix of the check that failed (IDENT-001's own "why" is about empty updates only).
  const { why, toFix } = fixItFor(rule.id, step.message, step.details, rule.why)
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
      {step.status === 'rejected' && (
        <FixIt details={step.details} toFix={toFix} hasText={step.signatureText !== null} onShowText={onShowText} />
      )}
      {step.status === 'pending' && onRetry && (
        <p className="retry">
          <RetryButton pending={step} onRetry={onRetry} retrying={retrying} />{' '}
          <span className="muted small">
            Unreachable is not invalid: set or fix the chain route (Settings › Chain routes) or start the chain, then
            replay.
          </span>
        </p>
      )}
    </section>
  )
}

/** Replays the log again for a pending update (IDENT-061). */
function RetryButton({
  pending,
  onRetry,
  retrying,
}: {
  pending: TransferStep
  onRetry: () => void
  retrying: boolean
}) {
  return (
    <button
      type="button"
      onClick={onRetry}
      disabled={retrying}
      aria-label={`Retry sequence id ${pending.sequenceId.toString()}: replay the log again`}
    >
      {retrying ? 'Retrying…' : 'Retry'}
    </button>
  )
}

const ROLE_LABEL = (role: string): string => role.replaceAll('_', ' ')

/**
 * The fix-it of a rejection: what the check expected and what it found as rows, the
 * member set it was checked against, and what would make the update apply. A labelled
 * region of its own, so its copies of a signer's text are told apart from the state's.
 */
function FixIt({
  details,
  toFix,
  hasText,
  onShowText,
}: {
  details: ViolationDetails | undefined
  toFix: string | undefined
  hasText: boolean
  onShowText: (() => void) | undefined
}) {
  if (!details && !toFix) return null
  const listed = details?.members ?? []
  const more = details?.memberCount !== undefined ? details.memberCount - listed.length : 0
  return (
    <section className="fixit" aria-label="Fix-it">
      {details && (
        <dl className="kv fixit-rows">
          {details.role && (
            <>
              <dt>signature</dt>
              <dd>{ROLE_LABEL(details.role)}</dd>
            </>
          )}
          {details.expected !== undefined && (
            <>
              <dt>expected</dt>
              <dd className="fx-expected">
                <code>{details.expected}</code>
              </dd>
            </>
          )}
          {details.found !== undefined && (
            <>
              <dt>{details.role ? 'signer found' : 'found here'}</dt>
              <dd className="fx-found">
                <HandleMark text={details.found} position={details.position} />
              </dd>
            </>
          )}
          {details.members && (
            <>
              <dt>checked against</dt>
              <dd>
                <ul className="fx-members" aria-label="Members checked against">
                  {listed.map((m) => (
                    <li key={m}>
                      <code>{m}</code>
                    </li>
                  ))}
                  {more > 0 && <li className="muted">and {more} more</li>}
                  {listed.length === 0 && <li className="muted">no members</li>}
                </ul>
              </dd>
            </>
          )}
          {details.recovery !== undefined && (
            <>
              <dt>recovery identifier</dt>
              <dd>
                <code>{details.recovery}</code>
              </dd>
            </>
          )}
          {details.replayKey !== undefined && (
            <>
              <dt>replay key seen</dt>
              <dd>
                <code className="fx-key">{details.replayKey}</code>
              </dd>
            </>
          )}
        </dl>
      )}
      {toFix && (
        <p className="to-fix">
          <strong>To fix:</strong> {toFix}
        </p>
      )}
      {hasText && (
        <p className="muted small">
          The actions decode: the{' '}
          {onShowText ? (
            <button type="button" className="link" onClick={onShowText}>
              would-be signature text
            </button>
          ) : (
            <a href="#sigtext-title">would-be signature text</a>
          )}{' '}
          is what a signer would sign for this update.
        </p>
      )}
    </section>
  )
}

/** A found value with the character at `position` marked (IDENT-078's grammar position). */
function HandleMark({ text, position }: { text: string; position: number | undefined }) {
  if (position === undefined || position < 0) return <code>{text}</code>
  const at = text.slice(position, position + 1)
  return (
    <code>
      {text.slice(0, position)}
      <mark title={`position ${position}`}>{at === '' ? '\u2038' : at}</mark>
      {text.slice(position + 1)}
      <span className="muted"> (position {position})</span>
    </code>
  )
}
