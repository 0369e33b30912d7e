import { actionLineRange } from '../../../../core/text/signature-text'
import { CopyButton } from '../../../ui/CopyButton'

const enc = new TextEncoder()

/** The signature text exactly as signed, the selected action's two lines highlighted. */
export function SignatureText({
  text,
  actionIndex,
  bytesSource,
}: {
  text: string | null
  actionIndex: number
  bytesSource?: string | undefined
}) {
  if (text === null) {
    return (
      <section className="panel sigtext" aria-labelledby="sigtext-title">
        <h2 id="sigtext-title">Signature text</h2>
        <p className="empty">
          No signature text: the update could not be decoded (IDENT-001), so there is nothing that was signed to show.
        </p>
      </section>
    )
  }
  const lines = text.split('\n')
  const [a, b] = actionIndex >= 0 ? actionLineRange(actionIndex) : [-1, -1]
  const bytes = enc.encode(text).length
  return (
    <section className="panel sigtext" aria-labelledby="sigtext-title">
      <div className="panel-head">
        <h2 id="sigtext-title">Signature text</h2>
        <CopyButton text={text} what="signature text" />
      </div>
      <p className="caption">
        <strong className="byte-length">{bytes} bytes</strong> UTF-8 · {lines.length} lines
        {actionIndex >= 0 ? ` · lines ${a + 1}–${b + 1} are action ${actionIndex}` : ''}
      </p>
      <pre className="sigtext-body" aria-label="Signature text as signed">
        {lines.map((l, n) => (
          <span key={n} className={`line${n >= a && n <= b ? ' hl' : ''}`}>
            <span className="ln" aria-hidden="true">
              {n + 1}
            </span>
            <span className="lt">{l === '' ? '\u200b' : l}</span>
            {'\n'}
          </span>
        ))}
      </pre>
      <p className="muted small">
        Built by the validator from the update&apos;s own inbox_id, client_timestamp_ns and actions (IDENT-020); lines
        end with a single line feed, none after the last.
        {bytesSource === 'canonical-encoding' &&
          ' This log is proto3 JSON, which carries no bytes: the update bytes are the canonical encoding of the parsed message.'}
      </p>
    </section>
  )
}
