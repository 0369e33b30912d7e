/**
 * A deterministic synthetic log of mixed signature kinds for benchmarks and the
 * inspector's large-log tests: one wallet creates the inbox with an installation and a
 * passkey, then updates cycle through: wallet adds an installation (erc_191 +
 * installation_key), passkey adds an installation (passkey + installation_key),
 * installation adds a wallet (installation_key + erc_191), the recovery wallet revokes
 * an older installation (erc_191). Every update applies.
 */
import { utf8 } from '../src/crypto/bytes'
import { sha256 } from '../src/crypto/hash'
import { encodeBundleJson } from '../src/core/encode/update'
import {
  addMember,
  createInbox,
  ethKeySigner,
  installationKeySigner,
  passkeySigner,
  revokeMember,
  signUpdate,
  type Signer,
} from '../src/signing'

const keyOf = (label: string, n: number) => sha256(utf8(`bench-${label}-${n}`))

export interface SyntheticLog {
  readonly inboxId: string
  readonly updates: { sequenceId: bigint; bytes: Uint8Array }[]
  readonly signatures: number
}

export async function syntheticLog(n: number, onProgress?: (done: number) => void): Promise<SyntheticLog> {
  const wallet = ethKeySigner(keyOf('wallet', 0))
  const passkey = passkeySigner(keyOf('passkey', 0), { origin: 'https://inbox-inspector.local' })
  let installs = 0
  const installation = () => installationKeySigner(keyOf('inst', installs++))
  const live: Signer[] = []
  const first = installation()
  live.push(first)
  const t0 = 1_750_000_000n * 1_000_000_000n
  const updates: { sequenceId: bigint; bytes: Uint8Array }[] = []
  let signatures = 0
  const created = await signUpdate({
    clientTimestampNs: t0,
    actions: [createInbox(wallet), addMember(wallet, first), addMember(wallet, passkey)],
  })
  const inboxId = created.update.inboxId
  updates.push({ sequenceId: 1n, bytes: created.bytes })
  signatures += created.signatures.length
  let wallets = 0
  for (let i = 1; i < n; i++) {
    const ts = t0 + BigInt(i) * 1_000_000_000n
    let actions
    switch (i % 4) {
      case 0: {
        const s = installation()
        live.push(s)
        actions = [addMember(wallet, s)]
        break
      }
      case 1: {
        const s = installation()
        actions = [addMember(passkey, s)]
        break
      }
      case 2:
        actions = [addMember(live[live.length - 1]!, ethKeySigner(keyOf('wallet', ++wallets)))]
        break
      default:
        actions =
          live.length > 2
            ? [revokeMember(live.shift()!, wallet)]
            : [addMember(wallet, ethKeySigner(keyOf('wallet', ++wallets)))]
    }
    const u = await signUpdate({ inboxId, clientTimestampNs: ts, actions })
    updates.push({ sequenceId: BigInt(i + 1), bytes: u.bytes })
    signatures += u.signatures.length
    if (i % 500 === 0) onProgress?.(i)
  }
  return { inboxId, updates, signatures }
}

export function syntheticBundle(log: SyntheticLog): string {
  return encodeBundleJson({ inboxId: log.inboxId, updates: log.updates })
}
