/**
 * "Register this browser as an installation" (spec section 8): adds an installation key
 * to an inbox, signed by an authorizer (a wallet or a passkey, the existing member) and by
 * the installation key itself (the new member); for a new inbox, in the same update as
 * its CreateInbox.
 *
 *   const client = createSigningClient({ preAuthenticate: () => showPrompt() })   // IDENT-076
 *   await client.registerInstallation({ state, installation, authorizer, publish, queryNewest })
 *
 * Order of a registration:
 *   1. already a member of `state`: nothing to sign or publish, complete; the
 *      pre-authentication handler is not called (IDENT-074)
 *   2. the client-side installation ceiling (CONF-044): refuse at `maxInstallations`
 *   3. draft and dry-run against `state`: a draft the core rejects is refused, unsigned
 *   4. the pre-authentication handler, awaited, before any signer is asked (IDENT-073);
 *      when it fails nothing is signed: RegistrationError 'callback_failed' (IDENT-075)
 *   5. the signatures (collect.ts: each verified against the text), then the whole update
 *      verified and applied by the core once more
 *   6. publish (a seam: the network issue passes the node client)
 *   7. completion only once a QueryNewest shows a sequence id not less than the publish
 *      receipt (IDENT-072); polled, bounded by `timeoutMs`: 'visibility_timeout' otherwise
 */
import { applyUpdate, RejectedUpdate } from '../core/apply/update'
import { decodeUpdate } from '../core/decode/update'
import type { RuleId } from '../core/rules'
import { memberKey, type AssociationState, type MemberId, type SignatureRole } from '../core/types'
import type { SmartWalletVerifier } from '../core/verify/port'
import { verifyUpdate } from '../core/verify/update'
import { sleep, systemClock, type Clock } from './clock'
import { createCollector, type RoleEntry, type RoleStatus } from './collect'
import { addMember, createInbox, draftUpdate, type Draft, type SignedUpdate } from './draft'
import { dryRun } from './dry-run'
import type { InstallationKeySigner, Signer } from './signers'

/** CONF-044's default published ceiling. */
export const DEFAULT_MAX_INSTALLATIONS = 10

export type RegistrationErrorCode =
  /** The pre-authentication handler failed (IDENT-075); nothing was signed. */
  | 'callback_failed'
  /** The state holds maxInstallations installations or more (CONF-044); nothing was signed. */
  | 'installation_ceiling'
  /** The core rejects the registration against the state (dry run); nothing was signed. */
  | 'rejected'
  /** A signer refused, timed out, or returned a signature that is not accepted; nothing was published. */
  | 'signature_failed'
  /** publish failed; the update may or may not have been stored. */
  | 'publish_failed'
  /** Published (receipt in `sequenceId`), but no QueryNewest showed it within timeoutMs (IDENT-072). */
  | 'visibility_timeout'

export interface RegistrationErrorDetails {
  readonly installations?: number
  readonly ceiling?: number
  readonly rule?: RuleId
  readonly actionIndex?: number | null
  readonly roles?: readonly RoleEntry[]
  /** The publish receipt (visibility_timeout). */
  readonly sequenceId?: bigint
  /** The newest sequence id the last QueryNewest returned (visibility_timeout). */
  readonly newest?: bigint | null
  /** The signed update (publish_failed, visibility_timeout). */
  readonly signed?: SignedUpdate
}

export class RegistrationError extends Error {
  override readonly name = 'RegistrationError'
  constructor(
    readonly code: RegistrationErrorCode,
    message: string,
    readonly details: RegistrationErrorDetails = {},
    options?: { cause?: unknown },
  ) {
    super(message, options)
  }
}

export type RegistrationProgress =
  | { readonly stage: 'preauth' }
  | {
      readonly stage: `signing:${SignatureRole}`
      readonly actionIndex: number
      readonly signer: MemberId
      readonly status: RoleStatus
    }
  | { readonly stage: 'publishing' }
  | {
      readonly stage: 'confirming'
      readonly sequenceId: bigint
      readonly newest: bigint | null
      readonly attempt: number
    }
  | { readonly stage: 'complete'; readonly sequenceId: bigint | null }

interface PublishReceipt {
  readonly sequenceId: bigint
}

