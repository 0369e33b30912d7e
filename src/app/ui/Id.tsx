import { CopyButton } from './CopyButton'
import { shortId } from './format'

/** An identifier in its short form, the full text on hover and a copy button. */
export function Id({ text, what = 'identifier', copy = true }: { text: string; what?: string; copy?: boolean }) {
  return (
    <span className="id">
      <code title={text}>{shortId(text)}</code>
      {copy && <CopyButton text={text} what={`${what} ${shortId(text)}`} />}
    </span>
  )
}
