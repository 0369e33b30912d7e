/**
 * The call-out of a log fetched from a node, above the workspace while that log is open:
 * where it came from (the address of the fetch), what the node's answer does not prove
 * (a second read that differs, updates naming another inbox, a handle or member the
 * derived state does not back, envelopes left out), and the comparison with another
 * source of the inbox (a profile or a file). Dismissable; it never pushes the inspector
 * off screen (the comparison is folded until asked for).
 */
import { useState } from 'react'
import { readLogs } from '../../../../core/decode/logs'
import { compareSources, type Comparison, type LogSource } from '../compare'
import { fetchAddressQuery, type Profile } from '../profiles'
import { describeRemoteError, fetchRemote, type RemoteResult, sourceOf } from '../remote-fetch'

const ROW = { display: 'flex', flexWrap: 'wrap', gap: '0.4rem', alignItems: 'center' } as const

export interface FetchCalloutProps {
  readonly result: RemoteResult
  readonly profiles: readonly Profile[]
  readonly onDismiss: () => void
}

export function FetchCallout({ result, profiles, onDismiss }: FetchCalloutProps) {
  const { log, callouts, address, handles, handleCheck } = result
  const share = fetchAddressQuery(address)
  return (
    <section className={`fetch-callout${callouts.length ? ' has-callouts' : ''}`} aria-label="Fetched from a node">
      <div role="status" aria-label="Network fetch result" className="fetch-summary">
        <p>
          {handles && (
            <>
              <strong className="handle">{handles.current ?? 'no handle'}</strong>
              {handles.others.length > 0 && <span className="muted"> (also {handles.others.join(', ')})</span>} ·{' '}
            </>
          )}
          Inbox <code>{log.inboxId}</code> · {log.updates.length} update{log.updates.length === 1 ? '' : 's'} from{' '}
          {log.node} ({log.api} over {log.transport}
          {log.api === 'd14n' ? `, ${log.pages} page${log.pages === 1 ? '' : 's'}` : ''}) · opened at its head step ·{' '}
          <a href={share} aria-label="Address of this fetch">
            address of this fetch
          </a>
        </p>
        {handleCheck?.accepted && <p className="small">Handle answer accepted (IDENT-085): {handleCheck.reason}.</p>}
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
      <CompareView result={result} profiles={profiles} />
      <button type="button" className="fetch-dismiss" onClick={onDismiss} aria-label="Dismiss the fetch call-out">
        Dismiss
      </button>
    </section>
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
