/**
 * Real networks: pick a profile (the local node, XMTP V3 dev or production over gRPC-web,
 * an xmtpd node over Connect, or a custom URL, API and transport), fetch an inbox's log by
 * inbox id, address, passkey or handle, and open it in the inspector at its head step.
 * What a node's answer does not prove is called out (./remote-fetch.ts). A fetch has an
 * address (`?node=…&api=…&inbox=…`) that makes it again on load. And compare two sources
 * of the inbox: another profile, or a log file.
 */
import { useEffect, useMemo, useRef, useState, type FormEvent } from 'react'
import { readLogs } from '../../../../core/decode/logs'
import type { TargetKind, TransportKind, Api } from '../../../../network/remote'
import { compareSources, type Comparison, type LogSource } from '../compare'
import {
  builtInProfiles,
  type FetchAddress,
  fetchAddressQuery,
  loadCustomProfiles,
  type Profile,
  profileForAddress,
  profileProblem,
  readFetchAddress,
  saveCustomProfiles,
} from '../profiles'
import { describeRemoteError, fetchRemote, type RemoteResult, sourceOf } from '../remote-fetch'

export interface OpenRemoteLog {
  readonly inboxId: string
  readonly bundle: string
  readonly label: string
  /** The head step: the highest sequence id (null for an empty log). */
  readonly headSequenceId: bigint | null
}

export interface RemotePanelProps {
  /** This project's local node (the app's node setting): the default profile. */
  readonly localNodeUrl: string
  readonly onOpenLog: (log: OpenRemoteLog) => void
}

const TARGET_LABEL: Record<TargetKind, string> = {
  inbox: 'Inbox id',
  address: 'Ethereum address',
  passkey: 'Passkey key (hex)',
  handle: 'Handle',
}

const ROW = { display: 'flex', flexWrap: 'wrap', gap: '0.4rem', alignItems: 'center' } as const
const FIELD = { maxWidth: '100%', minWidth: 0, boxSizing: 'border-box' } as const

type Status =
  | { readonly kind: 'idle' }
  | { readonly kind: 'fetching'; readonly what: string }
  | { readonly kind: 'error'; readonly message: string }
  | { readonly kind: 'done'; readonly result: RemoteResult }

