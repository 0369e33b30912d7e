/** What the signers panel's sections share: the kind tag, one action at a time, its outcome, a confirm button. */
import { useState, type FormEvent, type ReactNode } from 'react'
import type { AppSignerSource } from '../../../model/app-signer'
import { SOURCE_LABEL } from '../app-signers'
import { TextInput } from '../../../ui/TextInput'

export const errorText = (e: unknown): string => (e instanceof Error ? e.message : String(e))

export const IP_HOST = /^(\d{1,3}(\.\d{1,3}){3}|\[[0-9a-f:]+\])$/i

export function Kind({ source }: { source: AppSignerSource }) {
  return <span className="kind-tag">{SOURCE_LABEL[source]}</span>
}

/** Runs one action at a time for a section and keeps its outcome. */
export function useAction() {
  const [busy, setBusy] = useState<string | null>(null)
  const [error, setError] = useState<string | null>(null)
  const [done, setDone] = useState<string | null>(null)
  const run = async (name: string, f: () => Promise<string | void>) => {
    setBusy(name)
    setError(null)
    setDone(null)
    try {
      const msg = await f()
      if (msg) setDone(msg)
    } catch (e) {
      setError(errorText(e))
    } finally {
      setBusy(null)
    }
  }
  return { busy, error, done, run, setError, clear: () => (setError(null), setDone(null)) }
}

type Action = ReturnType<typeof useAction>

interface FieldProps {
  id: string
  label: string
  value: string
  onChange: (value: string) => void
  placeholder: string
}

/** A labelled name field: at most 64 characters. */
export function NameField({ id, label, value, onChange, placeholder }: FieldProps) {
  return (
    <>
      <label htmlFor={id}>{label}</label>
      <TextInput id={id} value={value} onValue={onChange} placeholder={placeholder} maxLength={64} autoComplete="off" />
    </>
  )
}

/** A labelled hex field: monospace, `size` characters wide, no spell check. */
export function HexField({ id, label, value, onChange, placeholder, size }: FieldProps & { size: number }) {
  return (
    <>
      <label htmlFor={id}>{label}</label>
      <TextInput
        id={id}
        className="mono"
        value={value}
        onValue={onChange}
        placeholder={placeholder}
        size={size}
        spellCheck={false}
        autoComplete="off"
      />
    </>
  )
}

/** A form of one name field and a submit button: `make` runs as the section's action `verb` and the name is cleared once it succeeds. */
export function NameForm({
  a,
  verb,
  make,
  name,
  setName,
  disabled,
  children,
  ...field
}: Omit<FieldProps, 'value' | 'onChange'> & {
  a: Action
  verb: string
  make: (name: string) => Promise<string>
  name: string
  setName: (name: string) => void
  disabled: boolean
  children: ReactNode
}) {
  const submit = (e: FormEvent) => {
    e.preventDefault()
    void a.run(verb, async () => {
      const done = await make(name)
      setName('')
      return done
    })
  }
  return (
    <form className="row-buttons" onSubmit={submit}>
      <NameField {...field} value={name} onChange={setName} />
      <button type="submit" disabled={a.busy !== null || disabled}>
        {children}
      </button>
    </form>
  )
}

export function Outcome({ error, done, label }: { error: string | null; done: string | null; label: string }) {
  return (
    <>
      {error && (
        <p className="signers-error" role="alert" aria-label={`${label}: error`}>
          {error}
        </p>
      )}
      {done && (
        <p className="signers-done" role="status" aria-label={`${label}: done`}>
          {done}
        </p>
      )}
    </>
  )
}

/** A button that asks first: the question and the confirming button appear beside it. */
export function ConfirmButton({
  label,
  name,
  question,
  confirm,
  onConfirm,
  danger = true,
}: {
  label: string
  name: string
  question: ReactNode
  confirm: string
  onConfirm: () => void
  danger?: boolean
}) {
  const [asking, setAsking] = useState(false)
  if (!asking)
    return (
      <button type="button" onClick={() => setAsking(true)} aria-label={name}>
        {label}
      </button>
    )
  return (
    <div className="signers-confirm" role="group" aria-label={name}>
      <p>{question}</p>
      <div className="row-buttons">
        <button
          type="button"
          className={danger ? 'danger' : 'primary'}
          autoFocus
          onClick={() => {
            setAsking(false)
            onConfirm()
          }}
        >
          {confirm}
        </button>
        <button type="button" onClick={() => setAsking(false)}>
          Cancel
        </button>
      </div>
    </div>
  )
}
