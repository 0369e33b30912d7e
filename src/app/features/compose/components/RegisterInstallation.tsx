/**
 * "Register this browser as an installation" (spec section 8) through the signing
 * client of src/signing/registration.ts, created with the app's pre-authentication
 * handler (IDENT-076): a dialog of the app's own, answered before any signer is asked
 * (IDENT-073), never shown when nothing needs signing (IDENT-074), and whose Cancel ends
 * the registration with a callback failure and nothing signed (IDENT-075). The
 * client-side installation ceiling (CONF-044) is a setting, default 10.
 *
 * The update goes to the open log (appended and replayed; the IDENT-072 read is the
 * replayed log's newest applied sequence id) or to the node (publish, then QueryNewest on
 * the node until it shows the receipt; then it is appended to the open log too).
 */
import { useQueryClient } from '@tanstack/react-query'
import { useEffect, useId, useMemo, useRef, useState } from 'react'
import { memberKey, type AssociationState } from '../../../../core/types'
import type { SmartWalletVerifier } from '../../../../core/verify/port'
import {
  createSigningClient,
  inboxIdOf,
  type InstallationKeySigner,
  type RegistrationProgress,
} from '../../../../signing'
import type { SignerRegistry } from '../../../model/app-signer'
import { shortId } from '../../../ui/format'
import { parseNonce } from '../compose-form'
import { describePublishAnswer } from '../publish-answer'
import {
  createPreAuthGate,
  describeOutcome,
  describeProgress,
  parseCeiling,
  type PreAuthPrompt,
} from '../registration-flow'
import { setCeiling, useCeiling } from '../useCeiling'
import { useNodeService } from '../../../model/node-service'
import type { AppendUpdate } from '../useSignDraft'
import { TextInput } from '../../../ui/TextInput'

export interface RegisterProps {
  readonly registry: SignerRegistry
  readonly state: AssociationState | null
  readonly onAppend: AppendUpdate
  readonly localNewest: (inboxId: string) => bigint | null
  readonly smartWallets?: SmartWalletVerifier
}

