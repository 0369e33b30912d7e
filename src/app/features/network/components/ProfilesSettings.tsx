/**
 * The network profiles, as one list in the Settings dialog: the local node (its URL is the
 * app's node setting, with the node's status), its d14n view, XMTP V3 dev and production,
 * an xmtpd node, and the custom profiles (add, edit, remove; kept in this browser).
 */
import { useEffect, useId, useState, type FormEvent } from 'react'
import type { Api, TransportKind } from '../../../../network/remote'
import type { NetworkProfiles } from '../node-fetch'
import { type Profile, profileProblem } from '../profiles'
import { describeNodeError, useNodeStatus } from '../queries'
import { FormEnd } from '../../../ui/FormEnd'
import { TextInput } from '../../../ui/TextInput'

export interface ProfilesSettingsProps {
  readonly net: NetworkProfiles
  /** The local node's URL (the app's node setting) and the one the app was started with. */
  readonly localUrl: string
  readonly defaultLocalUrl: string
  /** Saves the local node's URL (null: back to the default). */
  readonly onLocalUrl: (url: string | null) => void
}

const service = (api: Api) =>
  api === 'identity' ? 'xmtp.identity.api.v1.IdentityApi' : 'xmtp.xmtpv4.message_api.QueryApi'

export function ProfilesSettings({ net, localUrl, defaultLocalUrl, onLocalUrl }: ProfilesSettingsProps) {
  const [editing, setEditing] = useState<string | null>(null)
  return (
    <div className="profiles">
      <p className="muted small">
        Where the Open drawer's "From a node" section reads logs. Every answer is a claim until this browser replayed it
        (IDENT-071).
      </p>
      <ul className="profile-list" aria-label="Network profiles">
        {net.profiles.map((p) => (
          <li key={p.id} className="profile" aria-label={p.name}>
            <div className="profile-head">
              <strong>{p.name}</strong>{' '}
              <span className="muted small">
                {p.api} over {p.transport}
              </span>
              {!p.builtIn && editing !== p.id && (
                <span className="profile-actions">
                  <button type="button" onClick={() => setEditing(p.id)} aria-label={`Edit the profile ${p.name}`}>
                    Edit
                  </button>
                  <button type="button" onClick={() => net.remove(p.id)} aria-label={`Remove the profile ${p.name}`}>
                    Remove
                  </button>
                </span>
              )}
            </div>
            {p.id === 'local' ? (
              <LocalNode url={localUrl} defaultUrl={defaultLocalUrl} onChange={onLocalUrl} />
            ) : editing === p.id ? (
              <ProfileForm
                initial={p}
                label={`Edit the profile ${p.name}`}
                submitLabel="Save profile"
                onSubmit={(next) => {
                  net.save(next)
                  setEditing(null)
                }}
                onCancel={() => setEditing(null)}
              />
            ) : (
              <p className="small profile-url">
                <code>{p.url}</code> · {service(p.api)}
                {p.id === 'local-d14n' ? ' (the local node’s URL)' : ''}
              </p>
            )}
          </li>
        ))}
      </ul>
      <ProfileForm
        label="Add a network profile"
        submitLabel="Add profile"
        onSubmit={(p) => {
          net.save(p)
          net.choose(p.id)
        }}
      />
    </div>
  )
}

function LocalNode({
  url,
  defaultUrl,
  onChange,
}: {
  url: string
  defaultUrl: string
  onChange: (url: string | null) => void
}) {
  const [draft, setDraft] = useState(url)
  const [problem, setProblem] = useState<string | null>(null)
  useEffect(() => setDraft(url), [url])
  const status = useNodeStatus(url)
  const id = useId()
  const submit = (e: FormEvent) => {
    e.preventDefault()
    const v = draft.trim().replace(/\/+$/, '')
    const p = profileProblem({ url: v, api: 'identity', transport: 'connect' })
    setProblem(p)
    if (!p) onChange(v)
  }
  return (
    <form className="row-buttons" onSubmit={submit} aria-label="Local node settings" noValidate>
      <label htmlFor={id} className="small">
        URL
      </label>
      <TextInput id={id} type="url" value={draft} onValue={setDraft} aria-label="Local node URL" size={28} />
      <button type="submit">Save</button>
      <button type="button" onClick={() => onChange(null)} disabled={url === defaultUrl}>
        Use the default
      </button>
      <span
        role="status"
        aria-label="Node status"
        className={status.isSuccess ? 'badge ok' : status.isError ? 'badge bad' : 'badge'}
        style={{ whiteSpace: 'normal' }}
      >
        {status.isPending
          ? 'checking the node…'
          : status.isSuccess
            ? `node reachable: ${url}`
            : `node unreachable: ${describeNodeError(status.error)}`}
      </span>
      {status.isError && (
        <button type="button" onClick={() => void status.refetch()}>
          Retry
        </button>
      )}
      <span className="muted small">default {defaultUrl}</span>
      {problem && (
        <span role="alert" className="bad">
          {problem}
        </span>
      )}
    </form>
  )
}

function ProfileForm({
  initial,
  label,
  submitLabel,
  onSubmit,
  onCancel,
}: {
  initial?: Profile
  label: string
  submitLabel: string
  onSubmit: (p: Profile) => void
  onCancel?: () => void
}) {
  const [name, setName] = useState(initial?.name ?? '')
  const [url, setUrl] = useState(initial?.url ?? '')
  const [api, setApi] = useState<Api>(initial?.api ?? 'identity')
  const [transport, setTransport] = useState<TransportKind>(initial?.transport ?? 'grpc-web')
  const [problem, setProblem] = useState<string | null>(null)
  const submit = (e: FormEvent) => {
    e.preventDefault()
    const p = profileProblem({ url: url.trim(), api, transport })
    if (p) return setProblem(p)
    setProblem(null)
    onSubmit({
      id: initial?.id ?? `custom-${Date.now()}`,
      name: name.trim() || url.trim(),
      url: url.trim(),
      api,
      transport,
      builtIn: false,
    })
    if (!initial) {
      setName('')
      setUrl('')
    }
  }
  return (
    <form className="row-buttons profile-form" onSubmit={submit} aria-label={label} noValidate>
      <TextInput aria-label="Profile name" value={name} onValue={setName} placeholder="name" size={12} />
      <TextInput aria-label="Profile URL" type="url" value={url} onValue={setUrl} placeholder="https://…" size={26} />
      <select aria-label="API" value={api} onChange={(e) => setApi(e.target.value as Api)}>
        <option value="identity">identity (V3)</option>
        <option value="d14n">d14n (xmtpd)</option>
      </select>
      <select aria-label="Transport" value={transport} onChange={(e) => setTransport(e.target.value as TransportKind)}>
        <option value="grpc-web">grpc-web</option>
        <option value="connect">connect</option>
        <option value="gateway">gateway</option>
      </select>
      <FormEnd submitLabel={submitLabel} onCancel={onCancel} problem={problem} />
    </form>
  )
}
