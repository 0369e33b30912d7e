/** The end of a small settings form: its submit button, Cancel when editing, and the form's problem. */
export function FormEnd({
  submitLabel,
  onCancel,
  problem,
}: {
  submitLabel: string
  onCancel?: (() => void) | undefined
  problem: string | null | undefined
}) {
  return (
    <>
      <button type="submit">{submitLabel}</button>
      {onCancel && (
        <button type="button" onClick={onCancel}>
          Cancel
        </button>
      )}
      {problem && (
        <span role="alert" className="bad">
          {problem}
        </span>
      )}
    </>
  )
}
