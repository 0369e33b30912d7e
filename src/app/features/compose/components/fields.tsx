/** The composer's and the inbox tasks' form fields: a party to sign, new signers, a handle, a new recovery identifier. */
import { useState } from 'react'
import type { SignerRegistry } from '../../../model/app-signer'
import { TYPED } from '../compose-form'
import type { Party } from '../parties'
import { TextInput } from '../../../ui/TextInput'

export function PartySelect({
  label,
  ariaLabel = label,
  value,
  parties,
  onChange,
  empty,
}: {
  label: string
  /** The select's accessible name, when shorter than its label. */
  ariaLabel?: string
  value: string
  parties: readonly Party[]
  onChange: (ref: string) => void
  empty: string
}) {
  return (
    <label className="compose-field">
      <span>{label}</span>
      <select
        aria-label={ariaLabel}
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

export function NewSignerButtons({
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

/** The handle to claim (IDENT-078). */
export function HandleField({ value, onChange }: { value: string; onChange: (handle: string) => void }) {
  return (
    <label className="compose-field">
      <span>Handle</span>
      <TextInput
        aria-label="Handle to claim"
        value={value}
        onValue={onChange}
        spellCheck={false}
        autoCapitalize="off"
        size={34}
        placeholder="nick or nick#2341"
      />
    </label>
  )
}

/** A new recovery identifier: one of `targets`, or one typed with its kind (IDENT-045). */
export function RecoveryTargetFields({
  targets,
  target,
  onTarget,
  typedKind,
  onTypedKind,
  typed,
  onTyped,
}: {
  targets: readonly Party[]
  /** A party ref, or TYPED. */
  target: string
  onTarget: (ref: string) => void
  typedKind: 'ethereum' | 'passkey'
  onTypedKind: (kind: 'ethereum' | 'passkey') => void
  typed: string
  onTyped: (text: string) => void
}) {
  return (
    <>
      <label className="compose-field">
        <span>New recovery identifier</span>
        <select aria-label="New recovery identifier" value={target} onChange={(e) => onTarget(e.target.value)}>
          {!targets.some((x) => x.ref === target) && target !== TYPED && <option value="">choose…</option>}
          {targets.map((x) => (
            <option key={x.ref} value={x.ref}>
              {x.label}
            </option>
          ))}
          <option value={TYPED}>type an identifier…</option>
        </select>
      </label>
      {target === TYPED && (
        <>
          <label className="compose-field">
            <span>Kind</span>
            <select
              aria-label="Kind of the typed recovery identifier"
              value={typedKind}
              onChange={(e) => onTypedKind(e.target.value as 'ethereum' | 'passkey')}
            >
              <option value="ethereum">Ethereum address</option>
              <option value="passkey">Passkey key (hex)</option>
            </select>
          </label>
          <label className="compose-field">
            <span>Identifier</span>
            <TextInput
              aria-label="Typed recovery identifier"
              value={typed}
              onValue={onTyped}
              size={44}
              spellCheck={false}
            />
          </label>
        </>
      )}
    </>
  )
}
