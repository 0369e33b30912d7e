/**
 * SignerError: why a signer did not produce an accepted signature. One error type for
 * every signer (local key, wallet, passkey) and for the checks collect.ts runs on what a
 * signer returned; `code` is stable and machine-readable, `message` says what happened.
 */
import { CodedError } from '../crypto/errors'

export type SignerErrorCode =
  /** The user refused the prompt (EIP-1193 4001, WebAuthn NotAllowedError). */
  | 'user_rejected'
  /** The signer did not answer within the time allowed. */
  | 'timeout'
  /** The signature verifies, but to another signer than the one planned (a wallet on another account). */
  | 'wrong_signer'
  /** The signature does not verify over the signature text. */
  | 'invalid_signature'
  /** The signature could not be judged (a smart contract wallet whose chain is unreachable, IDENT-061). */
  | 'unverifiable'
  /** The signer answered with something that is not a signature of its kind. */
  | 'bad_response'
  /** The wallet has not authorized this site for the account (EIP-1193 4100). */
  | 'unauthorized'
  /** No usable signer: a planned signer stands in the draft and none was supplied for it. */
  | 'no_signer'
  /** Any other failure of the wallet or authenticator. */
  | 'signer_error'

export class SignerError extends CodedError<SignerErrorCode> {
  override readonly name = 'SignerError'
}

/** The EIP-1193 / JSON-RPC error code of a thrown value, if it carries one. */
function codeOf(e: unknown): number | undefined {
  if (typeof e !== 'object' || e === null) return undefined
  const c = (e as { code?: unknown }).code
  if (typeof c === 'number') return c
  const cause = (e as { cause?: unknown }).cause
  return cause !== e ? codeOf(cause) : undefined
}

function nameOf(e: unknown, depth = 0): string | undefined {
  if (typeof e !== 'object' || e === null || depth > 3) return undefined
  const n = (e as { name?: unknown }).name
  if (n === 'NotAllowedError' || n === 'AbortError') return n
  return nameOf((e as { cause?: unknown }).cause, depth + 1)
}

const messageOf = (e: unknown): string =>
  e instanceof Error ? e.message : typeof e === 'string' ? e : (JSON.stringify(e) ?? String(e))

/**
 * Any thrown value as a SignerError: a SignerError as is; EIP-1193 4001 and WebAuthn's
 * NotAllowedError (cancelled or timed out prompt) as `user_rejected`; 4100 as `unauthorized`.
 */
export function toSignerError(e: unknown): SignerError {
  if (e instanceof SignerError) return e
  const code = codeOf(e)
  if (code === 4001) return new SignerError('user_rejected', 'user rejected the request', { cause: e })
  if (code === 4100)
    return new SignerError('unauthorized', `the wallet has not authorized this account: ${messageOf(e)}`, { cause: e })
  const name = nameOf(e)
  if (name === 'NotAllowedError')
    return new SignerError('user_rejected', `user rejected the request (or the prompt timed out): ${messageOf(e)}`, {
      cause: e,
    })
  if (name === 'AbortError')
    return new SignerError('user_rejected', `the request was aborted: ${messageOf(e)}`, { cause: e })
  return new SignerError('signer_error', messageOf(e), { cause: e })
}
