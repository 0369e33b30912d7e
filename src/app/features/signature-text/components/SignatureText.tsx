import type { KeyboardEvent } from 'react'
import { actionLineRange } from '../../../../core/text/signature-text'
import { partKey, partOfTextLine, samePart, useLinked } from '../../../model/linked'
import { CopyButton } from '../../../ui/CopyButton'
import { linkHandlers } from '../../../ui/Linked'

const enc = new TextEncoder()

/**
 * The signature text exactly as signed, the selected action's two lines highlighted. Its
 * lines are linked to the other views (src/app/model/linked.ts): pointing at an action's
 * lines, the inbox id or the time marks the same part in the signature cards and the raw
 * bytes; clicking an action's lines (or Enter on its first line) selects that action.
 */
export function SignatureText({
  text,
  actionIndex,
  bytesSource,
}: {
  text: string | null
  actionIndex: number
  bytesSource?: string | undefined
}) {
  const linked = useLinked()
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
  // 7 fixed lines (header, inbox id, time, footer and three blank ones) and two per action.
  const actions = Math.max(0, Math.floor((lines.length - 7) / 2))
  const bytes = enc.encode(text).length
  const handlers = linkHandlers(linked)
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
      <pre className="sigtext-body" aria-label="Signature text as signed" {...handlers}>
        {lines.map((l, n) => {
          const part = partOfTextLine(n, actions)
          const action = part?.kind === 'action' ? part.index : -1
          const first = action >= 0 && actionLineRange(action)[0] === n
          const cls = `line${n >= a && n <= b ? ' hl' : ''}${samePart(linked.hover, part) ? ' linked' : ''}${action >= 0 ? ' pick' : ''}`
          return (
            <span
              key={n}
              className={cls}
              data-part={part ? partKey(part) : undefined}
              onClick={action >= 0 ? () => linked.selectAction(action) : undefined}
              {...(first
                ? {
                    role: 'button',
                    tabIndex: 0,
                    title: `Select action ${action}`,
                    onKeyDown: (e: KeyboardEvent) => {
                      if (e.key !== 'Enter' && e.key !== ' ') return
                      e.preventDefault()
                      linked.selectAction(action)
                    },
                  }
                : {})}
            >
              <span className="ln" aria-hidden="true">
                {n + 1}
              </span>
              <span className="lt">{l === '' ? '\u200b' : l}</span>
              {'\n'}
            </span>
          )
        })}
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
