/** A drawer's heading, with its Close button when the drawer can close. */
export function PanelHead({
  id,
  title,
  closeLabel,
  onClose,
}: {
  /** The heading's id: the drawer's section is labelled by it. */
  id: string
  title: string
  closeLabel: string
  onClose?: (() => void) | undefined
}) {
  return (
    <div className="open-head">
      <h2 id={id}>{title}</h2>
      {onClose && (
        <button type="button" onClick={onClose} aria-label={closeLabel}>
          Close
        </button>
      )}
    </div>
  )
}
