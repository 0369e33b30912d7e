/**
 * Signed updates for the devnode tests, built with src/signing from deterministic test
 * keys (SHA-256 of a label). Each test file uses its own labels so inboxes never collide.
 */
import { BinaryReader, BinaryWriter, type WireType } from '@bufbuild/protobuf/wire'
import { sha256, utf8 } from '../../src/crypto'
import {
  addMember,
  claimHandle,
  createInbox,
  ethKeySigner,
  inboxIdOf,
  installationKeySigner,
  passkeySigner,
  revokeMember,
  signUpdate,
  smartWalletSigner,
  type DraftAction,
  type Signer,
} from '../../src/signing'
import { fakeSmartWalletSignature } from '../fixtures/fake-smart-wallet'

const key = (label: string) => sha256(utf8(`devnode test key: ${label}`))

export const wallet = (label: string): Signer => ethKeySigner(key(`wallet ${label}`))
/** The 32-byte Ed25519 seed of installation(label) (its MLS key packages are signed with it). */
export const installationSeed = (label: string): Uint8Array => key(`installation ${label}`)
export const installation = (label: string) => installationKeySigner(installationSeed(label))
export const passkey = (label: string) => passkeySigner(key(`passkey ${label}`), { origin: 'http://localhost:5173' })

/** A smart contract wallet the fixture corpus's fake verifier accepts (test/fixtures/fake-smart-wallet.ts). */
export function smartWallet(address: string, blockNumber: bigint, chainId = 1n): Signer {
  return smartWalletSigner({
    chainId,
    address,
    blockNumber,
    signature: (hash) => fakeSmartWalletSignature(hash, address),
  })
}

let clock = 1_720_000_000_000_000_000n
const nextTimestamp = (): bigint => (clock += 1_000_000_000n)

export interface Built {
  readonly inboxId: string
  readonly bytes: Uint8Array
}

export async function update(inboxId: string | undefined, ...actions: DraftAction[]): Promise<Built> {
  const u = await signUpdate({
    ...(inboxId === undefined ? {} : { inboxId }),
    clientTimestampNs: nextTimestamp(),
    actions,
  })
  return { inboxId: u.update.inboxId, bytes: u.bytes }
}

/** CreateInbox by `w` (nonce), with `install` added in the same update when given. */
export async function newInbox(w: Signer, opts: { nonce?: bigint; install?: Signer } = {}): Promise<Built> {
  const nonce = opts.nonce ?? 0n
  const actions: DraftAction[] = [createInbox(w, { nonce })]
  if (opts.install) actions.push(addMember(w, opts.install))
  const built = await update(undefined, ...actions)
  if (built.inboxId !== inboxIdOf(w, nonce)) throw new Error('inbox id mismatch')
  return built
}

export const claim = (inboxId: string, handle: string, signer: Signer) => update(inboxId, claimHandle(handle, signer))
export const add = (inboxId: string, existing: Signer, member: Signer) => update(inboxId, addMember(existing, member))
export const revoke = (inboxId: string, member: Signer, recovery: Signer) =>
  update(inboxId, revokeMember(member, recovery))

/**
 * The same IdentityUpdate with its top-level fields in descending field order (inbox_id,
 * then client_timestamp_ns, then the actions in their order): still valid, since signatures cover the fields and
 * not the bytes, but not the canonical encoding, so a node that re-encodes is caught.
 */
export function reorderFields(bytes: Uint8Array): Uint8Array {
  const r = new BinaryReader(bytes)
  const fields: { no: number; wt: WireType; raw: Uint8Array }[] = []
  while (r.pos < r.len) {
    const [no, wt] = r.tag()
    const start = r.pos
    r.skip(wt, no)
    fields.push({ no, wt, raw: bytes.subarray(start, r.pos) })
  }
  const w = new BinaryWriter()
  // Stable: the actions (field 1) keep their order.
  for (const f of [...fields].sort((a, b) => b.no - a.no)) {
    w.tag(f.no, f.wt)
    w.raw(f.raw)
  }
  return w.finish()
}
