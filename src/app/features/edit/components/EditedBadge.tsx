import type { EditedMark } from '../../../trace/useInspector'

/** The header's mark of an edited copy: the badge (never absent on an edited log) and the way back. */
export function EditedBadge({
  mark,
  restorable,
  onRestore,
}: {
  mark: EditedMark
  /** Why the original cannot be reopened, or null. */
  restorable: string | null
  onRestore: () => void
}) {
  return (
    <>
      <span className="badge edited-badge" title={`An edited copy of ${mark.originalLabel}, not the original`}>
        edited
      </span>
      <button
        type="button"
        className="restore-original"
        onClick={onRestore}
        disabled={restorable !== null}
        title={restorable ?? `Open ${mark.originalLabel} again`}
      >
        Restore original
      </button>
    </>
  )
}
