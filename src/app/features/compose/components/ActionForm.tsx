/** The composer's form for the chosen action: who signs and what the action names. */
import { membersInOrder } from '../../../../core/member-order'
import { memberKey, type AssociationState } from '../../../../core/types'
import type { SignerRegistry } from '../../../model/app-signer'
import { MEMBER_KIND_LABEL, shortId } from '../../../ui/format'
import { eligible } from '../parties'
import type { useComposer } from '../useComposer'
import { HandleField, NewSignerButtons, PartySelect, RecoveryTargetFields } from './fields'

/** The form field that keeps the party chosen for each signer slot of these forms. */
const SLOT_FIELD = { creator: 'creator', existing: 'existing', new_member: 'newMember', claimer: 'claimer' } as const

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
  /** The select of a signer slot: the parties eligible for it (`empty` when none), the choice kept in its form field. */
  const slotSelect = (slot: keyof typeof SLOT_FIELD, label: string, empty: string) => (
    <PartySelect
      label={label}
      value={form[SLOT_FIELD[slot]]}
      parties={eligible(parties, slot, form.createKind)}
      onChange={(ref) => update({ [SLOT_FIELD[slot]]: ref })}
      empty={empty}
    />
  )
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
          {slotSelect('creator', 'Creator (initial identifier)', 'no signer of this kind')}
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
          {slotSelect('existing', 'Approved by (existing member or recovery identifier)', 'no member')}
          {slotSelect('new_member', 'New member', 'no signer that is not a member yet')}
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
              {(state ? membersInOrder(state) : []).map((m) => (
                <option key={memberKey(m.id)} value={memberKey(m.id)}>
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
          {slotSelect('claimer', 'Signed by (any current member)', 'no member')}
        </div>
      )
  }
}
