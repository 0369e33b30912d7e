/**
 * What a draft is before anything is signed: the exact signature text (the text every
 * signer will be asked to sign), the core's dry run against the current state (the
 * change it makes, or the rule it fails), the previews of its action (cascade, recovery
 * chain, claim), and the status of each signature while they are collected.
 */
import { useId, useMemo } from 'react'
import { RULES, isRuleId } from '../../../../core/rules'
import type { AssociationState } from '../../../../core/types'
import type { DryRunResult } from '../../../../signing'
import { diffStates } from '../../../model/state-diff'
import { CopyButton } from '../../../ui/CopyButton'
import { DiffRows } from '../../../ui/DiffRows'
import { MEMBER_KIND_LABEL, shortId } from '../../../ui/format'
import type { ComposeBuild } from '../compose-model'
import type { SlotView } from '../sign-gate'

const enc = new TextEncoder()

export function SignatureTextBlock({ text }: { text: string }) {
  const id = useId()
  return (
    <section className="panel compose-text" aria-labelledby={id}>
      <div className="panel-head">
        <h3 id={id}>Signature text to sign</h3>
        <CopyButton text={text} what="signature text to sign" />
        <span className="muted small">
          {enc.encode(text).length} bytes UTF-8 · {text.split('\n').length} lines · every signer signs exactly this
        </span>
      </div>
      <pre className="compose-pre" aria-label="Exact signature text" tabIndex={0}>
        {text}
      </pre>
    </section>
  )
}

export function DryRunView({
  dry,
  error,
  before,
}: {
  dry: DryRunResult | null
  error: string | null
  /** The state the draft was dry-run against (null: a new inbox). */
  before: AssociationState | null
}) {
  const id = useId()
  const after = dry?.ok ? dry.after : null
  const diff = useMemo(() => (after ? diffStates(before, after) : null), [before, after])
  const from = before?.sequenceId ?? null
  return (
    <section className="panel compose-dry" aria-labelledby={id}>
      <h3 id={id}>Dry run by the core</h3>
      {error ? (
        <p role="alert" className="bad">
          The dry run could not run: {error}
        </p>
      ) : !dry ? (
        <p role="status">Dry-running against the current state…</p>
      ) : dry.ok ? (
        <div role="status" aria-label="Dry run result">
          <p className="ok">
            <span className="badge ok">would apply</span>{' '}
            {from === null ? 'as the first update of a new inbox' : `after sequence id ${from}`}, giving the state at
            sequence id {dry.after.sequenceId.toString()}:
          </p>
          {diff && <DiffRows diff={diff} label="Changes the update makes" planned />}
        </div>
      ) : (
        <p role="alert" aria-label="Dry run result" className="bad">
          <span className={`badge ${dry.pending ? 'warn' : 'bad'}`}>
            {dry.pending ? 'cannot be judged' : 'would be rejected'}
          </span>{' '}
          <strong>{dry.rule}</strong>
          {isRuleId(dry.rule) ? ` (${RULES[dry.rule]})` : ''}
          {dry.actionIndex !== null ? `, action ${dry.actionIndex}` : ''}: {dry.message}
        </p>
      )}
    </section>
  )
}

export function Previews({ build }: { build: ComposeBuild }) {
  const { cascade, recoveryChain, claim, inboxId } = build
  if (!cascade && !recoveryChain && !claim && !inboxId) return null
  return (
    <div className="compose-previews" aria-live="polite">
      {inboxId && (
        <p>
          Inbox id (IDENT-010, SHA-256 of the identifier text and the nonce):{' '}
          <code className="compose-inbox-id" aria-label="Derived inbox id">
            {inboxId}
          </code>
        </p>
      )}
      {cascade && (
        <div aria-label="Revocation cascade">
          <p>
            <strong>Cascade (IDENT-044):</strong> this revocation {cascade.summary}.
          </p>
          {cascade.removed.length > 0 && (
            <ul className="changes">
              {cascade.removed.map((m) => (
                <li key={`${m.id.kind}:${m.id.text}`} className="mark-removed">
                  <span className="rowmark">−</span> <span className="kind-tag">{MEMBER_KIND_LABEL[m.id.kind]}</span>{' '}
                  <code title={m.id.text}>{shortId(m.id.text)}</code>
                  {m.id.kind === 'installation' && m.adder ? (
                    <span className="muted"> (added by {shortId(m.adder.text)})</span>
                  ) : null}
                </li>
              ))}
            </ul>
          )}
        </div>
      )}
      {recoveryChain && (
        <p aria-label="Recovery chain id">
          <strong>Chain id (IDENT-045):</strong> {recoveryChain.explanation}.
        </p>
      )}
      {claim && claim.handle !== '' && (
        <p
          aria-label="Handle check"
          className={claim.valid && claim.ok ? '' : 'bad'}
          role={claim.valid ? undefined : 'alert'}
        >
          {claim.valid ? <strong>Handle:</strong> : <strong>Refused by the handle grammar (IDENT-078):</strong>}{' '}
          {claim.summary}
          {claim.valid && claim.handlesAfter.length > 0 && (
            <span className="muted"> · handles after: {claim.handlesAfter.join(', ')}</span>
          )}
        </p>
      )}
    </div>
  )
}

const STATE_TEXT: Record<SlotView['state'], string> = {
  missing: 'missing',
  requested: 'asked, waiting…',
  signed: 'signed',
  failed: 'failed',
}

export function SlotsView({ slots }: { slots: readonly SlotView[] }) {
  const id = useId()
  const missing = slots.filter((s) => s.state !== 'signed')
  return (
    <section className="panel compose-slots" aria-labelledby={id}>
      <h3 id={id}>Signatures</h3>
      <table className="compose-table">
        <thead>
          <tr>
            <th scope="col">Signature</th>
            <th scope="col">Who must sign</th>
            <th scope="col">Signer in this browser</th>
            <th scope="col">Status</th>
          </tr>
        </thead>
        <tbody>
          {slots.map((s) => (
            <tr key={s.key} data-slot={s.role}>
              <td>{s.label}</td>
              <td>
                <code title={s.who}>{shortId(s.who.replace(/^\w+ /, ''))}</code>{' '}
                <span className="muted small">{s.who.split(' ')[0]}</span>
              </td>
              <td>{s.signerLabel ?? <span className="bad">none: add or connect it in Signers…</span>}</td>
              <td>
                <span
                  className={`badge ${s.state === 'signed' ? 'ok' : s.state === 'failed' ? 'bad' : s.state === 'requested' ? 'warn' : ''}`}
                >
                  {STATE_TEXT[s.state]}
                </span>
                {s.reason && <div className="bad small">{s.reason}</div>}
              </td>
            </tr>
          ))}
        </tbody>
      </table>
      <p className="small" role="status" aria-label="Signature status">
        {missing.length === 0
          ? 'Every signature is collected.'
          : `Still missing: ${missing.map((s) => `${s.label} from ${s.who}`).join('; ')}.`}
      </p>
    </section>
  )
}