export function RemotePanel({ localNodeUrl, onOpenLog }: RemotePanelProps) {
  const [custom, setCustom] = useState<Profile[]>(() => loadCustomProfiles())
  // The endpoint a page-address fetch used when no profile has it (kept for this page only).
  const [fromAddress, setFromAddress] = useState<Profile | null>(null)
  const profiles = useMemo(
    () => [...builtInProfiles(localNodeUrl), ...custom, ...(fromAddress ? [fromAddress] : [])],
    [localNodeUrl, custom, fromAddress],
  )
  const [profileId, setProfileId] = useState('local')
  const profile = profiles.find((p) => p.id === profileId) ?? profiles[0]!
  const [kind, setKind] = useState<TargetKind>('handle')
  const [value, setValue] = useState('')
  const [status, setStatus] = useState<Status>({ kind: 'idle' })
  const abort = useRef<AbortController | null>(null)
  const open = useRef(onOpenLog)
  open.current = onOpenLog

  const run = async (address: FetchAddress) => {
    abort.current?.abort()
    const ac = new AbortController()
    abort.current = ac
    setStatus({ kind: 'fetching', what: `${address.target.kind} ${address.target.value} from ${address.url}` })
    try {
      const result = await fetchRemote(address, { signal: ac.signal })
      if (ac.signal.aborted) return
      setStatus({ kind: 'done', result })
      open.current({
        inboxId: result.log.inboxId,
        bundle: result.bundle,
        label: `${address.url} (${address.api} over ${address.transport}): inbox ${result.log.inboxId.slice(0, 10)}…`,
        headSequenceId: result.headSequenceId,
      })
    } catch (e) {
      if (ac.signal.aborted) return
      setStatus({ kind: 'error', message: describeRemoteError(e) })
    }
  }

  // A fetch named by the page address runs once, on load.
  const booted = useRef(false)
  useEffect(() => {
    if (booted.current) return
    booted.current = true
    const a = readFetchAddress(location.search)
    if (a === null) return
    if ('error' in a) {
      setStatus({ kind: 'error', message: `the page address asks for a fetch that cannot be made: ${a.error}` })
      return
    }
    const used = profileForAddress(profiles, a)
    if (!profiles.includes(used)) setFromAddress(used)
    setProfileId(used.id)
    setKind(a.target.kind)
    setValue(a.target.value)
    void run(a)
  })

  const submit = (e: FormEvent) => {
    e.preventDefault()
    if (!value.trim()) return
    void run({
      url: profile.url,
      api: profile.api,
      transport: profile.transport,
      target: { kind, value: value.trim() },
    })
  }

  const done = status.kind === 'done' ? status.result : null

  return (
    <section
      className="network panel"
      aria-label="Real networks"
      style={{ padding: '0.25rem 0.75rem', maxWidth: '100%' }}
    >
      <h2 className="small">Real networks</h2>
      <form style={ROW} onSubmit={submit} aria-label="Fetch from a network">
        <select aria-label="Network profile" value={profile.id} onChange={(e) => setProfileId(e.target.value)}>
          {profiles.map((p) => (
            <option key={p.id} value={p.id}>
              {p.name} ({p.api}, {p.transport})
            </option>
          ))}
        </select>
        <select aria-label="Fetch by" value={kind} onChange={(e) => setKind(e.target.value as TargetKind)}>
          {(Object.keys(TARGET_LABEL) as TargetKind[]).map((k) => (
            <option key={k} value={k}>
              {TARGET_LABEL[k]}
            </option>
          ))}
        </select>
        <input
          aria-label="Identifier to fetch"
          value={value}
          onChange={(e) => setValue(e.target.value)}
          placeholder="alice, 0x…, inbox id"
          size={36}
          style={FIELD}
        />
        <button type="submit" disabled={status.kind === 'fetching'}>
          Fetch
        </button>
      </form>
      <p className="muted small" data-testid="profile-endpoint">
        {profile.url} ·{' '}
        {profile.api === 'identity' ? 'xmtp.identity.api.v1.IdentityApi' : 'xmtp.xmtpv4.message_api.QueryApi'} over{' '}
        {profile.transport}
      </p>
      {status.kind === 'fetching' && <p role="status">Fetching {status.what}…</p>}
      {status.kind === 'error' && (
        <p role="alert" className="bad" aria-label="Network fetch error">
          Could not fetch: {status.message}
        </p>
      )}
      {done && <ResultView result={done} />}
      {done && <CompareView result={done} profiles={profiles} />}
      <CustomProfileForm
        onAdd={(p) => {
          const next = [...custom.filter((c) => c.id !== p.id), p]
          setCustom(next)
          saveCustomProfiles(next)
          setProfileId(p.id)
        }}
        onRemove={
          profile.builtIn
            ? null
            : () => {
                const next = custom.filter((c) => c.id !== profile.id)
                setCustom(next)
                saveCustomProfiles(next)
                setProfileId('local')
              }
        }
      />
    </section>
  )
}

function ResultView({ result }: { result: RemoteResult }) {
  const { log, callouts, address } = result
  const share = fetchAddressQuery(address)
  return (
    <div role="status" aria-label="Network fetch result">
      <p>
        Inbox {log.inboxId} · {log.updates.length} update{log.updates.length === 1 ? '' : 's'} from {log.node} (
        {log.api} over {log.transport}
        {log.api === 'd14n' ? `, ${log.pages} page${log.pages === 1 ? '' : 's'}` : ''}) · opened at its head step ·{' '}
        <a href={share} aria-label="Address of this fetch">
          address of this fetch
        </a>
      </p>
      {callouts.length === 0 ? (
        <p className="small ok">Read twice, the same both times; the log names only this inbox.</p>
      ) : (
        <ul aria-label="Called out" className="bad">
          {callouts.map((c) => (
            <li key={`${c.kind}:${c.message}`} data-kind={c.kind}>
              {c.message}
            </li>
          ))}
        </ul>
      )}
    </div>
  )
}

