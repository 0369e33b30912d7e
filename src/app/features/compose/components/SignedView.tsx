/**
 * After signing: where the signed update went (appended to the open log and replayed, at
 * which sequence id), its exact bytes as hex and base64 (copy or download), and
 * "Publish to node" with the node's answer.
 */
import { useMutation } from '@tanstack/react-query'
import { useEffect, useId, useRef, useState } from 'react'
import { bytesToBase64, bytesToHex } from '../../../../crypto/bytes'
import { CopyButton } from '../../../ui/CopyButton'
import { download } from '../../../ui/download'
import { describePublishAnswer, type AnswerText } from '../publish-answer'
import { useNodeService } from '../../../model/node-service'
import type { SignedOutcome } from '../useSignDraft'

export function SignedView({
  outcome,
  onDismiss,
  autoPublish = false,
}: {
  outcome: SignedOutcome
  /** Publish as soon as the update is appended (the guided flows end on the node); the button stays for a retry. */
  autoPublish?: boolean
  onDismiss: () => void
}) {
  const id = useId()
  const { signed, appended, inboxId } = outcome
  const hex = bytesToHex(signed.bytes)
  const b64 = bytesToBase64(signed.bytes)
  const node = useNodeService()
  const nodeUrl = node.url
  const pub = useMutation(node.publish)
  const busy = pub.isPending
  const [answer, setAnswer] = useState<AnswerText | null>(null)
  // Once the node stored these bytes, publishing them again is pointless (the node would
  // replay them on top of themselves and refuse): the button says where they are.
  const [stored, setStored] = useState<bigint | null>(null)
  const seq = appended?.ok ? appended.sequenceId.toString() : 'new'
  const onPublish = async () => {
    if (stored !== null) return
    setAnswer(null)
    try {
      const a = await pub.mutateAsync({ bytes: signed.bytes, ...(inboxId ? { inboxId } : {}) })
      if (a.kind === 'stored') setStored(a.sequenceId)
      setAnswer(describePublishAnswer(a))
    } catch (e) {
      setAnswer({ tone: 'bad', text: `Not published: ${e instanceof Error ? e.message : String(e)}` })
    }
  }
  const published = useRef(false)
  const appendedOk = appended?.ok === true
  // biome-ignore lint/correctness/useExhaustiveDependencies: once per signed update, when it is appended
  useEffect(() => {
    if (!autoPublish || !appendedOk || published.current) return
    published.current = true
    void onPublish()
  }, [autoPublish, appendedOk])
  return (
    <section className="panel compose-signed" aria-labelledby={id}>
      <div className="panel-head">
        <h3 id={id}>Signed update</h3>
        <button type="button" className="link" onClick={onDismiss} aria-label="Dismiss the signed update">
          dismiss
        </button>
      </div>
      <p role="status" aria-label="Append result" className={appended === null ? '' : appended.ok ? 'ok' : 'bad'}>
        {signed.bytes.length} bytes, {signed.signatures.length} signature{signed.signatures.length === 1 ? '' : 's'}.{' '}
        {appended === null
          ? 'Appending to the log…'
          : appended.ok
            ? `Appended to the log as sequence id ${appended.sequenceId} and replayed; the timeline shows it selected.`
            : `Not appended: ${appended.message}`}
      </p>
      <div className="row-buttons">
        <CopyButton text={hex} what="signed update as hex" label="Copy hex" />
        <CopyButton text={b64} what="signed update as base64" label="Copy base64" />
        <button type="button" onClick={() => download(`signed-update-${seq}.hex`, `${hex}\n`, 'text/plain')}>
          Download hex
        </button>
        <button type="button" onClick={() => download(`signed-update-${seq}.b64`, `${b64}\n`, 'text/plain')}>
          Download base64
        </button>
        <button
          type="button"
          disabled={busy || stored !== null}
          onClick={() => void onPublish()}
          title={stored !== null ? `stored by ${nodeUrl}` : `POST the exact bytes to ${nodeUrl}`}
        >
          {busy ? 'Publishing…' : stored !== null ? `Stored by the node (sequence id ${stored})` : 'Publish to node'}
        </button>
      </div>
      <p className="muted small">
        The whole log, with this update, exports as a bundle from the Export bar above the details.
      </p>
      {busy && <p role="status">Publishing to {nodeUrl} and waiting until QueryNewest shows it (IDENT-072)…</p>}
      {answer && (
        <p role={answer.tone === 'bad' ? 'alert' : 'status'} aria-label="Node answer" className={answer.tone}>
          {answer.text}
        </p>
      )}
    </section>
  )
}
