/**
 * The signing playground: a composer for every action on top of the open log's head
 * state (or a new inbox), draft → dry-run → sign → append, and "Register this browser as
 * an installation". Signers come from the signers feature through the providers layer
 * (the SignerRegistry of src/app/model/app-context.ts), smart-wallet signatures are
 * judged by the chain routes' verifier there; the node's calls (publish, QueryNewest, the
 * handle check) come from the node service (src/app/model/node-service.ts); appending to
 * the open log is the shell's, passed in.
 */
import { useId, useState, type ReactNode } from 'react'
import { bytesToHex } from '../../../../crypto/bytes'
import type { AssociationState } from '../../../../core/types'
import { useChainRoutesContext, useSignerRegistryContext } from '../../../model/app-context'
import type { SignerRegistry } from '../../../model/app-signer'
import { clientTime, MEMBER_KIND_LABEL, shortId } from '../../../ui/format'
import { ACTION_TITLE, actionsFor, TYPED, type ComposeActionKind } from '../compose-form'
import { eligible, type Party } from '../parties'
import { useComposer } from '../useComposer'
import type { AppendUpdate } from '../useSignDraft'
import { DryRunView, Previews, SignatureTextBlock, SlotsView } from './DraftView'
import { RegisterInstallation } from './RegisterInstallation'
import { SignedView } from './SignedView'

export interface ComposeBase {
  /** The open log's head state; null when no log is open or the open one has no applied update. */
  readonly state: AssociationState | null
  /** The open log, as the header names it; null when none is open. */
  readonly label: string | null
  /** Why the open log takes no new update (it stops at a rejected or pending update); null when it does. */
  readonly blocked: string | null
}

export interface ComposerProps {
  readonly base: ComposeBase
  /** Appends signed bytes to the open log (or opens a new log with them) and replays it. */
  readonly onAppend: AppendUpdate
  /** The newest applied sequence id of the open log for this inbox, or null (a registration into the log reads it, IDENT-072). */
  readonly localNewest: (inboxId: string) => bigint | null
  readonly onClose: () => void
}

export function Composer(props: ComposerProps) {
  const { base } = props
  const registry = useSignerRegistryContext()
  // Judges smart contract wallet (erc_6492) signatures on the configured chains (IDENT-060, IDENT-061).
  const smartWallets = useChainRoutesContext().verifier
  const [fresh, setFresh] = useState(base.state === null)
  const canAppend = base.state !== null && base.blocked === null
  const onLog = !fresh && canAppend
  const state = onLog ? base.state : null
  // A new inbox, once signed and appended, is the open log: go on composing on it.
  const afterAppend: AppendUpdate = async (bytes, o) => {
    const r = await props.onAppend(bytes, o)
    if (r.ok && o.newLog) setFresh(false)
    return r
  }
  const c = useComposer({
    state,
    registry,
    onAppend: afterAppend,
    smartWallets,
  })
  const headId = useId()
  const [tab, setTab] = useState<'compose' | 'register'>('compose')

  return (
    <section className="compose panel" aria-labelledby={headId}>
      <div className="compose-head">
        <h2 id={headId}>Signing playground</h2>
        <fieldset className="compose-base">
          <legend className="sr-only">Compose on</legend>
          <label>
            <input
              type="radio"
              name={`${headId}-base`}
              checked={onLog}
              disabled={!canAppend}
              onChange={() => setFresh(false)}
            />{' '}
            the open log
            {base.state ? (
              <span className="muted">
                {' '}
                (inbox {shortId(base.state.inboxId)} at sequence id {base.state.sequenceId.toString()})
              </span>
            ) : null}
          </label>
          <label>
            <input type="radio" name={`${headId}-base`} checked={!onLog} onChange={() => setFresh(true)} /> a new inbox
          </label>
        </fieldset>
        <div className="spacer" />
        <div
          role="tablist"
          aria-label="Playground mode"
          className="compose-tabs"
          onKeyDown={(e) => {
            // Arrow keys move between the two tabs (WAI-ARIA tabs pattern).
            if (e.key !== 'ArrowLeft' && e.key !== 'ArrowRight') return
            e.preventDefault()
            const next = tab === 'compose' ? 'register' : 'compose'
            setTab(next)
            e.currentTarget.querySelector<HTMLButtonElement>(`[data-tab="${next}"]`)?.focus()
          }}
        >
          <button
            type="button"
            role="tab"
            data-tab="compose"
            aria-selected={tab === 'compose'}
            tabIndex={tab === 'compose' ? 0 : -1}
            onClick={() => setTab('compose')}
          >
            Compose an update
          </button>
          <button
            type="button"
            role="tab"
            data-tab="register"
            aria-selected={tab === 'register'}
            tabIndex={tab === 'register' ? 0 : -1}
            onClick={() => setTab('register')}
          >
            Register this browser
          </button>
        </div>
        <button type="button" onClick={props.onClose} aria-label="Close the signing playground">
          Close
        </button>
      </div>
      {base.blocked && <p className="note warn">{base.blocked} New updates go to a new inbox.</p>}
      {!registry.ready && <p className="muted small">Reading the keys kept in this browser…</p>}
      {registry.signers.length === 0 && registry.ready && (
        <p className="note warn">
          No signer yet: connect a wallet, create a passkey or generate a key in Signers…, or generate one below.
        </p>
      )}
      {tab === 'register' ? (
        <RegisterInstallation
          registry={registry}
          state={state}
          onAppend={afterAppend}
          localNewest={props.localNewest}
          smartWallets={smartWallets}
        />
      ) : (
        <ComposeTab c={c} state={state} registry={registry} />
      )}
    </section>
  )
}

