/**
 * Warm-up of a verification thread (the replay worker and each verification worker): a
 * few throw-away verifications of fixed known-answer vectors through the thread's crypto
 * backend, run when the thread starts, before the user's log arrives. V8 compiles each
 * WebAssembly function on its first call and starts JavaScript in its interpreter; a first
 * replay would otherwise pay both, on every thread, while it verifies. The compiled
 * WebAssembly code is shared by every thread the module was posted to (./pool.ts), so the
 * first thread to call a function compiles it for all of them.
 *
 * Every round also checks the answers (a known-answer self-test): a backend that recovers
 * another address, or accepts a tampered signature, is reported as a mismatch and the
 * caller verifies with noble instead (verdicts identical to noble everywhere).
 *
 * The vectors were made with this project's noble signers (src/crypto: signEip191,
 * signEd25519ph, signP256Der, over MESSAGE with the secret key 0x0102…20);
 * ./warm-up.test.ts recomputes them.
 */
import { bytesToHex as hex, hexToBytes, utf8 } from '../crypto/bytes'
import { errorMessage } from '../crypto/errors'
import { IDENTITY_UPDATE_CONTEXT } from '../crypto/ed25519ph-checks'
import { personalMessageHashWith } from '../crypto/eip191-checks'
import type { VerifyBackend } from '../crypto/backend'

/** The message every vector signs. */
export const MESSAGE = utf8('Inbox Inspector warm-up: a fixed message signed once with fixed keys.')
/** The same message with its last byte changed: every vector must reject it. */
const TAMPERED = MESSAGE.slice()
TAMPERED[TAMPERED.length - 1]! ^= 1

export const VECTORS = {
  erc191: {
    signature: hexToBytes(
      '7ddfa2b92233c94dd78c784625fd8ac3ab6afadb8fbb27f8e9f0c01f98a3192064f480c2597396e47217b23a604b06368a660813597c2750a3a0194fd692e42d1c',
    ),
    digest: '093c021a1f532330bc55b6a60313d4005dd096fbb0f552de1f6ee7334b3186cf',
    address: '0x6370ef2f4db3611d657b90667de398a2cc2a370c',
  },
  ed25519ph: {
    signature: hexToBytes(
      '52e3669c06c3f8ff01a6902c27c1250dbdf5a89bbb02bf6ba3bb8b582114b411303be37cb4bef1c21fa9ba6464d4b94347a7515292d2f1112726771be4440b00',
    ),
    publicKey: hexToBytes('79b5562e8fe654f94078b112e8a98ba7901f853ae695bed7e0e3910bad049664'),
  },
  /** SHA-256 of MESSAGE (the passkey path hashes the client data with the backend's SHA-256). */
  sha256: 'e29b547e856df7a2a11860dcdc7ee8fc3253dd73ed419b772d48024005a0bdb3',
  p256: {
    der: hexToBytes(
      '3044022057c027644084a069ff109dbc52fa975f9cbf5ac84b4b23abbdaf71b73a36013d02201e988aca76ba3e522dea2c2366d5c750cefceeb8fc2e90494ad206dbbf26c83b',
    ),
    publicKey: hexToBytes('02515c3d6eb9e396b904d3feca7f54fdcd0cc1e997bf375dca515ad0a6c3b4035f'),
  },
} as const

/** One round: each kind once, valid and tampered. Returns what disagreed with the known answers, or null. */
export async function warmRound(b: VerifyBackend): Promise<string | null> {
  try {
    return await round(b)
  } catch (e) {
    return `a known-answer vector threw: ${errorMessage(e)}`
  }
}

async function round(b: VerifyBackend): Promise<string | null> {
  const { erc191, ed25519ph, p256 } = VECTORS
  const digest = personalMessageHashWith(b.keccak256, MESSAGE)
  if (hex(digest) !== erc191.digest) return `keccak256: personal-message hash ${hex(digest)}, expected ${erc191.digest}`
  const rec = await b.recoverEip191(erc191.signature, digest)
  if (rec.address !== erc191.address) return `erc_191: recovered ${rec.address}, expected ${erc191.address}`
  const other = await b.recoverEip191(erc191.signature, personalMessageHashWith(b.keccak256, TAMPERED))
  if (other.address === erc191.address) return 'erc_191: the tampered message recovered the signer'
  const [ok, bad, p, q] = await Promise.all([
    b.verifyEd25519ph(ed25519ph.signature, MESSAGE, ed25519ph.publicKey, IDENTITY_UPDATE_CONTEXT),
    b.verifyEd25519ph(ed25519ph.signature, TAMPERED, ed25519ph.publicKey, IDENTITY_UPDATE_CONTEXT),
    b.verifyP256Der(p256.der, MESSAGE, p256.publicKey),
    b.verifyP256Der(p256.der, TAMPERED, p256.publicKey),
  ])
  if (!ok || bad) return `installation_key (Ed25519ph): valid ${ok}, tampered ${bad}; expected true, false`
  if (!p.valid || q.valid) return `passkey (P-256): valid ${p.valid}, tampered ${q.valid}; expected true, false`
  const sha = hex(b.sha256(MESSAGE))
  if (sha !== VECTORS.sha256) return `sha256: ${sha}, expected ${VECTORS.sha256}`
  return null
}

export interface WarmUpResult {
  readonly rounds: number
  readonly ms: number
  /** What disagreed with the known answers (the backend must not be used), if anything. */
  readonly mismatch?: string
}

export interface WarmUpOptions {
  readonly rounds: number
  /** True once real work has arrived: the warm-up ends after the round under way. */
  readonly stop?: () => boolean
  /** Yields to the event loop between rounds (so real work is read as soon as it comes). */
  readonly pause: () => Promise<void>
  readonly now: () => number
}

/** Up to `rounds` rounds (at least one: the self-test), stopping at the first mismatch or when `stop` says. */
export async function warmUp(b: VerifyBackend, o: WarmUpOptions): Promise<WarmUpResult> {
  const t0 = o.now()
  let rounds = 0
  do {
    const mismatch = await warmRound(b)
    rounds++
    if (mismatch !== null) return { rounds, ms: o.now() - t0, mismatch }
    if (rounds < o.rounds) await o.pause()
  } while (rounds < o.rounds && !o.stop?.())
  return { rounds, ms: o.now() - t0 }
}

/** The rounds a thread warms up for at start, while idle (measured: README "Native speed"). */
export const WARM_ROUNDS = 8

/** Resolves in a new task (a MessageChannel message: no 4 ms timer clamp), after pending messages. */
export function nextTask(): Promise<void> {
  return new Promise((resolve) => {
    const ch = new MessageChannel()
    ch.port1.onmessage = () => {
      ch.port1.close()
      resolve()
    }
    ch.port2.postMessage(null)
  })
}

/** A warm-up's result in a few words, for a backend's description (the pool's stats). */
export function describeWarmUp(w: WarmUpResult): string {
  return w.mismatch
    ? `failed its known-answer test: ${w.mismatch}`
    : `warmed ${w.rounds} round(s) in ${Math.round(w.ms)} ms`
}