type CompareStatus =
  | { readonly kind: 'idle' }
  | { readonly kind: 'busy' }
  | { readonly kind: 'error'; readonly message: string }
  | { readonly kind: 'done'; readonly a: string; readonly b: string; readonly c: Comparison }

function CompareView({ result, profiles }: { result: RemoteResult; profiles: readonly Profile[] }) {
  const [other, setOther] = useState(profiles.find((p) => p.id !== 'local')?.id ?? 'local')
  const [st, setSt] = useState<CompareStatus>({ kind: 'idle' })
  const a = sourceOf(`${result.log.node} (${result.log.api} over ${result.log.transport})`, result.log)

  const compareWith = async (b: LogSource) => {
    try {
      setSt({ kind: 'done', a: a.label, b: b.label, c: await compareSources(a, b) })
    } catch (e) {
      setSt({ kind: 'error', message: e instanceof Error ? e.message : String(e) })
    }
  }
  const fromProfile = async () => {
    const p = profiles.find((x) => x.id === other)
    if (!p) return
    setSt({ kind: 'busy' })
    try {
      const r = await fetchRemote({
        url: p.url,
        api: p.api,
        transport: p.transport,
        target: { kind: 'inbox', value: result.log.inboxId },
      })
      await compareWith(sourceOf(`${p.url} (${p.api} over ${p.transport})`, r.log))
    } catch (e) {
      setSt({ kind: 'error', message: describeRemoteError(e) })
    }
  }
  const fromFile = async (f: File) => {
    setSt({ kind: 'busy' })
    try {
      const logs = readLogs(new Uint8Array(await f.arrayBuffer()), f.name)
      const log = logs.find((l) => l.inboxId === result.log.inboxId) ?? logs[0]
      if (!log) throw new Error(`${f.name} holds no log`)
      await compareWith({
        label: `file ${f.name}`,
        inboxId: log.inboxId ?? result.log.inboxId,
        updates: log.entries.flatMap((e) => {
          const bytes = 'bytes' in e.update ? e.update.bytes : undefined
          return bytes ? [{ sequenceId: e.sequenceId, bytes }] : []
        }),
      })
    } catch (e) {
      setSt({ kind: 'error', message: e instanceof Error ? e.message : String(e) })
    }
  }

  return (
    <details aria-label="Compare two sources" open={st.kind !== 'idle'}>
      <summary>Compare with another source</summary>
      <div style={ROW}>
        <select aria-label="Second source" value={other} onChange={(e) => setOther(e.target.value)}>
          {profiles.map((p) => (
            <option key={p.id} value={p.id}>
              {p.name} ({p.api}, {p.transport})
            </option>
          ))}
        </select>
        <button type="button" onClick={() => void fromProfile()} disabled={st.kind === 'busy'}>
          Compare
        </button>
        <label>
          or a file{' '}
          <input
            type="file"
            aria-label="Log file to compare"
            onChange={(e) => {
              const f = e.target.files?.[0]
              if (f) void fromFile(f)
            }}
          />
        </label>
      </div>
      {st.kind === 'busy' && <p role="status">Comparing…</p>}
      {st.kind === 'error' && (
        <p role="alert" className="bad">
          Could not compare: {st.message}
        </p>
      )}
      {st.kind === 'done' && <ComparisonView a={st.a} b={st.b} c={st.c} />}
    </details>
  )
}

