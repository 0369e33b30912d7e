import { useCallback, useEffect, useMemo, useState } from 'react'
import { describeMember } from '../../../../core/text/identifier'
import { memberKey } from '../../../../core/types'
import { EMPTY_FORM, withDefaults } from '../compose-form'
import { buildDraft } from '../compose-model'
import { eligible, partiesOf } from '../parties'
import { nowNs } from '../useComposer'
import { RecoveryTargetFields } from '../components/fields'
import type { FlowProps } from './flow-props'
import { SignEnd } from './SignEnd'
import { useFlowSigning } from './useFlowSigning'

/** Rotate recovery: the current recovery identifier hands its role on, confirmed by the new one's last four characters (IDENT-045). */

export function RecoveryFlow(p: FlowProps) {
  const { state, registry } = p
  const parties = useMemo(() => partiesOf(state, registry.signers), [state, registry.signers])
  const [target, setTarget] = useState('')
  const [typedId, setTypedId] = useState('')
  const [typedKind, setTypedKind] = useState<'ethereum' | 'passkey'>('ethereum')
  const [last4, setLast4] = useState('')
  const [ts, setTs] = useState(nowNs)
  const form = useMemo(
    () =>
      withDefaults(
        {
          ...EMPTY_FORM,
          action: 'change_recovery_address',
          recoveryTarget: target,
          recoveryTyped: typedId,
          recoveryTypedKind: typedKind,
        },
        state,
        parties,
      ),
    [target, typedId, typedKind, state, parties],
  )
  const build = useMemo(() => buildDraft(form, { state, parties, clientTimestampNs: ts }), [form, state, parties, ts])
  const onSigned = useCallback(() => {
    setLast4('')
    setTarget('')
    setTypedId('')
    setTs(nowNs())
  }, [])
  const s = useFlowSigning(p, build, parties, null, onSigned)
  const next = build.recoveryChain
  const want = next ? next.id.text.slice(-4) : null
  const matches = want !== null && last4.trim().toLowerCase() === want.toLowerCase()
  const { setConfirmed, confirmed } = s
  useEffect(() => {
    if (matches !== confirmed && build.draft) setConfirmed(matches)
  }, [matches, confirmed, build.draft, setConfirmed])
  const targets = eligible(parties, 'recovery_target').filter((x) => !x.isRecovery)
  const recoveryHeld = parties.some((x) => x.app && memberKey(x.identifier) === memberKey(state.recovery.id))
  return (
    <div className="compose-body">
      <p>
        The recovery identifier is the one party that can revoke members and hand its role on. Today it is{' '}
        <code title={state.recovery.id.text}>{describeMember(state.recovery.id)}</code>; it signs the rotation alone
        (IDENT-045){recoveryHeld ? '.' : ', and this browser holds no signer for it: connect it in Signers… first.'}
      </p>
      <div className="compose-form">
        <RecoveryTargetFields
          targets={targets}
          target={form.recoveryTarget}
          onTarget={setTarget}
          typedKind={typedKind}
          onTypedKind={setTypedKind}
          typed={typedId}
          onTyped={setTypedId}
        />
      </div>
      <SignEnd
        p={p}
        build={build}
        s={s}
        signLabel="Rotate and publish"
        changes={
          next && (
            <ul>
              <li>
                <strong>{describeMember(next.id)}</strong> becomes the recovery identifier (
                {next.isMember ? 'it is a member' : 'it is not a member, and does not become one'}). From then on only
                it can revoke members or rotate recovery again; {describeMember(state.recovery.id)} loses that role
                {state.members.has(memberKey(state.recovery.id)) ? ' (it stays a member)' : ''}.
              </li>
              <li>{next.explanation} (IDENT-045)</li>
              <li>The new recovery identifier signs nothing: only the current one is asked.</li>
            </ul>
          )
        }
        confirm={
          want !== null &&
          build.draft && (
            <label className="compose-field">
              <span>
                To confirm, type the last four characters of the new identifier (…<code>{want}</code>)
              </span>
              <input
                aria-label="Last four characters of the new recovery identifier"
                value={last4}
                onChange={(e) => setLast4(e.target.value)}
                size={6}
                maxLength={8}
                spellCheck={false}
                autoCapitalize="off"
              />
            </label>
          )
        }
      />
    </div>
  )
}
