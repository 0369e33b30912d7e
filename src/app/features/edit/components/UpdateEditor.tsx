/**
 * Edits of the selected update: drop, duplicate or move it, set one field of its decoded
 * structure, remove an action, replace its raw bytes, and re-sign it with the keys this
 * browser holds. Each goes through the session (the core's applyEdits); a failure is
 * shown by the drawer, naming the operation and why.
 */
import { useId, useMemo, useState } from 'react'
import type { EditOp } from '../../../../core/encode/edit'
import type { SignatureCheck } from '../../../../core/trace'
import { bytesToHex, hexToBytes } from '../../../../crypto/bytes'
import type { Signer } from '../../../../signing/signers'
import type { TransferStep } from '../../../../worker/transfer'
import { editableFields, fieldValue } from '../fields'
import { resign } from '../resign'
import { decoded } from '../session'
import type { EditResult } from '../useEditSession'
import { TextInput } from '../../../ui/TextInput'

export interface UpdateEditorProps {
  readonly step: TransferStep
  /** The update's signature checks in the original log (whom each signature stood for). */
  readonly original: readonly SignatureCheck[]
  readonly held: readonly Signer[]
  readonly busy: boolean
  readonly apply: (what: string, ops: readonly EditOp[], focus?: bigint) => Promise<EditResult>
  readonly fail: (message: string) => void
}

const SEQ = /^(0|[1-9][0-9]{0,19})$/

/** The edits that take the new sequence id typed beside them. */
const TO_OPS = [
  { op: 'move', label: 'Move', verb: 'to' },
  { op: 'duplicate', label: 'Duplicate', verb: 'as' },
] as const