function ComparisonView({ a, b, c }: { a: string; b: string; c: Comparison }) {
  const s = c.state
  return (
    <div role="status" aria-label="Comparison">
      <p>
        A: {a} · B: {b} ·{' '}
        {c.identical ? (
          <strong className="ok">the two sources agree</strong>
        ) : (
          <strong className="bad">they differ</strong>
        )}{' '}
        ({c.same} update{c.same === 1 ? '' : 's'} identical)
      </p>
      {!c.sameInbox && <p className="bad">The two sources are logs of different inboxes.</p>}
      <ul>
        {c.onlyA.length > 0 && <li aria-label="Only in A">Only in A: sequence id {c.onlyA.join(', ')}</li>}
        {c.onlyB.length > 0 && <li aria-label="Only in B">Only in B: sequence id {c.onlyB.join(', ')}</li>}
        {c.differing.map((d) => (
          <li key={String(d.sequenceId)} aria-label="Different bytes">
            Sequence id {String(d.sequenceId)}: different bytes (A {d.a.slice(0, 16)}…, B {d.b.slice(0, 16)}…)
          </li>
        ))}
      </ul>
      <h3 className="small">Head states</h3>
      <ul aria-label="Head-state difference">
        <li>
          Head sequence id: A {s.headSequenceIds.a === null ? 'none' : String(s.headSequenceIds.a)}, B{' '}
          {s.headSequenceIds.b === null ? 'none' : String(s.headSequenceIds.b)}
        </li>
        {s.membersOnlyA.length > 0 && <li>Members only in A: {s.membersOnlyA.join(', ')}</li>}
        {s.membersOnlyB.length > 0 && <li>Members only in B: {s.membersOnlyB.join(', ')}</li>}
        {s.recovery && (
          <li>
            Recovery: A {s.recovery.a ?? 'none'}, B {s.recovery.b ?? 'none'}
          </li>
        )}
        {s.handles && (
          <li>
            Handles: A {s.handles.a.join(', ') || 'none'}, B {s.handles.b.join(', ') || 'none'}
          </li>
        )}
      </ul>
    </div>
  )
}

function CustomProfileForm({ onAdd, onRemove }: { onAdd: (p: Profile) => void; onRemove: (() => void) | null }) {
  const [name, setName] = useState('')
  const [url, setUrl] = useState('')
  const [api, setApi] = useState<Api>('identity')
  const [transport, setTransport] = useState<TransportKind>('grpc-web')
  const [problem, setProblem] = useState<string | null>(null)
  const submit = (e: FormEvent) => {
    e.preventDefault()
    const p = profileProblem({ url: url.trim(), api, transport })
    if (p) return setProblem(p)
    setProblem(null)
    onAdd({
      id: `custom-${Date.now()}`,
      name: name.trim() || url.trim(),
      url: url.trim(),
      api,
      transport,
      builtIn: false,
    })
  }
  return (
    <details>
      <summary>Custom profile</summary>
      <form style={ROW} onSubmit={submit} aria-label="Add a network profile">
        <input
          aria-label="Profile name"
          value={name}
          onChange={(e) => setName(e.target.value)}
          placeholder="name"
          size={12}
        />
        <input
          aria-label="Node URL"
          value={url}
          onChange={(e) => setUrl(e.target.value)}
          placeholder="https://…"
          size={30}
          style={FIELD}
        />
        <select aria-label="API" value={api} onChange={(e) => setApi(e.target.value as Api)}>
          <option value="identity">identity (V3)</option>
          <option value="d14n">d14n (xmtpd)</option>
        </select>
        <select
          aria-label="Transport"
          value={transport}
          onChange={(e) => setTransport(e.target.value as TransportKind)}
        >
          <option value="grpc-web">grpc-web</option>
          <option value="connect">connect</option>
          <option value="gateway">gateway</option>
        </select>
        <button type="submit">Add profile</button>
        {onRemove && (
          <button type="button" onClick={onRemove}>
            Remove the selected profile
          </button>
        )}
      </form>
      {problem && <p role="alert">{problem}</p>}
    </details>
  )
}