function PartySelect({
  label,
  value,
  parties,
  onChange,
  empty,
}: {
  label: string
  value: string
  parties: readonly Party[]
  onChange: (ref: string) => void
  empty: string
}) {
  return (
    <label className="compose-field">
      <span>{label}</span>
      <select
        aria-label={label}
        value={parties.some((p) => p.ref === value) ? value : ''}
        onChange={(e) => onChange(e.target.value)}
      >
        {parties.length === 0 && <option value="">{empty}</option>}
        {/* Nothing preselected for the person (no signer of this browser fits): say so, not the first member. */}
        {parties.length > 0 && !parties.some((p) => p.ref === value) && <option value="">choose…</option>}
        {parties.map((p) => (
          <option key={p.ref} value={p.ref}>
            {p.label}
          </option>
        ))}
      </select>
    </label>
  )
}

function NewSignerButtons({
  registry,
  onMade,
  kinds,
}: {
  registry: SignerRegistry
  onMade: (ref: string) => void
  kinds: readonly ('installation' | 'ethereum' | 'passkey')[]
}) {
  const [problem, setProblem] = useState<string | null>(null)
  const [busy, setBusy] = useState(false)
  const make = async (f: () => Promise<{ id: string }>) => {
    setBusy(true)
    setProblem(null)
    try {
      const s = await f()
      onMade(`signer:${s.id}`)
    } catch (e) {
      setProblem(e instanceof Error ? e.message : String(e))
    } finally {
      setBusy(false)
    }
  }
  return (
    <span className="row-buttons">
      {kinds.includes('installation') && (
        <button type="button" disabled={busy} onClick={() => void make(() => registry.newInstallationKey())}>
          New installation key
        </button>
      )}
      {kinds.includes('ethereum') && (
        <button type="button" disabled={busy} onClick={() => void make(() => registry.newEthereumKey())}>
          New local Ethereum key
        </button>
      )}
      {kinds.includes('passkey') && (
        <button type="button" disabled={busy} onClick={() => void make(() => registry.newPasskey())}>
          New passkey
        </button>
      )}
      {problem && (
        <span role="alert" className="bad small">
          Could not create the signer: {problem}
        </span>
      )}
    </span>
  )
}