export interface RegisterInstallationParams {
  /** The inbox's association state at the highest sequence id the client holds; null: create a new inbox. */
  readonly state: AssociationState | null
  /** The installation key to register (new_member_signature). */
  readonly installation: InstallationKeySigner
  /** The wallet or passkey that approves it (existing_member_signature; the creator of a new inbox). */
  readonly authorizer: Signer
  /** IDENT-076: the app's pre-authentication handler (a client's, when called through createSigningClient). */
  readonly preAuthenticate?: () => void | Promise<void>
  /** CONF-044 ceiling; default 10. */
  readonly maxInstallations?: number
  /** Publishes the update's bytes to the inbox's identity topic; resolves with the receipt. */
  readonly publish: (bytes: Uint8Array, update: SignedUpdate) => Promise<PublishReceipt>
  /** A metadata-only QueryNewest on the inbox's identity topic: its newest sequence id, or null. */
  readonly queryNewest: (inboxId: string) => Promise<bigint | null>
  /** Between QueryNewest polls; default 500 ms. */
  readonly pollIntervalMs?: number
  /** Visibility budget from the receipt on; default 30 000 ms. */
  readonly timeoutMs?: number
  /** Per-signer answer limit; default none. */
  readonly signerTimeoutMs?: number
  /** Nonce of a new inbox's CreateInbox; default 0. */
  readonly nonce?: bigint
  /** Default: the clock's now, in nanoseconds. */
  readonly clientTimestampNs?: bigint
  readonly clock?: Clock
  readonly smartWallets?: SmartWalletVerifier
  readonly onProgress?: (event: RegistrationProgress) => void
}

export interface RegistrationResult {
  /** 'registered': published and visible; 'already_member': nothing was needed (IDENT-074). */
  readonly status: 'registered' | 'already_member'
  readonly inboxId: string
  readonly installation: MemberId
  /** The publish receipt; null when nothing was published. */
  readonly sequenceId: bigint | null
  /** The newest sequence id the confirming QueryNewest returned. */
  readonly visibleAt: bigint | null
  /** The signed update; null when nothing was signed. */
  readonly signed: SignedUpdate | null
  /** The state after the registration, applied by the core at the receipt's sequence id. */
  readonly state: AssociationState
}

/** The installation members of a state (CONF-044 counts these). */
export function installationCount(state: AssociationState | null): number {
  let n = 0
  for (const m of state?.members.values() ?? []) if (m.id.kind === 'installation') n++
  return n
}

const messageOf = (e: unknown): string => (e instanceof Error ? e.message : String(e))

