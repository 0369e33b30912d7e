/**
 * The network panel: the node's status (reachable, or unreachable with the error and a
 * retry), fetching a log by inbox id, Ethereum address, passkey key or handle, and
 * publishing a signed update given as hex. A fetched log opens in the inspector
 * through `onOpenLog` (the inspector replays it again, in its worker).
 */
import { QueryClientProvider } from '@tanstack/react-query'
import { useEffect, useState, type FormEvent, type ReactNode } from 'react'
import type { SmartWalletVerifier } from '../../../../core/verify/port'
import { hexToBytes } from '../../../../crypto/bytes'
import { PublishAnswerView } from './PublishAnswerView'
import { usePublish } from '../publish'
import {
  createNetworkQueryClient,
  describeNodeError,
  useLookup,
  useNodeStatus,
  type LookupBy,
  type LookupResult,
} from '../queries'

const queryClient = createNetworkQueryClient()

export interface OpenNodeLog {
  readonly inboxId: string
  readonly bundle: string
  readonly label: string
}

const SECTION = {
  maxWidth: '100%',
  overflowWrap: 'anywhere',
  padding: '0.25rem 0.75rem',
  boxSizing: 'border-box',
} as const
const ROW = { display: 'flex', flexWrap: 'wrap', gap: '0.4rem', alignItems: 'center' } as const
const FIELD = { maxWidth: '100%', minWidth: 0, boxSizing: 'border-box' } as const

const BY_LABEL: Record<LookupBy, string> = {
  inbox: 'Inbox id',
  ethereum: 'Ethereum address',
  passkey: 'Passkey key',
  handle: 'Handle',
}

export interface NetworkPanelProps {
  readonly baseUrl: string
  readonly settings: ReactNode
  readonly onOpenLog: (log: OpenNodeLog) => void
  /** Judges erc_6492 signatures of fetched logs on the app's chain routes; `key` names the routes. */
  readonly chain?: { readonly verifier: SmartWalletVerifier; readonly key: string }
}

export function NetworkPanel(props: NetworkPanelProps) {
  return (
    <QueryClientProvider client={queryClient}>
      <Panel {...props} />
    </QueryClientProvider>
  )
}

