import { memo, useEffect, useMemo, useState } from 'react'
import { encodeBundleJson } from '../../../core/encode/bundle'
import { bytesToBase64, bytesToHex } from '../../../crypto/bytes'
import type { TransferStep } from '../../../worker/transfer'
import { download } from '../../ui/download'

export interface ExportsProps {
  readonly steps: readonly TransferStep[]
  readonly inboxId: string | null
  readonly selected: TransferStep | null
  /** The command line's report, which comes from the replay worker right after the log is shown. */
  readonly report: Promise<string>
  /** Base name for the files, e.g. the example or file name without extension. */
  readonly base: string
}

/** The log as bundle JSON, the selected update as hex and base64, the report as JSON. */
export const Exports = memo(function Exports({ steps, inboxId, selected, report, base }: ExportsProps) {
  const withBytes = useMemo(() => steps.filter((s) => s.bytes), [steps])
  const missing = steps.length - withBytes.length
  const seq = selected?.sequenceId.toString() ?? ''
  const reportText = useSettled(report)
  return (
    <div className="exports" role="group" aria-label="Exports">
      <span className="muted">Export</span>
      <button
        type="button"
        onClick={() =>
          download(
            `${base}.bundle.json`,
            encodeBundleJson({
              ...(inboxId ? { inboxId } : {}),
              updates: withBytes.map((s) => ({ sequenceId: s.sequenceId, bytes: s.bytes! })),
            }),
            'application/json',
          )
        }
        title={
          missing ? `${missing} update(s) without bytes are left out` : 'The log as a log bundle (exact update bytes)'
        }
      >
        Bundle JSON
      </button>
      <button
        type="button"
        disabled={!selected?.bytes}
        onClick={() => download(`${base}.update-${seq}.hex`, `${bytesToHex(selected!.bytes!)}\n`, 'text/plain')}
        aria-label={`Selected update ${seq} as hex`}
      >
        Update hex
      </button>
      <button
        type="button"
        disabled={!selected?.bytes}
        onClick={() => download(`${base}.update-${seq}.b64`, `${bytesToBase64(selected!.bytes!)}\n`, 'text/plain')}
        aria-label={`Selected update ${seq} as base64`}
      >
        Update base64
      </button>
      <button
        type="button"
        disabled={reportText?.text === undefined}
        onClick={() =>
          reportText?.text !== undefined && download(`${base}.report.json`, reportText.text, 'application/json')
        }
        title={
          reportText === null
            ? 'Preparing the report…'
            : reportText.text === undefined
              ? `The report could not be made: ${reportText.error}`
              : 'The report the command line prints (replay --json)'
        }
      >
        Report JSON
      </button>
    </div>
  )
})

/** What `p` settled to: null while pending (a new promise starts pending again). */
function useSettled(
  p: Promise<string>,
):
  | { readonly text: string; readonly error?: undefined }
  | { readonly text?: undefined; readonly error: string }
  | null {
  const [settled, setSettled] = useState<{ p: Promise<string>; text?: string; error?: string } | null>(null)
  useEffect(() => {
    let live = true
    p.then(
      (text) => live && setSettled({ p, text }),
      (e: unknown) => live && setSettled({ p, error: e instanceof Error ? e.message : String(e) }),
    )
    return () => {
      live = false
    }
  }, [p])
  if (settled?.p !== p) return null
  return settled.text !== undefined ? { text: settled.text } : { error: settled.error ?? 'unknown error' }
}
