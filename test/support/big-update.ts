/**
 * One large signed update for the hostile-input tests and benches: a CreateInbox by a
 * wallet, then `adds` installation adds it signs (each new installation key signs too),
 * and with `claim`, a ClaimHandle, which IDENT-079 refuses (a claim stands alone). Every
 * key is SHA-256 of `prefix` and a label, so the bytes are the same on every run.
 */
import { deriveInboxId } from '../../src/core/inbox-id'
import { utf8 } from '../../src/crypto/bytes'
import { sha256 } from '../../src/crypto/hash'
import {
  addMember,
  claimHandle,
  createInbox,
  type DraftAction,
  ethKeySigner,
  installationKeySigner,
  signUpdate,
} from '../../src/signing'

export async function signedBigUpdate(
  prefix: string,
  adds: number,
  opts: { readonly claim?: boolean; readonly wallet?: string } = {},
): Promise<Uint8Array> {
  const key = (label: string) => sha256(utf8(`${prefix}${label}`))
  const wallet = ethKeySigner(key(opts.wallet ?? 'wallet'))
  const inboxId = deriveInboxId(wallet.identifier.text, 0n)
  const actions: DraftAction[] = [createInbox(wallet)]
  for (let i = 0; i < adds; i++) actions.push(addMember(wallet, installationKeySigner(key(`inst-${i}`))))
  if (opts.claim) actions.push(claimHandle('hostile', wallet))
  return (await signUpdate({ inboxId, clientTimestampNs: 1_750_000_000_000_000_000n, actions })).bytes
}