export async function registerInstallation(p: RegisterInstallationParams): Promise<RegistrationResult> {
  const clock = p.clock ?? systemClock
  const emit = (e: RegistrationProgress): void => p.onProgress?.(e)
  const { state, installation, authorizer } = p
  const installationId = installation.identifier

  // IDENT-074: already a member of the state: the registration needs no identity-update
  // signature, so nothing is signed or published and the handler is not called.
  if (state?.members.has(memberKey(installationId))) {
    emit({ stage: 'complete', sequenceId: null })
    return {
      status: 'already_member',
      inboxId: state.inboxId,
      installation: installationId,
      sequenceId: null,
      visibleAt: state.sequenceId,
      signed: null,
      state,
    }
  }

  // CONF-044: the client-side installation ceiling, counted in the state the client resolved.
  const ceiling = p.maxInstallations ?? DEFAULT_MAX_INSTALLATIONS
  const count = installationCount(state)
  if (count >= ceiling) {
    throw new RegistrationError(
      'installation_ceiling',
      `inbox ${state?.inboxId ?? ''} already has ${count} installation${count === 1 ? '' : 's'}, and this client registers no more than ${ceiling} (CONF-044); revoke an installation first`,
      { installations: count, ceiling },
    )
  }

  const clientTimestampNs = p.clientTimestampNs ?? BigInt(Math.floor(clock.now())) * 1_000_000n
  const draft: Draft = state
    ? draftUpdate({ inboxId: state.inboxId, clientTimestampNs, actions: [addMember(authorizer, installation)] })
    : draftUpdate({
        clientTimestampNs,
        actions: [createInbox(authorizer, { nonce: p.nonce ?? 0n }), addMember(authorizer, installation)],
      })

  // The core judges the draft before anyone is asked anything.
  const dry = await dryRun(state, draft, p.smartWallets ? { smartWallets: p.smartWallets } : {})
  if (!dry.ok) {
    throw new RegistrationError('rejected', `the registration would be rejected under ${dry.rule}: ${dry.message}`, {
      rule: dry.rule,
      actionIndex: dry.actionIndex,
    })
  }

  // IDENT-073: the handler runs and finishes before any signer is asked to sign.
  if (p.preAuthenticate) {
    emit({ stage: 'preauth' })
    try {
      await p.preAuthenticate()
    } catch (e) {
      // IDENT-075: a failed handler ends the registration; no signer is asked.
      throw new RegistrationError(
        'callback_failed',
        `the pre-authentication handler failed: ${messageOf(e)}`,
        {},
        { cause: e },
      )
    }
  }

  const collector = createCollector(draft, [], {
    clock,
    ...(p.signerTimeoutMs !== undefined ? { timeoutMs: p.signerTimeoutMs } : {}),
    ...(p.smartWallets ? { smartWallets: p.smartWallets } : {}),
    onStatus: (_roles, r) =>
      emit({ stage: `signing:${r.role}`, actionIndex: r.actionIndex, signer: r.signer, status: r.status }),
  })
  const collected = await collector.run()
  if (!collected.ok) {
    const why = [...collected.failed, ...collected.missing]
      .map((r) => `${r.role.replaceAll('_', ' ')}: ${r.status.state === 'failed' ? r.status.reason : r.status.state}`)
      .join('; ')
    throw new RegistrationError('signature_failed', `the registration was not signed: ${why}`, {
      roles: collected.roles,
    })
  }
  const signed = collected.signed

  // The exact bytes to publish, judged by the core once more (decode → verify → apply).
  const verified = await verifyUpdate(
    decodeUpdate(signed.bytes),
    p.smartWallets ? { smartWallets: p.smartWallets } : {},
  )
  try {
    applyUpdate(state, verified, dry.after.sequenceId)
  } catch (e) {
    if (e instanceof RejectedUpdate) {
      throw new RegistrationError(
        'rejected',
        `the signed registration is rejected under ${e.violation.rule}: ${e.violation.message}`,
        { rule: e.violation.rule, actionIndex: e.violation.actionIndex, signed },
        { cause: e },
      )
    }
    throw new RegistrationError(
      'signature_failed',
      `the signed registration cannot be judged: ${messageOf(e)}`,
      { signed },
      { cause: e },
    )
  }

  emit({ stage: 'publishing' })
  let receipt: PublishReceipt
  try {
    receipt = await p.publish(signed.bytes, signed)
  } catch (e) {
    throw new RegistrationError(
      'publish_failed',
      `publishing the registration failed: ${messageOf(e)}`,
      { signed },
      { cause: e },
    )
  }

  // IDENT-072: complete only once QueryNewest shows a sequence id not less than the receipt.
  const inboxId = draft.inboxId
  const interval = p.pollIntervalMs ?? 500
  const budget = p.timeoutMs ?? 30_000
  const deadline = clock.now() + budget
  let newest: bigint | null = null
  let lastError: unknown
  for (let attempt = 1; ; attempt++) {
    try {
      newest = await p.queryNewest(inboxId)
      lastError = undefined
    } catch (e) {
      lastError = e // a failed read is not a visible registration; keep polling
    }
    emit({ stage: 'confirming', sequenceId: receipt.sequenceId, newest, attempt })
    if (newest !== null && newest >= receipt.sequenceId) break
    if (clock.now() + interval > deadline) {
      throw new RegistrationError(
        'visibility_timeout',
        `the registration was published at sequence id ${receipt.sequenceId}, but after ${attempt} QueryNewest read${attempt === 1 ? '' : 's'} over ${budget} ms the newest sequence id visible is ${newest ?? 'none'}${lastError !== undefined ? ` (last read failed: ${messageOf(lastError)})` : ''}; it is not yet visible to other clients`,
        { sequenceId: receipt.sequenceId, newest, signed },
        lastError !== undefined ? { cause: lastError } : undefined,
      )
    }
    await sleep(clock, interval)
  }

  const after = applyUpdate(state, verified, receipt.sequenceId).state
  emit({ stage: 'complete', sequenceId: receipt.sequenceId })
  return {
    status: 'registered',
    inboxId,
    installation: installationId,
    sequenceId: receipt.sequenceId,
    visibleAt: newest,
    signed,
    state: after,
  }
}

export interface SigningClientOptions {
  /** IDENT-076: called before any signer is asked to sign a registration (IDENT-073). */
  readonly preAuthenticate?: () => void | Promise<void>
  /** CONF-044; default 10. */
  readonly maxInstallations?: number
  readonly clock?: Clock
  readonly smartWallets?: SmartWalletVerifier
}

export interface SigningClient {
  readonly maxInstallations: number
  /** registerInstallation with the client's handler, ceiling, clock and verifier (parameters may override the ceiling). */
  registerInstallation(params: Omit<RegisterInstallationParams, 'preAuthenticate'>): Promise<RegistrationResult>
}

/** IDENT-076: the app supplies its pre-authentication handler when it creates the client. */
export function createSigningClient(options: SigningClientOptions = {}): SigningClient {
  const maxInstallations = options.maxInstallations ?? DEFAULT_MAX_INSTALLATIONS
  return {
    maxInstallations,
    registerInstallation(params) {
      return registerInstallation({
        maxInstallations,
        ...(options.clock ? { clock: options.clock } : {}),
        ...(options.smartWallets ? { smartWallets: options.smartWallets } : {}),
        ...params,
        ...(options.preAuthenticate ? { preAuthenticate: options.preAuthenticate } : {}),
      })
    },
  }
}
