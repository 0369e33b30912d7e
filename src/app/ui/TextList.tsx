/** Sentences as a labelled list (problems, warnings); nothing at all when there are none. */
export function TextList({
  items,
  className,
  label,
}: {
  readonly items: readonly string[]
  readonly className: string
  readonly label: string
}) {
  if (items.length === 0) return null
  return (
    <ul className={className} aria-label={label}>
      {items.map((t) => (
        <li key={t}>{t}</li>
      ))}
    </ul>
  )
}
