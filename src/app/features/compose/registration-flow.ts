/**
 * "Register this browser as an installation", as the app wires it (spec section 8):
 *
 * - the pre-authentication handler the app supplies when it creates its signing client
 *   (IDENT-076) is a gate: calling it shows the app's own prompt and returns a promise
 *   that the user's answer settles. registerInstallation awaits it before any signer is
 *   asked (IDENT-073), never calls it when nothing needs signing (IDENT-074), and a
 *   cancelled prompt fails the handler, so nothing is signed and the registration ends
 *   with a callback failure (IDENT-075);
 * - the client-side installation ceiling (CONF-044) is a setting, default
 *   DEFAULT_MAX_INSTALLATIONS, kept in localStorage;
 * - every progress event and the end of a registration read as one line for the
 *   registration's log, in the order they happened.
 */
import { describeMember } from '../../../core/text/identifier'
import {
  DEFAULT_MAX_INSTALLATIONS,
  RegistrationError,
  type RegistrationProgress,
  type RegistrationResult,
} from '../../../signing'
import { countSetting, type ParsedCount, parseCount } from './count-setting'

// ---- the pre-authentication gate ----------------------------------------------------------

export interface PreAuthPrompt {
  /** Increases with every prompt. */
  readonly id: number
  /** What the prompt tells the user will happen next. */
  readonly message: string
}

/** Thrown by the handler when the user cancels the prompt (IDENT-075 reports it as a callback failure). */
export class PreAuthCancelled extends Error {
  override readonly name = 'PreAuthCancelled'
  constructor(message = 'the user cancelled the pre-authentication prompt') {
    super(message)
  }
}

export interface PreAuthGate {
  /** The handler for createSigningClient({ preAuthenticate }): shows `message()` and waits for the answer. */
  handler(message: () => string): () => Promise<void>
  /** The prompt on screen, or null. */
  readonly current: PreAuthPrompt | null
  /** The user continues: the handler returns, and registration goes on to the signers. */
  confirm(): void
  /** The user cancels: the handler fails with PreAuthCancelled. */
  cancel(): void
}

/** A gate whose prompt state is reported through `onChange` (a React state setter, in the app). */
export function createPreAuthGate(onChange: (prompt: PreAuthPrompt | null) => void): PreAuthGate {
  let current: PreAuthPrompt | null = null
  let settle: { resolve: () => void; reject: (e: Error) => void } | null = null
  let next = 1
  const close = (): void => {
    current = null
    settle = null
    onChange(null)
  }
  return {
    handler: (message) => () =>
      new Promise<void>((resolve, reject) => {
        // A prompt still open (a second registration started) is cancelled first.
        settle?.reject(new PreAuthCancelled('a newer pre-authentication prompt replaced this one'))
        settle = { resolve, reject }
        current = { id: next++, message: message() }
        onChange(current)
      }),
    get current() {
      return current
    },
    confirm() {
      const s = settle
      close()
      s?.resolve()
    },
    cancel() {
      const s = settle
      close()
      s?.reject(new PreAuthCancelled())
    },
  }
}

// ---- the installation ceiling setting (CONF-044) ------------------------------------------

const MAX_CEILING = 1000

/** The ceiling as typed: a whole number from 1 to MAX_CEILING, or why it is not one. */
export function parseCeiling(text: string): ParsedCount {
  return parseCount(text, 'the installation ceiling', MAX_CEILING)
}

/** The ceiling setting (the Settings dialog; the registration and the inbox tasks read it). */
export const CEILING_SETTING = countSetting('inspector.maxInstallations', parseCeiling, () => DEFAULT_MAX_INSTALLATIONS)

// ---- the registration's log ---------------------------------------------------------------

const ROLE_WORDS: Record<string, string> = {
  initial_identifier_signature: 'the creator',
  existing_member_signature: 'the approving member',
  new_member_signature: 'the installation key',
}

/** One line per progress event (null for events not worth a line). */
export function describeProgress(e: RegistrationProgress): string | null {
  switch (e.stage) {
    case 'preauth':
      return 'Pre-authentication prompt shown; no signer has been asked yet (IDENT-073)'
    case 'publishing':
      return 'Publishing the signed update'
    case 'confirming':
      return e.newest !== null && e.newest >= e.sequenceId
        ? `Visible: the newest sequence id is ${e.newest}, not less than the receipt ${e.sequenceId} (IDENT-072)`
        : `Waiting until the update is visible: receipt ${e.sequenceId}, newest ${e.newest ?? 'none'} (read ${e.attempt}, IDENT-072)`
    case 'complete':
      return e.sequenceId === null
        ? 'Complete: nothing needed signing'
        : `Registration complete at sequence id ${e.sequenceId}`
    default: {
      const role = e.stage.slice('signing:'.length)
      const who = `${ROLE_WORDS[role] ?? role.replaceAll('_', ' ')} (${describeMember(e.signer)})`
      switch (e.status.state) {
        case 'requested':
          return `Asked ${who} to sign`
        case 'signed':
          return `Signed by ${who}`
        case 'failed':
          return `${who} did not sign: ${e.status.reason}`
        case 'missing':
          return null
      }
    }
  }
}

/** The end of a registration, in words. */
export function describeOutcome(r: { ok: true; result: RegistrationResult } | { ok: false; error: unknown }): string {
  if (r.ok) {
    return r.result.status === 'already_member'
      ? `This browser's installation key is already a member of inbox ${r.result.inboxId}: nothing was signed, and the pre-authentication prompt was not shown (IDENT-074).`
      : `Registered installation ${r.result.installation.text} in inbox ${r.result.inboxId} at sequence id ${r.result.sequenceId}; visible at ${r.result.visibleAt} (IDENT-072).`
  }
  const e = r.error
  if (e instanceof RegistrationError) {
    switch (e.code) {
      case 'callback_failed':
        return `Callback failure (IDENT-075): ${e.message}. Nothing was signed.`
      case 'installation_ceiling':
        return `Stopped by the installation ceiling: ${e.message}.`
      case 'rejected':
        return `Not signed: ${e.message}.`
      case 'signature_failed':
        return `Not published: ${e.message}.`
      case 'publish_failed':
        return `Signed, not published: ${e.message}.`
      case 'visibility_timeout':
        return `Published, not complete: ${e.message}.`
    }
  }
  return `The registration failed: ${e instanceof Error ? e.message : String(e)}`
}
