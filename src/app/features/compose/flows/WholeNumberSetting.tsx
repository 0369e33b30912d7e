import { useEffect, useState } from 'react'

/**
 * A whole-number setting of the Settings dialog: saved as it is typed whenever it parses;
 * otherwise the problem is shown beside the value still in use. A value changed elsewhere
 * (the registration form's ceiling field) replaces the text.
 */
export function WholeNumberSetting({
  label,
  name,
  size,
  value,
  parse,
  onChange,
}: {
  label: string
  name: string
  size: number
  value: number
  parse: (text: string) => { ok: true; value: number } | { ok: false; problem: string }
  onChange: (n: number) => void
}) {
  const [text, setText] = useState(String(value))
  useEffect(() => {
    setText((t) => {
      const p = parse(t)
      return p.ok && p.value === value ? t : String(value)
    })
  }, [value, parse])
  const parsed = parse(text)
  return (
    <label className="compose-field log-limit-setting">
      <span>{label}</span>
      <input
        aria-label={name}
        inputMode="numeric"
        size={size}
        value={text}
        aria-invalid={!parsed.ok}
        onChange={(e) => {
          setText(e.target.value)
          const p = parse(e.target.value)
          if (p.ok) onChange(p.value)
        }}
      />
      {!parsed.ok && (
        <span role="alert" className="bad small">
          {parsed.problem}; still using {value}
        </span>
      )}
    </label>
  )
}