function ActionForm({
  c,
  state,
  registry,
}: {
  c: ReturnType<typeof useComposer>
  state: AssociationState | null
  registry: SignerRegistry
}) {
  const { form, update, parties } = c
  switch (form.action) {
    case 'create_inbox':
      return (
        <div className="compose-form">
          <label className="compose-field">
            <span>Identifier kind</span>
            <select
              aria-label="Identifier kind"
              value={form.createKind}
              onChange={(e) => update({ createKind: e.target.value as 'ethereum' | 'passkey' })}
            >
              <option value="ethereum">Ethereum (wallet or local key)</option>
              <option value="passkey">Passkey</option>
            </select>
          </label>
          <PartySelect
            label="Creator (initial identifier)"
            value={form.creator}
            parties={eligible(parties, 'creator', form.createKind)}
            onChange={(creator) => update({ creator })}
            empty="no signer of this kind"
          />
          <NewSignerButtons registry={registry} kinds={[form.createKind]} onMade={(creator) => update({ creator })} />
          <label className="compose-field">
            <span>Nonce</span>
            <input
              aria-label="Nonce"
              inputMode="numeric"
              value={form.nonce}
              onChange={(e) => update({ nonce: e.target.value })}
              size={22}
            />
          </label>
        </div>
      )
    case 'add':
      return (
        <div className="compose-form">
          <PartySelect
            label="Approved by (existing member or recovery identifier)"
            value={form.existing}
            parties={eligible(parties, 'existing')}
            onChange={(existing) => update({ existing })}
            empty="no member"
          />
          <PartySelect
            label="New member"
            value={form.newMember}
            parties={eligible(parties, 'new_member')}
            onChange={(newMember) => update({ newMember })}
            empty="no signer that is not a member yet"
          />
          <NewSignerButtons
            registry={registry}
            kinds={['installation', 'ethereum', 'passkey']}
            onMade={(newMember) => update({ newMember })}
          />
        </div>
      )
    case 'revoke':
      return (
        <div className="compose-form">
          <label className="compose-field">
            <span>Member to revoke</span>
            <select
              aria-label="Member to revoke"
              value={form.revokeTarget}
              onChange={(e) => update({ revokeTarget: e.target.value })}
            >
              {[...(state?.members.entries() ?? [])].map(([k, m]) => (
                <option key={k} value={k}>
                  {MEMBER_KIND_LABEL[m.id.kind]} {shortId(m.id.text)}
                  {state && state.recovery.id.text === m.id.text ? ' (recovery identifier)' : ''}
                </option>
              ))}
            </select>
          </label>
          <p className="muted small">
            Signed by the recovery identifier,{' '}
            {state ? `${state.recovery.id.kind} ${shortId(state.recovery.id.text)}` : '—'} (IDENT-043).
          </p>
        </div>
      )
    case 'change_recovery_address': {
      const targets = eligible(parties, 'recovery_target').filter((p) => !p.isRecovery)
      return (
        <div className="compose-form">
          <label className="compose-field">
            <span>New recovery identifier</span>
            <select
              aria-label="New recovery identifier"
              value={form.recoveryTarget}
              onChange={(e) => update({ recoveryTarget: e.target.value })}
            >
              {targets.map((p) => (
                <option key={p.ref} value={p.ref}>
                  {p.label}
                </option>
              ))}
              <option value={TYPED}>type an identifier…</option>
            </select>
          </label>
          {form.recoveryTarget === TYPED && (
            <>
              <label className="compose-field">
                <span>Kind</span>
                <select
                  aria-label="Kind of the typed recovery identifier"
                  value={form.recoveryTypedKind}
                  onChange={(e) => update({ recoveryTypedKind: e.target.value as 'ethereum' | 'passkey' })}
                >
                  <option value="ethereum">Ethereum address</option>
                  <option value="passkey">Passkey key (hex)</option>
                </select>
              </label>
              <label className="compose-field">
                <span>Identifier</span>
                <input
                  aria-label="Typed recovery identifier"
                  value={form.recoveryTyped}
                  onChange={(e) => update({ recoveryTyped: e.target.value })}
                  size={44}
                  spellCheck={false}
                />
              </label>
            </>
          )}
          <p className="muted small">
            Signed by the current recovery identifier,{' '}
            {state ? `${state.recovery.id.kind} ${shortId(state.recovery.id.text)}` : '—'} (IDENT-045); the new one
            signs nothing.
          </p>
        </div>
      )
    }
    case 'claim_handle':
      return (
        <div className="compose-form">
          <label className="compose-field">
            <span>Handle</span>
            <input
              aria-label="Handle to claim"
              value={form.handle}
              onChange={(e) => update({ handle: e.target.value })}
              spellCheck={false}
              autoCapitalize="off"
              size={34}
              placeholder="nick or nick#2341"
            />
          </label>
          <PartySelect
            label="Signed by (any current member)"
            value={form.claimer}
            parties={eligible(parties, 'claimer')}
            onChange={(claimer) => update({ claimer })}
            empty="no member"
          />
        </div>
      )
  }
}

function ComposeTab({
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
      {c.build.problems.length > 0 && (
        <ul className="compose-problems" aria-label="What the draft still needs">
          {c.build.problems.map((p) => (
            <li key={p}>{p}</li>
          ))}
        </ul>
      )}
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
