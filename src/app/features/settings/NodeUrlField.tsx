/** The node URL setting: a field, Save, and Reset to the local node. */
import { useEffect, useState, type FormEvent } from 'react'
import { defaultNodeUrl, LOCAL_NODE_URL, nodeUrlProblem } from './node-url'

export function NodeUrlField({ url, onChange }: { url: string; onChange: (url: string | null) => void }) {
  const [draft, setDraft] = useState(url)
  const [problem, setProblem] = useState<string | null>(null)
  useEffect(() => setDraft(url), [url])
  const submit = (e: FormEvent) => {
    e.preventDefault()
    const v = draft.trim().replace(/\/+$/, '')
    const p = nodeUrlProblem(v)
    setProblem(p)
    if (!p) onChange(v)
  }
  return (
    <form
      className="node-url"
      onSubmit={submit}
      aria-label="Node settings"
      style={{ display: 'flex', flexWrap: 'wrap', gap: '0.4rem', alignItems: 'center', maxWidth: '100%' }}
    >
      <label>
        Node URL{' '}
        <input
          type="url"
          value={draft}
          onChange={(e) => setDraft(e.target.value)}
          aria-label="Node URL"
          size={32}
          style={{ maxWidth: '100%', minWidth: 0, boxSizing: 'border-box' }}
        />
      </label>{' '}
      <button type="submit">Save</button>{' '}
      <button type="button" onClick={() => onChange(null)} disabled={url === defaultNodeUrl()}>
        Use the local node
      </button>
      {!LOCAL_NODE_URL && (
        <span className="muted small"> (no local node was started with the app; default {defaultNodeUrl()})</span>
      )}
      {problem && (
        <span role="alert" className="bad">
          {' '}
          {problem}
        </span>
      )}
    </form>
  )
}
