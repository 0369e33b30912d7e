import type { InputHTMLAttributes } from 'react'

/**
 * A text input that hands its new value to `onValue` rather than the change event: the one
 * shape of the app's form fields (every other attribute passes through as it is).
 */
export function TextInput({
  onValue,
  ...input
}: Omit<InputHTMLAttributes<HTMLInputElement>, 'onChange' | 'value'> & {
  readonly value: string
  readonly onValue: (value: string) => void
}) {
  return <input {...input} onChange={(e) => onValue(e.target.value)} />
}
