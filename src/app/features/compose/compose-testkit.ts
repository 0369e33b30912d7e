/**
 * For the composer's and the inbox tasks' tests: the test keys (src/signing/testkit), the
 * signers of this browser that hold them, and the inboxes built from them.
 */
import type { AssociationState } from '../../../core/types'
import {
  addMember,
  claimHandle,
  createInbox,
  dryRun,
  ethKeySigner,
  inboxIdOf,
  installationKeySigner,
  passkeySigner,
  type Signer,
} from '../../../signing'
import { buildState, T0, testKey } from '../../../signing/testkit'
import type { AppSigner, AppSignerSource } from '../../model/app-signer'
import { type ComposeForm, EMPTY_FORM, withDefaults } from './compose-form'
import { buildDraft } from './compose-model'
import type { Party } from './parties'
import { signGate, slotViews } from './sign-gate'

export const wallet = ethKeySigner(testKey('wallet'))
export const otherWallet = ethKeySigner(testKey('other wallet'))
/** Installation keys 1 to 4. */
export const installationKeys = [1, 2, 3, 4].map((i) => installationKeySigner(testKey(`installation ${i}`)))
export const passkey = passkeySigner(testKey('passkey'), { origin: 'http://localhost:4173' })

/** A signer this browser holds; wallets and passkeys prompt. */
export const heldSigner = (source: AppSignerSource, signer: Signer, label: string): AppSigner => ({
  id: `${source}:${signer.identifier.text}`,
  source,
  label,
  identifier: signer.identifier,
  signer,
  interactive: source === 'wallet' || source === 'passkey',
})

export const inst1 = installationKeys[0]!
export const inst2 = installationKeys[1]!
/** The held signers the compose tests pick from: the wallet, installations one and two, the passkey. */
export const W = heldSigner('wallet', wallet, 'E2E Wallet')
export const I1 = heldSigner('installation', inst1, 'installation one')
export const I2 = heldSigner('installation', inst2, 'installation two')
export const P = heldSigner('passkey', passkey, 'passkey laptop')

/**
 * An inbox created by `wallet` (its recovery identifier), with `installations` added by it
 * newest first (the last one has the oldest client time) and the handle `nick`.
 */
export async function inboxWithHandle(installations: readonly Signer[]): Promise<AssociationState> {
  const id = inboxIdOf(wallet, 0n)
  return buildState([
    () => ({ clientTimestampNs: T0, actions: [createInbox(wallet)] }),
    ...installations.map((s, i) => () => ({
      inboxId: id,
      clientTimestampNs: T0 + 10n - BigInt(i),
      actions: [addMember(wallet, s)],
    })),
    () => ({ inboxId: id, clientTimestampNs: T0 + 20n, actions: [claimHandle('nick', wallet)] }),
  ])
}

/** An inbox created by `wallet` with installation 1 added by it. */
export async function smallInbox(): Promise<AssociationState> {
  const id = inboxIdOf(wallet, 0n)
  return buildState([
    () => ({ clientTimestampNs: T0, actions: [createInbox(wallet)] }),
    () => ({ inboxId: id, clientTimestampNs: T0 + 1n, actions: [addMember(wallet, installationKeys[0]!)] }),
  ])
}

/** The empty form with `f` filled in and its defaults. */
export function formOf(
  state: AssociationState | null,
  parties: readonly Party[],
  f: Partial<ComposeForm>,
): ComposeForm {
  return withDefaults({ ...EMPTY_FORM, ...f }, state, parties)
}

/** The add form with its defaults, then `existing` approving `newMember` (party refs). */
export function addForm(
  state: AssociationState | null,
  parties: readonly Party[],
  existing: string,
  newMember: string,
): ComposeForm {
  return { ...formOf(state, parties, { action: 'add' }), existing, newMember }
}

/** The form's draft, its dry run, its slots and the Sign gate. */
export async function gateOf(
  state: AssociationState | null,
  parties: readonly Party[],
  f: ComposeForm,
  confirmedFor: string | null = null,
) {
  const build = buildDraft(f, { state, parties, clientTimestampNs: T0 + 10n })
  const dry = build.draft ? await dryRun(state, build.draft) : null
  const slots = build.draft ? slotViews(build.draft, parties, null) : []
  return { build, dry, slots, gate: signGate({ build, dry, confirmedFor, slots, busy: false }) }
}
