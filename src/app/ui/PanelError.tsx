/**
 * What a view shows in its place when it could not be shown or loaded: what failed, why,
 * and a button that tries again. The error boundary (./ErrorBoundary.tsx) shows it for a
 * view that threw; the lazy layers (../providers.tsx) for a chunk that failed to load.
 */
export function PanelError({
  title,
  message,
  onRetry,
}: {
  /** What failed, as a sentence ("Settings could not be shown."). */
  readonly title: string
  readonly message: string
  readonly onRetry: () => void
}) {
  return (
    <div className="panel-error" role="alert">
      <strong>{title}</strong> <span>{message}</span>{' '}
      <button type="button" onClick={onRetry}>
        Try again
      </button>
    </div>
  )
}