function Panel({ baseUrl, settings, onOpenLog, chain }: NetworkPanelProps) {
  const status = useNodeStatus(baseUrl)
  const [by, setBy] = useState<LookupBy>('handle')
  const [text, setText] = useState('')
  const [wish, setWish] = useState<{ by: LookupBy; identifier: string; nonce: number } | null>(null)
  const [known, setKnown] = useState<string[]>([])
  const result = useLookup(baseUrl, wish, known, chain)
  const data = result.data
  useEffect(() => {
    if (data?.kind !== 'found') return
    setKnown((k) => (k.includes(data.inboxId) ? k : [...k, data.inboxId]))
    onOpenLog({
      inboxId: data.inboxId,
      bundle: data.bundle,
      label: `node ${baseUrl}: ${data.handles.current ?? `inbox ${data.inboxId.slice(0, 10)}…`}`,
    })
  }, [data, baseUrl, onOpenLog])
  const submit = (e: FormEvent) => {
    e.preventDefault()
    if (text.trim()) setWish({ by, identifier: text.trim(), nonce: Date.now() })
  }
  const pub = usePublish(baseUrl)
  const [hex, setHex] = useState('')
  const [pubInbox, setPubInbox] = useState('')
  const [hexProblem, setHexProblem] = useState<string | null>(null)
  const onPublish = (e: FormEvent) => {
    e.preventDefault()
    let bytes: Uint8Array
    try {
      bytes = hexToBytes(hex.trim().replace(/^0x/, ''))
    } catch (err) {
      setHexProblem(`not hex: ${err instanceof Error ? err.message : String(err)}`)
      return
    }
    setHexProblem(null)
    void pub.publish(bytes, pubInbox.trim() ? { inboxId: pubInbox.trim().toLowerCase() } : {})
  }

  return (
    <section className="network panel" aria-label="Network" style={SECTION}>
      <div className="row" style={ROW}>
        {settings}{' '}
        <span
          role="status"
          aria-label="Node status"
          style={{ whiteSpace: 'normal', maxWidth: '100%' }}
          className={status.isSuccess ? 'badge ok' : status.isError ? 'badge bad' : 'badge'}
        >
          {status.isPending
            ? 'checking the node…'
            : status.isSuccess
              ? `node reachable: ${baseUrl}`
              : `node unreachable: ${describeNodeError(status.error)}`}
        </span>{' '}
        {status.isError && (
          <button type="button" onClick={() => void status.refetch()}>
            Retry
          </button>
        )}
      </div>
      {status.isError && (
        <p className="muted small">The app stays usable offline: open a log from a file, a paste or the examples.</p>
      )}
      <form className="row" style={ROW} onSubmit={submit} aria-label="Fetch a log from the node">
        <select aria-label="Look up by" value={by} onChange={(e) => setBy(e.target.value as LookupBy)}>
          {(Object.keys(BY_LABEL) as LookupBy[]).map((k) => (
            <option key={k} value={k}>
              {BY_LABEL[k]}
            </option>
          ))}
        </select>{' '}
        <input
          aria-label="Identifier to look up"
          value={text}
          onChange={(e) => setText(e.target.value)}
          placeholder="alice, 0x…, inbox id"
          size={40}
          style={FIELD}
        />{' '}
        <button type="submit" disabled={result.isFetching}>
          Fetch log
        </button>
      </form>
      {result.isFetching && <p role="status">Fetching from {baseUrl}…</p>}
      {result.isError && (
        <div role="alert" className="bad">
          Could not fetch: {describeNodeError(result.error)}{' '}
          <button type="button" onClick={() => void result.refetch()}>
            Retry
          </button>
        </div>
      )}
      {result.data && !result.isFetching && <LookupView r={result.data} />}
      <details>
        <summary>Publish a signed update</summary>
        <form onSubmit={onPublish} aria-label="Publish a signed update">
          <textarea
            aria-label="Signed update (hex)"
            value={hex}
            onChange={(e) => setHex(e.target.value)}
            rows={3}
            style={{ width: '100%', maxWidth: '40rem', boxSizing: 'border-box' }}
          />
          <br />
          <input
            aria-label="Inbox id of the update (for the visibility check)"
            value={pubInbox}
            onChange={(e) => setPubInbox(e.target.value)}
            placeholder="inbox id (optional)"
            size={40}
            style={FIELD}
          />{' '}
          <button type="submit" disabled={pub.busy}>
            Publish
          </button>
        </form>
        {hexProblem && <p role="alert">{hexProblem}</p>}
        {pub.answer && <PublishAnswerView answer={pub.answer} />}
      </details>
    </section>
  )
}

function LookupView({ r }: { r: LookupResult }) {
  if (r.kind === 'not-found') return <p role="status">{r.message}.</p>
  if (r.kind === 'refused')
    return (
      <p role="alert" className="bad">
        The node's answer was refused (IDENT-085): it names inbox {r.inboxId}, but {r.check.reason}.
      </p>
    )
  return (
    <div role="status" aria-label="Fetched inbox" className="lookup">
      <p>
        <strong className="handle">{r.handles.current ?? 'no handle'}</strong>
        {r.handles.others.length > 0 && <span className="muted"> (also {r.handles.others.join(', ')})</span>} · inbox{' '}
        {r.inboxId} · {r.entries} update
        {r.entries === 1 ? '' : 's'}, replayed by this app{r.ok ? '' : ' (not every update applies)'}
      </p>
      {r.check && <p className="small">Handle answer accepted (IDENT-085): {r.check.reason}.</p>}
      {r.resolution && (
        <p className="small">
          {r.resolution.live.length > 1 ? 'Live in several inboxes. ' : ''}
          {r.resolution.reason}. The node named {r.inboxId}; resolution picks the live association with the highest
          sequence id (section 9), checked against the inboxes this app has fetched
          {r.resolution.inboxId && r.resolution.inboxId !== r.inboxId
            ? `: it picks ${r.resolution.inboxId}, not the node's answer`
            : ''}
          .
        </p>
      )}
    </div>
  )
}