export function UpdateEditor({ step, original, held, busy, apply, fail }: UpdateEditorProps) {
  const id = useId()
  const seq = step.sequenceId
  const update = useMemo(() => decoded(step.bytes), [step.bytes])
  const fields = useMemo(() => (update ? editableFields(update) : []), [update])
  const [to, setTo] = useState('')
  const [fieldIx, setFieldIx] = useState(0)
  const field = fields[Math.min(fieldIx, fields.length - 1)]
  const [value, setValue] = useState<{ key: string; text: string } | null>(null)
  const fieldKey = `${seq}:${field?.path.join('/') ?? ''}`
  const text = value?.key === fieldKey ? value.text : (field?.value ?? '')
  const [hex, setHex] = useState<{ seq: bigint; text: string } | null>(null)
  const hexText = hex?.seq === seq ? hex.text : step.bytes ? bytesToHex(step.bytes) : ''

  const target = (what: string): bigint | null => {
    if (!SEQ.test(to.trim())) {
      fail(`${what} sequence id ${seq}: the new sequence id must be a decimal number, not ${JSON.stringify(to)}`)
      return null
    }
    return BigInt(to.trim())
  }

  return (
    <section className="update-editor" aria-labelledby={`${id}-h`}>
      <h3 id={`${id}-h`}>Edit sequence id {seq.toString()}</h3>
      <div className="row-buttons">
        <button
          type="button"
          disabled={busy}
          onClick={() => void apply(`drop sequence id ${seq}`, [{ op: 'drop', seq }])}
        >
          Drop update
        </button>
        <label htmlFor={`${id}-to`}>New sequence id</label>
        <TextInput id={`${id}-to`} value={to} onValue={setTo} inputMode="numeric" size={8} />
        {TO_OPS.map(({ op, label, verb }) => (
          <button
            key={op}
            type="button"
            disabled={busy}
            onClick={() => {
              const t = target(label)
              if (t !== null) void apply(`${op} sequence id ${seq} ${verb} ${t}`, [{ op, seq, to: t }], t)
            }}
          >
            {label}
          </button>
        ))}
      </div>
      {update ? (
        <form
          className="compose-form"
          aria-label={`Set a field of sequence id ${seq}`}
          onSubmit={(e) => {
            e.preventDefault()
            if (!field) return
            const what = `set ${field.label} of sequence id ${seq}`
            void apply(what, [{ op: 'set', seq, path: field.path, value: fieldValue(field, text) }], seq)
          }}
        >
          <label className="compose-field">
            Field
            <select value={Math.min(fieldIx, fields.length - 1)} onChange={(e) => setFieldIx(Number(e.target.value))}>
              {fields.map((f, k) => (
                <option key={f.path.join('/')} value={k}>
                  {f.label}
                </option>
              ))}
            </select>
          </label>
          <label className="compose-field grow">
            Value
            <input
              value={text}
              onChange={(e) => setValue({ key: fieldKey, text: e.target.value })}
              spellCheck={false}
            />
          </label>
          <button type="submit" disabled={busy}>
            Set field
          </button>
        </form>
      ) : (
        <p className="muted">
          The update does not decode, so only its bytes, its place and its sequence id can be edited.
        </p>
      )}
      {update && update.actions.length > 0 && (
        <ol className="edit-actions" aria-label="Actions of the update" start={0}>
          {update.actions.map((a, i) => {
            const n = update.actions.length
            const op = (what: string, edit: EditOp) => void apply(`${what} of sequence id ${seq}`, [edit], seq)
            return (
              <li key={i}>
                <span className="mono">
                  action {i} · {a.kind}
                </span>{' '}
                <span className="row-buttons" role="group" aria-label={`Action ${i} (${a.kind})`}>
                  <button
                    type="button"
                    disabled={busy || i === 0}
                    aria-label={`Move action ${i} up`}
                    onClick={() => op(`move action ${i} up`, { op: 'move-action', seq, from: i, to: i - 1 })}
                  >
                    ↑
                  </button>
                  <button
                    type="button"
                    disabled={busy || i === n - 1}
                    aria-label={`Move action ${i} down`}
                    onClick={() => op(`move action ${i} down`, { op: 'move-action', seq, from: i, to: i + 1 })}
                  >
                    ↓
                  </button>
                  <button
                    type="button"
                    disabled={busy}
                    aria-label={`Copy action ${i}`}
                    title="A copy of this action right after it"
                    onClick={() => op(`copy action ${i}`, { op: 'copy-action', seq, from: i, to: i + 1 })}
                  >
                    Copy
                  </button>
                  {n > 1 && (
                    <button
                      type="button"
                      disabled={busy}
                      onClick={() => op(`remove action ${i}`, { op: 'remove', seq, path: ['actions', i] })}
                    >
                      Remove action {i} ({a.kind})
                    </button>
                  )}
                </span>
              </li>
            )
          })}
        </ol>
      )}
      <form
        className="compose-form"
        aria-label={`Raw bytes of sequence id ${seq}`}
        onSubmit={(e) => {
          e.preventDefault()
          const body = hexText.trim().replace(/^0x/i, '').replace(/\s+/g, '')
          const what = `replace the bytes of sequence id ${seq}`
          if (body.length % 2 !== 0 || !/^[0-9a-fA-F]*$/.test(body)) {
            fail(`${what}: the bytes must be hex (pairs of 0-9, a-f), which this text is not`)
            return
          }
          void apply(what, [{ op: 'set-bytes', seq, bytes: hexToBytes(body.toLowerCase()) }], seq)
        }}
      >
        <label className="compose-field grow">
          Raw bytes (hex)
          <textarea
            rows={3}
            value={hexText}
            spellCheck={false}
            onChange={(e) => setHex({ seq, text: e.target.value })}
          />
        </label>
        <button type="submit" disabled={busy}>
          Replace bytes
        </button>
      </form>
      <div className="row-buttons">
        <button
          type="button"
          disabled={busy || !update}
          onClick={async () => {
            if (!update) return
            const what = `re-sign sequence id ${seq}`
            try {
              const r = await resign(seq, update, original, held)
              if (!r.ok) fail(`${what}: ${r.reason}`)
              else await apply(`${what} (${r.signed.join('; ')})`, r.ops, seq)
            } catch (e) {
              fail(`${what}: ${e instanceof Error ? e.message : String(e)}`)
            }
          }}
        >
          Re-sign with this browser’s keys
        </button>
        <span className="muted small">
          Signs the update’s new text again with the local keys (Signers…) of the parties its signatures stand for.
        </span>
      </div>
    </section>
  )
}
