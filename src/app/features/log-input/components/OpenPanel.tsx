import { memo, useRef, useState, type DragEvent, type ReactNode } from 'react'
import type { Example } from '../gallery'
import { EXAMPLES } from '../gallery-list'
import { TextInput } from '../../../ui/TextInput'

export interface OpenPanelProps {
  readonly onPaste: (text: string) => void
  readonly onFile: (file: File) => void
  readonly onUrl: (url: string) => void
  readonly onExample: (ex: Example) => void
  readonly current?: string | undefined
  readonly onClose?: (() => void) | undefined
  /** The "From a node" section (features/network, composed by the shell). */
  readonly fromNode?: ReactNode
  /** Why the last input could not be opened, shown under the heading while the panel is a drawer over the log. */
  readonly problem?: ReactNode
  /** The user typed or picked something here: what the app is loading by itself gives way. */
  readonly onIntent?: (() => void) | undefined
}

/** Every way to open a log: paste, file (open or drop), URL, from a node, and the gallery. */
export const OpenPanel = memo(function OpenPanel({
  onPaste,
  onFile,
  onUrl,
  onExample,
  current,
  onClose,
  fromNode,
  problem,
  onIntent,
}: OpenPanelProps) {
  const [text, setText] = useState('')
  const [url, setUrl] = useState('')
  const [over, setOver] = useState(false)
  const fileRef = useRef<HTMLInputElement>(null)
  const drop = (e: DragEvent) => {
    e.preventDefault()
    setOver(false)
    const f = e.dataTransfer.files[0]
    if (f) onFile(f)
  }
  const valid = EXAMPLES.filter((e) => e.ok)
  const rejected = EXAMPLES.filter((e) => !e.ok)
  return (
    <section className="open-panel" aria-labelledby="open-title" onInput={onIntent}>
      <div className="open-head">
        <h2 id="open-title">Open a log</h2>
        {onClose && (
          <button type="button" onClick={onClose} aria-label="Close the open panel">
            Close
          </button>
        )}
      </div>
      {problem}
      <div className="open-grid">
        <div className="open-paste">
          <label htmlFor="paste">
            Paste: log bundle JSON, GetIdentityUpdatesResponse (proto3 JSON), or an update / response as hex or base64
          </label>
          <textarea
            id="paste"
            value={text}
            spellCheck={false}
            placeholder='{"inbox_id": "…", "updates": [{"sequence_id": "1", "update_hex": "0a…"}]}'
            onChange={(e) => setText(e.target.value)}
            onKeyDown={(e) => {
              if (e.key === 'Enter' && (e.ctrlKey || e.metaKey) && text.trim()) onPaste(text)
            }}
            onPaste={(e) => {
              const pasted = e.clipboardData.getData('text')
              if (pasted.trim() && !text.trim()) {
                setText(pasted)
                e.preventDefault()
                onPaste(pasted)
              }
            }}
          />
          <div className="row-buttons">
            <button type="button" className="primary" disabled={!text.trim()} onClick={() => onPaste(text)}>
              Open pasted log
            </button>
            <button type="button" disabled={!text} onClick={() => setText('')}>
              Clear
            </button>
            <span className="hint">Ctrl+Enter opens; the format is detected.</span>
          </div>
        </div>
        <div className="open-side">
          <div
            className={`dropzone${over ? ' over' : ''}`}
            onDragOver={(e) => {
              e.preventDefault()
              setOver(true)
            }}
            onDragLeave={() => setOver(false)}
            onDrop={drop}
          >
            <p>Drop a log file here (binary protobuf, JSON, CSV, hex or base64 text)</p>
            <input
              ref={fileRef}
              type="file"
              aria-label="Open a log file"
              onChange={(e) => {
                const f = e.target.files?.[0]
                if (f) onFile(f)
                e.target.value = ''
              }}
            />
          </div>
          <form
            className="open-url"
            onSubmit={(e) => {
              e.preventDefault()
              if (url.trim()) onUrl(url.trim())
            }}
          >
            <label htmlFor="open-url">From a URL (kept in the address bar as ?url=)</label>
            <div className="row-buttons">
              <TextInput id="open-url" type="url" value={url} placeholder="https://…/log.json" onValue={setUrl} />
              <button type="submit" disabled={!url.trim()}>
                Open URL
              </button>
            </div>
          </form>
        </div>
      </div>
      {fromNode}
      <h3 id="gallery-title">Examples</h3>
      <div className="gallery" role="list" aria-labelledby="gallery-title">
        {[...valid, ...rejected].map((ex) => (
          <div role="listitem" key={ex.name} className={`example${current === ex.name ? ' current' : ''}`}>
            <button
              type="button"
              className="example-open"
              onClick={() => onExample(ex)}
              aria-label={`Open example ${ex.name}`}
            >
              <span className={`badge ${ex.ok ? 'ok' : 'bad'}`}>{ex.ok ? 'valid' : 'rejected'}</span>{' '}
              <span className="example-name">{ex.name}</span>
            </button>
            <p className="example-desc">{ex.description}</p>
          </div>
        ))}
      </div>
    </section>
  )
})
