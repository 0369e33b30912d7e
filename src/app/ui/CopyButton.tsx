import { useState } from 'react'

/** A small button that copies `text` (or what `text()` gives when pressed), named for what it copies. */
export function CopyButton({
  text,
  what,
  label = 'copy',
}: {
  text: string | (() => string)
  what: string
  label?: string
}) {
  const [state, setState] = useState<'idle' | 'copied' | 'failed'>('idle')
  const copy = () => {
    const done = (s: 'copied' | 'failed') => {
      setState(s)
      setTimeout(() => setState('idle'), 1500)
    }
    if (!navigator.clipboard) return done('failed')
    navigator.clipboard.writeText(typeof text === 'function' ? text() : text).then(
      () => done('copied'),
      () => done('failed'),
    )
  }
  return (
    <button type="button" className="copy" onClick={copy} aria-label={`Copy ${what}`} title={`Copy ${what}`}>
      {state === 'copied' ? 'copied' : state === 'failed' ? 'copy failed' : label}
    </button>
  )
}
