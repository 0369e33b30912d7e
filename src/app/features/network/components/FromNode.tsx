/**
 * "From a node", a section of the Open drawer: fetch an inbox's log by inbox id, address,
 * passkey or handle (by default the kind the text reads as: detectTarget in
 * src/network/target.ts) from the chosen network profile (the profiles are edited in the
 * Settings dialog), and publish a signed update given as hex to the local node. The
 * fetched log opens at its head step; what the node's answer does not prove is shown
 * above the workspace (FetchCallout).
 */
import { useState, type FormEvent } from 'react'
import { hexToBytes } from '../../../../crypto/bytes'
import { detectTarget, TARGET_SHAPES, type Target, type TargetKind } from '../../../../network/target'
import type { NetworkProfiles, NodeFetch } from '../node-fetch'
import { usePublish } from '../use-publish'
import { PublishAnswerView } from './PublishAnswerView'
import { TextInput } from '../../../ui/TextInput'

/** "Fetch by": the kind the text reads as, or one chosen. */
type FetchBy = TargetKind | 'detect'

const TARGET_LABEL: Record<FetchBy, string> = {
  detect: 'Any (detected)',
  inbox: 'Inbox id',
  address: 'Ethereum address',
  passkey: 'Passkey key (hex)',
  handle: 'Handle',
}

export interface FromNodeProps {
  readonly net: NetworkProfiles
  readonly fetch: NodeFetch
  /** Opens the Settings dialog at its profiles. */
  readonly onSettings: () => void
}

export function FromNode({ net, fetch, onSettings }: FromNodeProps) {
  const last = fetch.lastTarget
  const [kind, setKind] = useState<FetchBy>(() =>
    last && detectTarget(last.value)?.kind !== last.kind ? last.kind : 'detect',
  )
  const [value, setValue] = useState(last?.value ?? '')
  const [unread, setUnread] = useState(false)
  const profile = net.chosen
  const { status } = fetch
  // null for an empty field too: detectTarget reads no kind in it.
  const detected = detectTarget(value)
  const target: Target | null = kind === 'detect' ? detected : { kind, value: value.trim() }
  const submit = (e: FormEvent) => {
    e.preventDefault()
    if (!value.trim()) return
    setUnread(!target)
    if (!target) return
    void fetch.run({ url: profile.url, api: profile.api, transport: profile.transport, target })
  }
  return (
    <section className="from-node" aria-labelledby="from-node-title">
      <h3 id="from-node-title">From a node</h3>
      <form className="row-buttons" onSubmit={submit} aria-label="Fetch a log from a node">
        <select aria-label="Network profile" value={profile.id} onChange={(e) => net.choose(e.target.value)}>
          {net.profiles.map((p) => (
            <option key={p.id} value={p.id}>
              {p.name} ({p.api}, {p.transport})
            </option>
          ))}
        </select>
        <select aria-label="Fetch by" value={kind} onChange={(e) => setKind(e.target.value as FetchBy)}>
          {(Object.keys(TARGET_LABEL) as FetchBy[]).map((k) => (
            <option key={k} value={k}>
              {TARGET_LABEL[k]}
            </option>
          ))}
        </select>
        <TextInput
          aria-label="Identifier to fetch"
          value={value}
          onValue={(v) => {
            setValue(v)
            setUnread(false)
          }}
          placeholder="alice, 0x…, inbox id"
          size={30}
          aria-describedby="from-node-reads-as"
          aria-invalid={unread || undefined}
        />
        <button type="submit" disabled={status.kind === 'fetching'}>
          Fetch log
        </button>
      </form>
      <ReadsAs id="from-node-reads-as" kind={kind} value={value} detected={detected} unread={unread} />
      <p className="muted small from-node-endpoint" data-testid="profile-endpoint">
        {profile.url} ·{' '}
        {profile.api === 'identity' ? 'xmtp.identity.api.v1.IdentityApi' : 'xmtp.xmtpv4.message_api.QueryApi'} over{' '}
        {profile.transport} ·{' '}
        <button type="button" className="link" onClick={onSettings}>
          Profiles and the local node URL: Settings…
        </button>
      </p>
      {status.kind === 'fetching' && <p role="status">Fetching {status.what}…</p>}
      {status.kind === 'error' && (
        <p role="alert" className="bad" aria-label="Network fetch error">
          Could not fetch: {status.message}
        </p>
      )}
      {status.kind === 'refused' && (
        <p role="alert" className="bad">
          The node's answer was refused (IDENT-085): it names inbox {status.result.log.inboxId}, but{' '}
          {status.result.handleCheck?.reason}. The log was not opened.
        </p>
      )}
      <PublishHex />
    </section>
  )
}

const KIND_WORDS: Record<TargetKind, string> = {
  inbox: 'an inbox id',
  address: 'an Ethereum address',
  passkey: 'a passkey key',
  handle: 'a handle',
}

/**
 * What the identifier will be sent as: the detected kind, or, when a kind is chosen, that
 * the text reads as another one (a 64-digit inbox id asked for as a handle finds nothing);
 * after a Fetch log that detected nothing, what the four kinds look like.
 */
function ReadsAs({
  id,
  kind,
  value,
  detected,
  unread,
}: {
  readonly id: string
  readonly kind: FetchBy
  readonly value: string
  readonly detected: Target | null
  readonly unread: boolean
}) {
  if (unread)
    return (
      <p id={id} role="alert" className="bad small from-node-reads-as">
        {JSON.stringify(value.trim())} reads as no identifier: give {TARGET_SHAPES}, or choose what it is under Fetch
        by.
      </p>
    )
  const text = readsAs(kind, detected)
  return (
    <p id={id} className="muted small from-node-reads-as" aria-live="polite">
      {text}
    </p>
  )
}

/** The line under the field: empty when there is nothing to say. */
function readsAs(kind: FetchBy, detected: Target | null): string {
  if (!detected) return ''
  if (kind === 'detect') return `Reads as ${KIND_WORDS[detected.kind]}.`
  if (detected.kind === kind) return ''
  return `This reads as ${KIND_WORDS[detected.kind]}, not ${KIND_WORDS[kind]}; choose ${TARGET_LABEL.detect} under Fetch by to send it as one.`
}

function PublishHex() {
  const pub = usePublish()
  const [hex, setHex] = useState('')
  const [inbox, setInbox] = useState('')
  const [problem, setProblem] = useState<string | null>(null)
  const onPublish = (e: FormEvent) => {
    e.preventDefault()
    let bytes: Uint8Array
    try {
      bytes = hexToBytes(hex.trim().replace(/^0x/, ''))
    } catch (err) {
      setProblem(`not hex: ${err instanceof Error ? err.message : String(err)}`)
      return
    }
    setProblem(null)
    void pub.publish(bytes, inbox.trim() ? { inboxId: inbox.trim().toLowerCase() } : {})
  }
  return (
    <details className="publish-hex">
      <summary>Publish a signed update to the local node</summary>
      <form onSubmit={onPublish} aria-label="Publish a signed update">
        <textarea
          aria-label="Signed update (hex)"
          value={hex}
          onChange={(e) => setHex(e.target.value)}
          rows={3}
          spellCheck={false}
        />
        <div className="row-buttons">
          <TextInput
            aria-label="Inbox id of the update (for the visibility check)"
            value={inbox}
            onValue={setInbox}
            placeholder="inbox id (optional)"
            size={30}
          />
          <button type="submit" disabled={pub.busy}>
            Publish
          </button>
        </div>
      </form>
      {problem && <p role="alert">{problem}</p>}
      {pub.answer && <PublishAnswerView answer={pub.answer} />}
    </details>
  )
}