export function RegisterInstallation({ registry, state, onAppend, localNewest, smartWallets }: RegisterProps) {
  const id = useId()
  // The node service: publish, then QueryNewest until the update shows (IDENT-072).
  const node = useNodeService()
  const nodeUrl = node.url
  const queryClient = useQueryClient()
  const installations = registry.signers.filter(
    (s) => s.source === 'installation' && s.signer.kind === 'installation_key',
  )
  const authorizers = registry.signers.filter((s) => {
    if (s.identifier.kind === 'installation') return false
    if (!state) return true
    const k = memberKey(s.identifier)
    return state.members.has(k) || memberKey(state.recovery.id) === k
  })
  const [instRef, setInst] = useState('')
  const [authRef, setAuth] = useState('')
  const [nonce, setNonce] = useState('0')
  const [target, setTarget] = useState<'log' | 'node'>('log')
  // The ceiling is one setting of the page (also in the Settings dialog): a change there shows here at once.
  const savedCeiling = useCeiling()
  const [ceilingText, setCeilingText] = useState(() => String(savedCeiling))
  useEffect(() => {
    setCeilingText((t) => {
      const p = parseCeiling(t)
      return p.ok && p.value === savedCeiling ? t : String(savedCeiling)
    })
  }, [savedCeiling])
  const ceiling = parseCeiling(ceilingText)
  const [lines, setLines] = useState<string[]>([])
  const [outcome, setOutcome] = useState<{ ok: boolean; text: string } | null>(null)
  const [busy, setBusy] = useState(false)
  const [problem, setProblem] = useState<string | null>(null)
  const [prompt, setPrompt] = useState<PreAuthPrompt | null>(null)
  const gate = useMemo(() => createPreAuthGate(setPrompt), [])
  // A prompt left open when the panel closes is cancelled (IDENT-075: nothing is signed).
  useEffect(() => () => gate.cancel(), [gate])

  const inst = installations.find((s) => s.id === instRef) ?? installations[0] ?? null
  const auth = authorizers.find((s) => s.id === authRef) ?? authorizers[0] ?? null
  const parsedNonce = parseNonce(nonce)
  const inboxId = state
    ? state.inboxId
    : auth && parsedNonce.ok
      ? inboxIdOf(auth.identifier.text, parsedNonce.value)
      : null
  const isMember = !!(state && inst && state.members.has(memberKey(inst.identifier)))

  const newKey = async () => {
    setProblem(null)
    try {
      const s = await registry.newInstallationKey('this browser')
      setInst(s.id)
    } catch (e) {
      setProblem(`Could not create an installation key: ${e instanceof Error ? e.message : String(e)}`)
    }
  }

  const register = async () => {
    if (!inst || !auth || !ceiling.ok || !inboxId || (!state && !parsedNonce.ok)) return
    setBusy(true)
    setOutcome(null)
    setLines([])
    const log = (l: string) => setLines((xs) => [...xs, l])
    const client = createSigningClient({
      maxInstallations: ceiling.value,
      ...(smartWallets ? { smartWallets } : {}),
      preAuthenticate: gate.handler(
        () =>
          `Registering installation ${shortId(inst.identifier.text)} in inbox ${shortId(inboxId)}${state ? '' : ' (a new inbox)'}. Next, ${auth.label} will be asked to approve it, then this browser's installation key signs. Nothing has been signed yet.`,
      ),
    })
    const toLog = target === 'log'
    try {
      const result = await client.registerInstallation({
        state,
        installation: inst.signer as InstallationKeySigner,
        authorizer: auth.signer,
        ...(state ? {} : { nonce: parsedNonce.ok ? parsedNonce.value : 0n }),
        publish: async (bytes) => {
          if (toLog) {
            const r = await onAppend(bytes, { newLog: state === null, inboxId })
            if (!r.ok) throw new Error(r.message)
            log(`Appended to the open log as sequence id ${r.sequenceId}`)
            return { sequenceId: r.sequenceId }
          }
          const a = await node.publish.mutationFn({ bytes })
          if (a.kind !== 'stored') throw new Error(describePublishAnswer(a).text)
          log(`Stored by the node ${nodeUrl} with sequence id ${a.sequenceId}`)
          return { sequenceId: a.sequenceId }
        },
        queryNewest: async (inbox) => (toLog ? localNewest(inbox) : queryClient.fetchQuery(node.newest(inbox))),
        pollIntervalMs: toLog ? 200 : 500,
        timeoutMs: toLog ? 10_000 : 30_000,
        onProgress: (e: RegistrationProgress) => {
          const l = describeProgress(e)
          if (l) log(l)
        },
      })
      if (!toLog && result.signed) {
        const r = await onAppend(result.signed.bytes, { newLog: state === null, inboxId })
        log(
          r.ok
            ? `Appended to the open log as sequence id ${r.sequenceId}`
            : `Not appended to the open log: ${r.message}`,
        )
      }
      setOutcome({ ok: true, text: describeOutcome({ ok: true, result }) })
    } catch (error) {
      setOutcome({ ok: false, text: describeOutcome({ ok: false, error }) })
    } finally {
      setBusy(false)
    }
  }

  const disabled = busy || !inst || !auth || !ceiling.ok || !inboxId
  const why = !inst
    ? 'generate an installation key for this browser first'
    : !auth
      ? state
        ? 'no wallet, passkey or local key of this browser is a member or the recovery identifier of this inbox'
        : 'add a wallet, passkey or local key in Signers… to create the inbox with'
      : !ceiling.ok
        ? ceiling.problem
        : !inboxId
          ? parsedNonce.ok
            ? ''
            : parsedNonce.problem
          : ''
  return (
    <div className="compose-body" aria-labelledby={id} role="group">
      <h3 id={id}>Register this browser as an installation</h3>
      <p className="muted small">
        Adds this browser’s installation key to{' '}
        {state ? `inbox ${shortId(state.inboxId)}` : 'a new inbox, in the same update as its CreateInbox'}, signed by a
        wallet or passkey (the existing member) and by the key itself.
      </p>
      <div className="compose-form">
        <label className="compose-field">
          <span>Installation key</span>
          <select aria-label="Installation key" value={inst?.id ?? ''} onChange={(e) => setInst(e.target.value)}>
            {installations.length === 0 && <option value="">none yet</option>}
            {installations.map((s) => (
              <option key={s.id} value={s.id}>
                {s.label}
                {state?.members.has(memberKey(s.identifier)) ? ' (already a member)' : ''}
              </option>
            ))}
          </select>
        </label>
        <button type="button" onClick={() => void newKey()}>
          New installation key
        </button>
        <label className="compose-field">
          <span>Approved by</span>
          <select aria-label="Approved by" value={auth?.id ?? ''} onChange={(e) => setAuth(e.target.value)}>
            {authorizers.length === 0 && <option value="">no eligible signer</option>}
            {authorizers.map((s) => (
              <option key={s.id} value={s.id}>
                {s.label}
              </option>
            ))}
          </select>
        </label>
        {!state && (
          <label className="compose-field">
            <span>Nonce of the new inbox</span>
            <TextInput
              aria-label="Nonce of the new inbox"
              value={nonce}
              onValue={setNonce}
              size={12}
              inputMode="numeric"
            />
          </label>
        )}
        <fieldset className="compose-field">
          <legend>Send to</legend>
          <label>
            <input type="radio" name={`${id}-target`} checked={target === 'log'} onChange={() => setTarget('log')} />{' '}
            the open log
          </label>{' '}
          <label>
            <input type="radio" name={`${id}-target`} checked={target === 'node'} onChange={() => setTarget('node')} />{' '}
            the node {nodeUrl}
          </label>
        </fieldset>
        <label className="compose-field">
          <span>Installation ceiling (CONF-044)</span>
          <input
            aria-label="Installation ceiling"
            value={ceilingText}
            inputMode="numeric"
            size={5}
            aria-invalid={!ceiling.ok}
            onChange={(e) => {
              setCeilingText(e.target.value)
              const p = parseCeiling(e.target.value)
              if (p.ok) setCeiling(p.value)
            }}
          />
        </label>
      </div>
      {!ceiling.ok && (
        <p role="alert" className="bad small">
          {ceiling.problem}
        </p>
      )}
      {inboxId && (
        <p className="small">
          Inbox id: <code>{inboxId}</code>
          {isMember ? ' · this key is already a member: nothing needs signing (IDENT-074)' : ''}
        </p>
      )}
      {problem && (
        <p role="alert" className="bad">
          {problem}
        </p>
      )}
      <div className="row-buttons">
        <button type="button" className="primary" disabled={disabled} onClick={() => void register()}>
          Register this browser
        </button>
        {why && <span className="muted small">{why}</span>}
      </div>
      {lines.length > 0 && (
        <ol className="compose-log" aria-label="Registration steps">
          {lines.map((l, i) => (
            <li key={i}>{l}</li>
          ))}
        </ol>
      )}
      {outcome && (
        <p
          role={outcome.ok ? 'status' : 'alert'}
          aria-label="Registration result"
          className={outcome.ok ? 'ok' : 'bad'}
        >
          {outcome.text}
        </p>
      )}
      {prompt && <PreAuthDialog prompt={prompt} onConfirm={gate.confirm} onCancel={gate.cancel} />}
    </div>
  )
}

/** The app's own pre-authentication prompt (IDENT-076): a modal dialog; Escape or Cancel fails the handler. */
function PreAuthDialog({
  prompt,
  onConfirm,
  onCancel,
}: {
  prompt: PreAuthPrompt
  onConfirm: () => void
  onCancel: () => void
}) {
  const ref = useRef<HTMLDialogElement>(null)
  const titleId = useId()
  const textId = useId()
  // biome-ignore lint/correctness/useExhaustiveDependencies: a new prompt (its id) reopens the dialog
  useEffect(() => {
    const d = ref.current
    if (d && !d.open) d.showModal()
    return () => {
      if (d?.open) d.close()
    }
  }, [prompt.id])
  return (
    <dialog
      ref={ref}
      className="compose-dialog"
      aria-labelledby={titleId}
      aria-describedby={textId}
      onCancel={(e) => {
        e.preventDefault()
        onCancel()
      }}
    >
      <h3 id={titleId}>Before signing</h3>
      <p id={textId}>{prompt.message}</p>
      <div className="row-buttons">
        <button type="button" className="primary" onClick={onConfirm} autoFocus>
          Continue to signing
        </button>
        <button type="button" onClick={onCancel}>
          Cancel
        </button>
      </div>
    </dialog>
  )
}
