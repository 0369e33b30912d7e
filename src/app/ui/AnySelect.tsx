/** A filter's labelled select: "any" (null), then each of `values` by name. */
export function AnySelect<T extends string>({
  label,
  value,
  values,
  onChange,
}: {
  readonly label: string
  readonly value: T | null
  readonly values: readonly T[]
  readonly onChange: (value: T | null) => void
}) {
  return (
    <label>
      {label}
      <select value={value ?? ''} onChange={(e) => onChange((e.target.value || null) as T | null)}>
        <option value="">any</option>
        {values.map((v) => (
          <option key={v} value={v}>
            {v}
          </option>
        ))}
      </select>
    </label>
  )
}
