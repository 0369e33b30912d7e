import { memo, useMemo } from 'react'
import { encodeBundleJson } from '../../../core/encode/bundle'
import { bytesToBase64, bytesToHex } from '../../../crypto/bytes'
import type { TransferStep } from '../../../worker/transfer'
import { download } from '../../ui/download'
import { useSettled } from '../../ui/useSettled'

export interface ExportsProps {
  readonly steps: readonly TransferStep[]
  readonly inboxId: string | null
  readonly selected: TransferStep | null
  /** The command line's report, which comes from the replay worker right after the log is shown. */
  readonly report: Promise<string>
  /** Base name for the files, e.g. the example or file name without extension. */
  readonly base: string
}

/** The selected update's bytes as text files. */
const UPDATE_TEXTS = [
  { ext: 'hex', name: 'hex', label: 'Update hex', text: bytesToHex },
  { ext: 'b64', name: 'base64', label: 'Update base64', text: bytesToBase64 },
] as const

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
      {UPDATE_TEXTS.map(({ ext, name, label, text }) => (
        <button
          key={ext}
          type="button"
          disabled={!selected?.bytes}
          onClick={() => download(`${base}.update-${seq}.${ext}`, `${text(selected!.bytes!)}\n`, 'text/plain')}
          aria-label={`Selected update ${seq} as ${name}`}
        >
          {label}
        </button>
      ))}
      <button
        type="button"
        disabled={!reportText?.ok}
        onClick={() => reportText?.ok && download(`${base}.report.json`, reportText.value, 'application/json')}
        title={
          reportText === null
            ? 'Preparing the report…'
            : reportText.ok
              ? 'The report the command line prints (replay --json)'
              : `The report could not be made: ${reportText.error}`
        }
      >
        Report JSON
      </button>
    </div>
  )
})
