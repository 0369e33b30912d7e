/**
 * A signer check: signs a short text that is not an identity update's signature text (it
 * does not start with "XMTP : Authenticate to inbox", spec section 4, so it can approve
 * nothing) and verifies the answer with the core's own verifier, as a validator would:
 * a wallet on another account, a passkey that answered for another credential or a
 * signature that does not verify are each named.
 */
import { utf8 } from '../../../crypto'
import { SignedText, verifySignature, type VerifyContext } from '../../../core/verify/signature'
import type { AppSigner } from '../../model/app-signer'
import { toSignerError, type SignerErrorCode } from '../../../signing/errors'

export type SignerCheck =
  | { readonly ok: true; readonly text: string; readonly kind: string; readonly signer: string }
  | { readonly ok: false; readonly text: string; readonly code: SignerErrorCode; readonly message: string }

export function checkText(now: Date): string {
  return `Inbox Inspector signer check\n\nThis signature approves nothing: it only checks that this signer works.\nTime: ${now.toISOString()}`
}

/** `ctx` carries the smart wallet verifier (the chain routes) for erc_6492 signers; without it they cannot be judged. */
export async function checkSigner(s: AppSigner, now: Date = new Date(), ctx: VerifyContext = {}): Promise<SignerCheck> {
  const text = checkText(now)
  let sig
  try {
    sig = await s.signer.sign(text)
  } catch (e) {
    const err = toSignerError(e)
    return { ok: false, text, code: err.code, message: err.message }
  }
  const v = await verifySignature(sig, new SignedText(text, utf8(text)), ctx)
  if (v.verdict !== 'valid')
    return {
      ok: false,
      text,
      code: 'invalid_signature',
      message: `the ${sig.kind} signature does not verify: ${v.reason ?? v.verdict}`,
    }
  const by = v.signer
  if (!by || by.kind !== s.identifier.kind || by.text !== s.identifier.text) {
    return {
      ok: false,
      text,
      code: 'wrong_signer',
      message: `the signature verifies, but to ${by ? `${by.kind} ${by.text}` : 'no signer'}, not to ${s.identifier.text}`,
    }
  }
  return { ok: true, text, kind: sig.kind, signer: by.text }
}
