/**
 * A valid synthetic inbox log of any length, signed with local keys (src/signing), for
 * the replay performance test and the transfer-format unit tests. Deterministic: the
 * same `n` gives the same bytes.
 *
 * Shape: a wallet creates the inbox; then, repeating, the wallet adds installations, a
 * passkey, the installations claim handles (at most 60 claims, IDENT-080), the recovery
 * identifier revokes an installation every fifth update, and halfway the recovery
 * identifier rotates to a second wallet. So every action kind appears and the member
 * set grows to about 0.6·n.
 */
import { encodeBundleJson, encodeUpdate } from '../src/core/encode/update'
import { deriveInboxId } from '../src/core/inbox-id'
import { signatureText } from '../src/core/text/signature-text'
import type { WireAction, WireSignature } from '../src/core/types'
import { ethKeySigner, installationKeySigner, passkeySigner, type Signer } from '../src/signing/signers'

const PLACEHOLDER: WireSignature = { kind: 'erc_191', bytes: new Uint8Array(65) }

function key(seed: number, salt: number): Uint8Array {
  const k = new Uint8Array(32)
  k[0] = 0x10 + salt
  k[1] = 1
  k[28] = (seed >>> 24) & 0xff
  k[29] = (seed >>> 16) & 0xff
  k[30] = (seed >>> 8) & 0xff
  k[31] = seed & 0xff
  return k
}

type Draft = { build: (s: WireSignature[]) => WireAction; signers: Signer[] }

export interface SyntheticOptions {
  /** Make update `rejectAt` (1-based sequence id) fail IDENT-040 (a new member signature by the wrong key). */
  readonly rejectAt?: number
  /** The passkey's origin (its relying party and client data origin); default https://inbox.example. */
  readonly passkeyOrigin?: string
}

interface SyntheticLog {
  readonly inboxId: string
  readonly updates: { sequenceId: bigint; bytes: Uint8Array }[]
}

async function syntheticLog(n: number, options: SyntheticOptions = {}): Promise<SyntheticLog> {
  const w0 = ethKeySigner(key(1, 1))
  const w1 = ethKeySigner(key(2, 1))
  const passkey = passkeySigner(key(3, 2), { origin: options.passkeyOrigin ?? 'https://inbox.example' })
  const inboxId = deriveInboxId(w0.identifier.text, 0n)
  const live: Signer[] = []
  let recovery: Signer = w0
  let claims = 0
  let nextInstallation = 1
  const updates: SyntheticLog['updates'] = []
  for (let seq = 1; seq <= n; seq++) {
    let draft: Draft
    if (seq === 1) {
      draft = {
        signers: [w0],
        build: ([s]) => ({
          kind: 'create_inbox',
          initialIdentifier: w0.identifier.text,
          nonce: 0n,
          initialIdentifierKind: 1,
          initialIdentifierSignature: s!,
        }),
      }
    } else if (seq === 3) {
      draft = {
        signers: [w0, passkey],
        build: ([a, b]) => ({
          kind: 'add',
          newMemberIdentifier: { kind: 'passkey', key: passkey.publicKey, relyingParty: passkey.origin },
          existingMemberSignature: a!,
          newMemberSignature: b!,
        }),
      }
    } else if (seq === Math.floor(n / 2) && seq > 3) {
      const from = recovery
      recovery = w1
      draft = {
        signers: [from],
        build: ([s]) => ({
          kind: 'change_recovery_address',
          newRecoveryIdentifier: w1.identifier.text,
          newRecoveryIdentifierKind: 1,
          existingRecoveryIdentifierSignature: s!,
        }),
      }
    } else if (seq % 5 === 0 && live.length > 2) {
      const victim = live.splice(Math.floor(live.length / 2), 1)[0]!
      draft = {
        signers: [recovery],
        build: ([s]) => ({
          kind: 'revoke',
          memberToRevoke: { kind: 'installation', key: (victim as ReturnType<typeof installationKeySigner>).publicKey },
          recoveryIdentifierSignature: s!,
        }),
      }
    } else if (seq % 7 === 0 && claims < 60 && live.length > 0) {
      claims++
      const by = live[live.length - 1]!
      const handle = `user${claims}`
      draft = { signers: [by], build: ([s]) => ({ kind: 'claim_handle', handle, signature: s! }) }
    } else {
      const inst = installationKeySigner(key(nextInstallation++, 3))
      live.push(inst)
      const wrong = options.rejectAt === seq ? installationKeySigner(key(999_999, 4)) : inst
      const adder = seq % 2 === 0 ? w0 : passkey
      draft = {
        signers: [adder, wrong],
        build: ([a, b]) => ({
          kind: 'add',
          newMemberIdentifier: { kind: 'installation', key: inst.publicKey },
          existingMemberSignature: a!,
          newMemberSignature: b!,
        }),
      }
    }
    const clientTimestampNs = 1_717_000_000_000_000_000n + BigInt(seq) * 1_000_000_000n
    const text = signatureText({
      inboxId,
      clientTimestampNs,
      actions: [draft.build(draft.signers.map(() => PLACEHOLDER))],
    })
    const sigs = await Promise.all(draft.signers.map((s) => s.sign(text)))
    const bytes = encodeUpdate({ inboxId, clientTimestampNs, actions: [draft.build(sigs)] })
    updates.push({ sequenceId: BigInt(seq), bytes })
  }
  return { inboxId, updates }
}

/** The synthetic log as log bundle JSON. */
export async function syntheticBundle(n: number, options: SyntheticOptions = {}): Promise<string> {
  const log = await syntheticLog(n, options)
  return encodeBundleJson({ inboxId: log.inboxId, updates: log.updates })
}
