/**
 * The composer's React state, a thin hook over compose-model.ts and useSignDraft: the
 * form and the draft it builds (with a client time fixed while the draft is shown, since
 * it is part of the signed text); dry run, confirmation, collection and append are
 * useSignDraft's.
 */
import { useCallback, useMemo, useState } from 'react'
import type { AssociationState } from '../../../core/types'
import type { SmartWalletVerifier } from '../../../core/verify/port'
import type { SignerRegistry } from '../../model/app-signer'
import { afterSigned, EMPTY_FORM, withDefaults, type ComposeForm } from './compose-form'
import { buildDraft } from './compose-model'
import { partiesOf } from './parties'
import { laterClientTime } from './sign-gate'
import { type AppendOutcome, type AppendUpdate, useSignDraft } from './useSignDraft'

export const nowNs = (): bigint => BigInt(Date.now()) * 1_000_000n

export function useComposer(opts: {
  state: AssociationState | null
  registry: SignerRegistry
  onAppend: AppendUpdate
  /** Judges erc_6492 signatures (dry run of carried ones, every returned one); without it they are unverifiable (IDENT-061). */
  smartWallets?: SmartWalletVerifier | undefined
}) {
  const { state, registry, onAppend, smartWallets } = opts
  const [rawForm, setForm] = useState<ComposeForm>(EMPTY_FORM)
  const [clientTimestampNs, setTimestamp] = useState<bigint>(nowNs)
  const parties = useMemo(() => partiesOf(state, registry.signers), [state, registry.signers])
  const form = useMemo(() => withDefaults(rawForm, state, parties), [rawForm, state, parties])
  const build = useMemo(
    () => buildDraft(form, { state, parties, clientTimestampNs }),
    [form, state, parties, clientTimestampNs],
  )
  const onSigned = useCallback((appended: AppendOutcome) => {
    // Appended: the same update is not drafted again (its subject is cleared).
    if (appended.ok) setForm(afterSigned)
    // A new draft gets a new client time (the signed one is in the log now), in another
    // second than the signed one: the text shows seconds (IDENT-050, see laterClientTime).
    setTimestamp((signed) => laterClientTime(signed, nowNs()))
  }, [])
  const s = useSignDraft({
    state,
    registry,
    parties,
    build,
    onAppend,
    smartWallets,
    claimHandle: build.action === 'claim_handle' ? rawForm.handle.trim() : null,
    onSigned,
  })
  const update = useCallback((patch: Partial<ComposeForm>) => setForm((f) => ({ ...f, ...patch })), [])

  return {
    ...s,
    form,
    update,
    parties,
    build,
    draft: build.draft,
    clientTimestampNs,
    restamp: () => setTimestamp(nowNs()),
  }
}
