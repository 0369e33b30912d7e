import { useCallback, useMemo, useState } from 'react'
import { describeMember } from '../../../../core/text/identifier'
import { memberKey } from '../../../../core/types'
import { clientTime, shortId } from '../../../ui/format'
import { partiesOf } from '../parties'
import { nowNs } from '../useComposer'
import { allButMine, buildCleanup } from './cleanup'
import type { FlowProps } from './flow-props'
import { SignEnd } from './SignEnd'
import { useFlowSigning } from './useFlowSigning'

/** Clean up installations: several revoked in one update, signed once by the recovery identifier (IDENT-043). */

export function CleanupFlow(p: FlowProps) {
  const { state, registry } = p
  const parties = useMemo(() => partiesOf(state, registry.signers), [state, registry.signers])
  const [picked, setPicked] = useState<ReadonlySet<string>>(new Set())
  const [ts, setTs] = useState(nowNs)
  const installs = p.health.installations.oldestFirst
  // Only current installations stay picked (a replay after an append removes the revoked ones).
  const targets = useMemo(() => installs.map((m) => memberKey(m.id)).filter((k) => picked.has(k)), [installs, picked])
  const build = useMemo(() => buildCleanup(state, parties, targets, ts), [state, parties, targets, ts])
  const onSigned = useCallback(() => {
    setPicked(new Set())
    setTs(nowNs())
  }, [])
  const s = useFlowSigning(p, build, parties, null, onSigned)
  const mine = new Set(parties.filter((x) => x.app).map((x) => memberKey(x.identifier)))
  const recoveryHeld = mine.has(memberKey(state.recovery.id))
  const toggle = (k: string, on: boolean) =>
    setPicked((cur) => {
      const next = new Set(cur)
      if (on) next.add(k)
      else next.delete(k)
      return next
    })
  return (
    <div className="compose-body">
      <p>
        Revoke several installations in <strong>one</strong> update, signed once by the recovery identifier,{' '}
        <code title={state.recovery.id.text}>{describeMember(state.recovery.id)}</code> (IDENT-043).{' '}
        {recoveryHeld ? (
          <span className="ok">This browser holds it.</span>
        ) : (
          <span className="warn">This browser holds no signer for it: connect it in Signers… first.</span>
        )}
      </p>
      {p.health.installations.atCeiling && (
        <p className="note warn">
          At the installation ceiling ({p.health.installations.count} of {p.ceiling}): no installation of this browser
          is needed to clean up, only the recovery identifier.
        </p>
      )}
      {installs.length === 0 ? (
        <p className="muted">The inbox has no installation to revoke.</p>
      ) : (
        <>
          <div className="row-buttons">
            <button type="button" onClick={() => setPicked(new Set(allButMine(state, parties)))}>
              All but this browser’s
            </button>
            <button type="button" onClick={() => setPicked(new Set())}>
              None
            </button>
          </div>
          <fieldset className="flow-pick">
            <legend>Installations to revoke (unused the longest first)</legend>
            {installs.map((m) => {
              const k = memberKey(m.id)
              return (
                <label key={k}>
                  <input type="checkbox" checked={picked.has(k)} onChange={(e) => toggle(k, e.target.checked)} />{' '}
                  <code title={m.id.text}>{shortId(m.id.text)}</code>{' '}
                  <span className="muted">
                    added {clientTime(m.clientTimestampNs)}
                    {mine.has(k) ? ' · this browser' : ''}
                  </span>
                </label>
              )
            })}
          </fieldset>
        </>
      )}
      <SignEnd
        p={p}
        build={build}
        s={s}
        signLabel={targets.length > 1 ? `Revoke ${targets.length} and publish` : 'Revoke and publish'}
        changes={
          <ul className="changes" aria-label="Members the update removes">
            {build.removed.map((m) => (
              <li key={memberKey(m.id)} className="mark-removed">
                <span className="rowmark">−</span> {describeMember(m.id)} can no longer sign for the inbox
              </li>
            ))}
            {build.cascades
              .filter((c) => c.installations.length > 0)
              .map((c) => (
                <li key={`c-${memberKey(c.target)}`}>{c.summary} (IDENT-044)</li>
              ))}
          </ul>
        }
      />
    </div>
  )
}
