/** The composer's form for the chosen action: who signs and what the action names. */
import type { AssociationState } from '../../../../core/types'
import type { SignerRegistry } from '../../../model/app-signer'
import { MEMBER_KIND_LABEL, shortId } from '../../../ui/format'
import { eligible } from '../parties'
import type { useComposer } from '../useComposer'
import { HandleField, NewSignerButtons, PartySelect, RecoveryTargetFields } from './fields'

export function ActionForm({
  c,
  state,
  registry,
}: {
  c: ReturnType<typeof useComposer>
  state: AssociationState | null
  registry: SignerRegistry
}) {
  const { form, update, parties } = c
  switch (form.action) {
    case 'create_inbox':
      return (
        <div className="compose-form">
          <label className="compose-field">
            <span>Identifier kind</span>
            <select
              aria-label="Identifier kind"
              value={form.createKind}
              onChange={(e) => update({ createKind: e.target.value as 'ethereum' | 'passkey' })}
            >
              <option value="ethereum">Ethereum (wallet or local key)</option>
              <option value="passkey">Passkey</option>
            </select>
          </label>
          <PartySelect
            label="Creator (initial identifier)"
            value={form.creator}
            parties={eligible(parties, 'creator', form.createKind)}
            onChange={(creator) => update({ creator })}
            empty="no signer of this kind"
          />
          <NewSignerButtons registry={registry} kinds={[form.createKind]} onMade={(creator) => update({ creator })} />
          <label className="compose-field">
            <span>Nonce</span>
            <input
              aria-label="Nonce"
              inputMode="numeric"
              value={form.nonce}
              onChange={(e) => update({ nonce: e.target.value })}
              size={22}
            />
          </label>
        </div>
      )
    case 'add':
      return (
        <div className="compose-form">
          <PartySelect
            label="Approved by (existing member or recovery identifier)"
            value={form.existing}
            parties={eligible(parties, 'existing')}
            onChange={(existing) => update({ existing })}
            empty="no member"
          />
          <PartySelect
            label="New member"
            value={form.newMember}
            parties={eligible(parties, 'new_member')}
            onChange={(newMember) => update({ newMember })}
            empty="no signer that is not a member yet"
          />
          <NewSignerButtons
            registry={registry}
            kinds={['installation', 'ethereum', 'passkey']}
            onMade={(newMember) => update({ newMember })}
          />
        </div>
      )
    case 'revoke':
      return (
        <div className="compose-form">
          <label className="compose-field">
            <span>Member to revoke</span>
            <select
              aria-label="Member to revoke"
              value={form.revokeTarget}
              onChange={(e) => update({ revokeTarget: e.target.value })}
            >
              {[...(state?.members.entries() ?? [])].map(([k, m]) => (
                <option key={k} value={k}>
                  {MEMBER_KIND_LABEL[m.id.kind]} {shortId(m.id.text)}
                  {state && state.recovery.id.text === m.id.text ? ' (recovery identifier)' : ''}
                </option>
              ))}
            </select>
          </label>
          <p className="muted small">
            Signed by the recovery identifier,{' '}
            {state ? `${state.recovery.id.kind} ${shortId(state.recovery.id.text)}` : '—'} (IDENT-043).
          </p>
        </div>
      )
    case 'change_recovery_address': {
      const targets = eligible(parties, 'recovery_target').filter((p) => !p.isRecovery)
      return (
        <div className="compose-form">
          <RecoveryTargetFields
            targets={targets}
            target={form.recoveryTarget}
            onTarget={(recoveryTarget) => update({ recoveryTarget })}
            typedKind={form.recoveryTypedKind}
            onTypedKind={(recoveryTypedKind) => update({ recoveryTypedKind })}
            typed={form.recoveryTyped}
            onTyped={(recoveryTyped) => update({ recoveryTyped })}
          />
          <p className="muted small">
            Signed by the current recovery identifier,{' '}
            {state ? `${state.recovery.id.kind} ${shortId(state.recovery.id.text)}` : '—'} (IDENT-045); the new one
            signs nothing.
          </p>
        </div>
      )
    }
    case 'claim_handle':
      return (
        <div className="compose-form">
          <HandleField value={form.handle} onChange={(handle) => update({ handle })} />
          <PartySelect
            label="Signed by (any current member)"
            value={form.claimer}
            parties={eligible(parties, 'claimer')}
            onChange={(claimer) => update({ claimer })}
            empty="no member"
          />
        </div>
      )
  }
}
