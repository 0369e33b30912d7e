/**
 * The signing playground: a composer for every action on top of the open log's head
 * state (or a new inbox), draft → dry-run → sign → append, and "Register this browser as
 * an installation". Signers come from the signers feature through the providers layer
 * (the SignerRegistry of src/app/model/app-context.ts), smart-wallet signatures are
 * judged by the chain routes' verifier there; the node's calls (publish, QueryNewest, the
 * handle check) come from the node service (src/app/model/node-service.ts); appending to
 * the open log is the shell's, passed in.
 */
import { useId, useState } from 'react'
import type { AssociationState } from '../../../../core/types'
import { useChainRoutesContext, useSignerRegistryContext } from '../../../model/app-context'
import { shortId } from '../../../ui/format'
import { TabList, TabPanel, type TabSpec } from '../../../ui/Tabs'
import { useComposer } from '../useComposer'
import type { AppendUpdate } from '../useSignDraft'
import { ComposeTab } from './ComposeTab'
import { RegisterInstallation } from './RegisterInstallation'

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

type Mode = 'compose' | 'register'

/** The playground's two modes, as tabs (arrow keys, Home and End move between them). */
const MODES: readonly TabSpec<Mode>[] = [
  { id: 'compose', label: 'Compose an update' },
  { id: 'register', label: 'Register this browser' },
]

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
  const [tab, setTab] = useState<Mode>('compose')

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
        <TabList
          tabs={MODES}
          active={tab}
          onChange={setTab}
          label="Playground mode"
          idPrefix="playground"
          className="compose-tabs"
        />
        <button
          type="button"
          className="compose-close"
          onClick={props.onClose}
          aria-label="Close the signing playground"
        >
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
      <TabPanel idPrefix="playground" active={tab}>
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
      </TabPanel>
    </section>
  )
}
