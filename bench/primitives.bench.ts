/**
 * Signature primitives, noble against each faster candidate (issue #7): ops/s per
 * primitive on inputs shaped like an identity update's (a ~400-byte signature text, a
 * WebAuthn-shaped passkey message). Run in Node with
 *
 *     node --import tsx bench/primitives.bench.ts [--ms=300] [--json]
 *
 * and in headless Chromium (inside a Web Worker, under the app's Content-Security-Policy)
 * with `INSPECTOR_PRIMITIVES_BENCH=1 npx playwright test e2e/primitives-perf.spec.ts`, which
 * bundles this same module. Each case runs in rounds of `ms` milliseconds after a warm-up;
 * the best round counts (the machine is shared, the best round is the least disturbed).
 * Every case first checks its answer against noble's, so a fast wrong candidate fails here.
 *
 * Candidates that lose stay listed with their numbers; src/crypto/backend.ts keeps the winners.
 */
// The base-point table candidate needs noble's Point itself (the only bench import of @noble).
import { ed25519 } from '@noble/curves/ed25519.js'
import { buildFastBackend, defaultFastLoaders, isNode } from '../src/crypto/backend'
import { bytesToHex, concatBytes, utf8 } from '../src/crypto/bytes'
import { nobleSecp256k1Recover, personalMessageHash, recoverEip191Digest, signEip191 } from '../src/crypto/eip191'
import {
  ed25519PublicKey,
  IDENTITY_UPDATE_CONTEXT,
  signEd25519ph,
  verifyEd25519ph,
  verifyEd25519phWith,
  type Ed25519phCombine,
} from '../src/crypto/ed25519ph'
import { sha256, sha512 } from '../src/crypto/hash'
import { keccak256 } from '../src/crypto/keccak'
import { loadWasmHashes } from '../src/crypto/wasm-hashes'
import { loadSodiumCombine } from '../src/crypto/ed25519ph-sodium'
import { loadWasmEd25519Combine } from '../src/crypto/ed25519ph-wasm'
import { p256PublicKey, signP256Der, verifyP256Der } from '../src/crypto/p256'
import { hostSubtle, webCryptoP256Verifier } from '../src/crypto/p256-webcrypto'
import { loadWasmSecp256k1Recover } from '../src/crypto/secp256k1-wasm'

export interface CaseResult {
  readonly primitive: string
  readonly impl: string
  readonly opsPerSec: number
  /** opsPerSec / the noble case of the same primitive. */
  readonly vsNoble: number
}

export interface PrimitivesReport {
  readonly runtime: string
  readonly roundMs: number
  /** What ops/s counts: 'CPU-second' (Node) or 'wall second' (browser). */
  readonly per: 'CPU-second' | 'wall second'
  readonly results: readonly CaseResult[]
  /** Load time of each fast path, ms (first call in this realm). */
  readonly loadMs: Readonly<Record<string, number>>
}

const now = (): number => performance.now()

/** hash-wasm's three hashers, created once (the "before" rows). */
async function loadHashWasm(): Promise<Record<'keccak256' | 'sha256' | 'sha512', (b: Uint8Array) => Uint8Array>> {
  const mod = await import('hash-wasm')
  // Loaded as CommonJS (a bundler that picks its UMD build), the functions sit on `default`.
  const lib = typeof mod.createKeccak === 'function' ? mod : (mod as unknown as { default: typeof mod }).default
  const [keccak, sha2, sha5] = await Promise.all([lib.createKeccak(256), lib.createSHA256(), lib.createSHA512()])
  const one =
    (h: typeof keccak) =>
    (b: Uint8Array): Uint8Array => {
      h.init()
      h.update(b)
      return h.digest('binary')
    }
  return { keccak256: one(keccak), sha256: one(sha2), sha512: one(sha5) }
}

type Op = (i: number) => unknown

/** Process CPU time in ms (all threads: WebCrypto's thread pool counts too), where the host has it. */
const cpuUsage = (globalThis as { process?: { cpuUsage(): { user: number; system: number } } }).process?.cpuUsage
const cpuMs = cpuUsage
  ? (): number => {
      const u = cpuUsage()
      return (u.user + u.system) / 1000
    }
  : null

/**
 * Calls `f` for about `ms` of wall time; ops per CPU-second where the host reports CPU
 * time (Node: steadier than wall time on a shared machine), else ops per wall second.
 */
async function round(f: Op, ms: number): Promise<number> {
  let ops = 0
  const t0 = now()
  const c0 = cpuMs?.() ?? 0
  let t = t0
  while (t - t0 < ms) {
    for (let j = 0; j < 8; j++) await f(ops++)
    t = now()
  }
  const spent = cpuMs ? cpuMs() - c0 : t - t0
  return (ops * 1000) / Math.max(spent, 1e-3)
}

/**
 * Best ops/s of each candidate over `rounds` interleaved rounds of about `ms` each, after
 * a warm-up of `ms` per candidate (JIT and WebAssembly tier-up). Interleaving exposes every
 * candidate of a primitive to the same load on a shared machine; the best round is the least
 * disturbed one.
 */
async function measureGroup(
  cases: readonly (readonly [string, Op, number])[],
  ms: number,
  rounds = Math.max(5, Math.round(1500 / ms)),
): Promise<number[]> {
  for (const [, f] of cases) await round(f, ms)
  const best = cases.map(() => 0)
  for (let r = 0; r < rounds; r++) {
    for (const [k, [, f, perCall]] of cases.entries()) best[k] = Math.max(best[k]!, (await round(f, ms)) * perCall)
  }
  return best
}

/** `k` operations in flight at once (WebCrypto runs them on other threads in Node). */
function inFlight(k: number, f: (i: number) => Promise<unknown>): (i: number) => Promise<unknown> {
  return async (i) => Promise.all(Array.from({ length: k }, (_, j) => f(i * k + j)))
}

function expectSame(what: string, a: unknown, b: unknown): void {
  const show = (x: unknown) =>
    JSON.stringify(x, (_, v) => (v instanceof Uint8Array ? bytesToHex(v) : typeof v === 'bigint' ? v.toString() : v))
  if (show(a) !== show(b)) throw new Error(`bench: ${what} differs from noble: ${show(a)} vs ${show(b)}`)
}

/** Runs every case; `ms` per round. Works in Node and in a browser worker. */
export async function runPrimitivesBench(ms = 300, runtime = 'unknown'): Promise<PrimitivesReport> {
  const loadMs: Record<string, number> = {}
  const timed = async <T>(name: string, p: () => Promise<T>): Promise<T> => {
    const t0 = now()
    const v = await p()
    loadMs[name] = Math.round((now() - t0) * 10) / 10
    return v
  }
  const wasmRecover = await timed('libsecp256k1 (WASM, built here)', () => loadWasmSecp256k1Recover())
  // The previous secp256k1 path (issue #7): @solar-republic/wasm-secp256k1, gzip + base64 inside JavaScript.
  const solarRecover = await timed('libsecp256k1 (@solar-republic/wasm-secp256k1)', async () => {
    const { initWasmSecp256k1 } = await import('@solar-republic/wasm-secp256k1/gzipped')
    const lib = await initWasmSecp256k1()
    return (rs: Uint8Array, rec: 0 | 1, digest: Uint8Array) => lib.recover(rs, digest, rec, true)
  })
  const sodium = await timed('libsodium (WASM)', loadSodiumCombine)
  const ref10 = await timed('ref10 double-scalar (WASM, built here)', () => loadWasmEd25519Combine())
  const hashes = await timed('hashes (WASM, built here)', () => loadWasmHashes())
  // The previous hashes (until session 8): hash-wasm 4.13, base64 WebAssembly inside 216 KB of JavaScript.
  const hashWasm = await timed('hash-wasm (before)', loadHashWasm)
  const subtle = hostSubtle()
  const webCrypto = subtle ? webCryptoP256Verifier(subtle) : null
  // Node only: the native addon (src/crypto/native, built at npm ci) and node:crypto's P-256,
  // the command line's paths. Absent in a browser, or where no compiler built the addon.
  const native = isNode()
    ? await timed('native addon (built here)', async () => {
        const m = await import('../src/crypto/native-crypto')
        return { recover: await m.loadNativeSecp256k1Recover(), combine: await m.loadNativeEd25519Combine() }
      }).catch(() => null)
    : null
  const openSsl = isNode()
    ? await (async () => {
        const { loadNodeCrypto, nodeP256Verifier } = await import('../src/crypto/p256-node')
        return nodeP256Verifier(await loadNodeCrypto())
      })()
    : null
  const fast = await timed('fast backend (all)', () => buildFastBackend(defaultFastLoaders))

  const results: CaseResult[] = []
  /** Measures the candidates of one primitive together; the first is noble's. */
  const group = async (primitive: string, cases: readonly (readonly [string, Op, number?])[]): Promise<void> => {
    const ops = await measureGroup(
      cases.map(([impl, f, perCall]) => [impl, f, perCall ?? 1] as const),
      ms,
    )
    cases.forEach(([impl], k) => {
      results.push({
        primitive,
        impl,
        opsPerSec: Math.round(ops[k]!),
        vsNoble: Math.round((ops[k]! / ops[0]!) * 100) / 100,
      })
    })
  }

  // Inputs: 16 of each, shaped like the synthetic log's (bench/synthetic-log.ts).
  const texts = Array.from({ length: 16 }, (_, i) =>
    utf8(
      `XMTP : Authenticate to inbox\n\nInbox ID: ${'ab'.repeat(32)}\nCurrent time: 2025-06-15T15:0${i % 10}:00Z\n\n- Add installation\n  (Key: ${'cd'.repeat(32)})\n  (Added by: 0x${'11'.repeat(20)})\n\nFor more info: https://xmtp.org/signatures`,
    ),
  )
  const ethKey = sha256(utf8('bench-eth'))
  const ethSigs = texts.map((t) => signEip191(ethKey, t))
  const digests = texts.map((t) => personalMessageHash(t))
  const edKey = sha256(utf8('bench-ed'))
  const edPub = ed25519PublicKey(edKey)
  const edSigs = texts.map((t) => signEd25519ph(edKey, t, IDENTITY_UPDATE_CONTEXT))
  const pKey = sha256(utf8('bench-p256'))
  const pPub = p256PublicKey(pKey)
  const pMsgs = texts.map((t) => concatBytes(new Uint8Array(37).fill(5), sha256(t)))
  const pSigs = pMsgs.map((m, i) => signP256Der(pKey, m, { highS: i % 2 === 1 }))
  const at = (i: number) => i % 16

  // secp256k1 recovery (erc_191): the whole recoverEip191Digest (checks, recovery, address keccak).
  for (let i = 0; i < 16; i++) {
    expectSame(
      'libsecp256k1 recovery',
      recoverEip191Digest(ethSigs[i]!, digests[i]!, { recover: wasmRecover }),
      recoverEip191Digest(ethSigs[i]!, digests[i]!),
    )
    if (native)
      expectSame(
        'native libsecp256k1 recovery',
        recoverEip191Digest(ethSigs[i]!, digests[i]!, { recover: native.recover }),
        recoverEip191Digest(ethSigs[i]!, digests[i]!),
      )
  }
  await group('secp256k1 recovery (erc_191)', [
    ['noble (@noble/curves)', (i) => recoverEip191Digest(ethSigs[at(i)]!, digests[at(i)]!)],
    [
      'libsecp256k1 WASM (@solar-republic, before)',
      (i) => recoverEip191Digest(ethSigs[at(i)]!, digests[at(i)]!, { recover: solarRecover }),
    ],
    [
      'libsecp256k1 WASM (built here)',
      (i) => recoverEip191Digest(ethSigs[at(i)]!, digests[at(i)]!, { recover: wasmRecover }),
    ],
    [
      'libsecp256k1 WASM (built here) + WASM Keccak (built here)',
      (i) => recoverEip191Digest(ethSigs[at(i)]!, digests[at(i)]!, { recover: wasmRecover, keccak: hashes.keccak256 }),
    ],
    ...(native
      ? [
          [
            'libsecp256k1 native addon + WASM Keccak (Node: now)',
            (i: number) =>
              recoverEip191Digest(ethSigs[at(i)]!, digests[at(i)]!, {
                recover: native.recover,
                keccak: hashes.keccak256,
              }),
          ] as const,
        ]
      : []),
  ])
  const rs = ethSigs.map((s) => s.subarray(0, 64))
  const recs = ethSigs.map((s) => (s[64]! - 27) as 0 | 1)
  await group('secp256k1 recovery step alone', [
    ['noble (@noble/curves)', (i) => nobleSecp256k1Recover(rs[at(i)]!, recs[at(i)]!, digests[at(i)]!)],
    ['libsecp256k1 WASM (@solar-republic, before)', (i) => solarRecover(rs[at(i)]!, recs[at(i)]!, digests[at(i)]!)],
    ['libsecp256k1 WASM (built here)', (i) => wasmRecover(rs[at(i)]!, recs[at(i)]!, digests[at(i)]!)],
    ...(native
      ? [
          [
            'libsecp256k1 native addon',
            (i: number) => native.recover(rs[at(i)]!, recs[at(i)]!, digests[at(i)]!),
          ] as const,
        ]
      : []),
  ])

  // P-256 (passkey): DER parse, key check, verify over SHA-256(message).
  const p256Cases: [string, Op, number?][] = [
    ['noble (@noble/curves)', (i) => verifyP256Der(pSigs[at(i)]!, pMsgs[at(i)]!, pPub)],
  ]
  if (webCrypto) {
    for (let i = 0; i < 16; i++)
      expectSame(
        'WebCrypto P-256',
        await webCrypto(pSigs[i]!, pMsgs[i]!, pPub),
        verifyP256Der(pSigs[i]!, pMsgs[i]!, pPub),
      )
    p256Cases.push(['WebCrypto, one at a time', (i) => webCrypto(pSigs[at(i)]!, pMsgs[at(i)]!, pPub)])
    p256Cases.push(['WebCrypto, 8 in flight', inFlight(8, (i) => webCrypto(pSigs[at(i)]!, pMsgs[at(i)]!, pPub)), 8])
  }
  if (openSsl) {
    for (let i = 0; i < 16; i++)
      expectSame('OpenSSL P-256', await openSsl(pSigs[i]!, pMsgs[i]!, pPub), verifyP256Der(pSigs[i]!, pMsgs[i]!, pPub))
    p256Cases.push(['OpenSSL (node:crypto; Node: now)', (i) => openSsl(pSigs[at(i)]!, pMsgs[at(i)]!, pPub)])
  }
  await group('P-256 verify (passkey)', p256Cases)

  // Ed25519ph (installation_key): the dalek cofactorless equation in every candidate.
  const Point = ed25519.Point
  const wideBase = new Point(Point.BASE.X, Point.BASE.Y, Point.BASE.Z, Point.BASE.T).precompute(8, false)
  const nobleWide: Ed25519phCombine = (s, k, pk) => {
    const le = (b: Uint8Array) => BigInt(`0x${bytesToHex(b.slice().reverse())}`)
    return wideBase
      .multiplyUnsafe(le(s))
      .subtract(Point.fromBytes(pk, true).multiplyUnsafe(le(k)))
      .toBytes()
  }
  for (let i = 0; i < 16; i++) {
    const m = i % 2 ? texts[i]! : concatBytes(texts[i]!, Uint8Array.of(1)) // half valid, half not
    const want = verifyEd25519ph(edSigs[i]!, m, edPub, IDENTITY_UPDATE_CONTEXT)
    expectSame(
      'libsodium Ed25519ph',
      verifyEd25519phWith(sodium.combine, edSigs[i]!, m, edPub, IDENTITY_UPDATE_CONTEXT),
      want,
    )
    expectSame(
      'ref10 WASM Ed25519ph',
      verifyEd25519phWith(ref10.combine, edSigs[i]!, m, edPub, IDENTITY_UPDATE_CONTEXT),
      want,
    )
    expectSame(
      'noble W=8 Ed25519ph',
      verifyEd25519phWith(nobleWide, edSigs[i]!, m, edPub, IDENTITY_UPDATE_CONTEXT),
      want,
    )
    if (native)
      expectSame(
        'native Ed25519ph',
        verifyEd25519phWith(native.combine, edSigs[i]!, m, edPub, IDENTITY_UPDATE_CONTEXT),
        want,
      )
  }
  /** Ed25519ph verification of the bench's texts with a combine step and a SHA-512. */
  const edWith =
    (combine: Ed25519phCombine, hash?: (b: Uint8Array) => Uint8Array): Op =>
    (i) =>
      verifyEd25519phWith(combine, edSigs[at(i)]!, texts[at(i)]!, edPub, IDENTITY_UPDATE_CONTEXT, hash)
  await group('Ed25519ph verify (installation_key)', [
    [
      'noble (@noble/curves, base table W=6)',
      (i) => verifyEd25519ph(edSigs[at(i)]!, texts[at(i)]!, edPub, IDENTITY_UPDATE_CONTEXT),
    ],
    [
      'noble, base table W=8',
      (i) => verifyEd25519phWith(nobleWide, edSigs[at(i)]!, texts[at(i)]!, edPub, IDENTITY_UPDATE_CONTEXT),
    ],
    [
      'libsodium WASM point arithmetic',
      (i) => verifyEd25519phWith(sodium.combine, edSigs[at(i)]!, texts[at(i)]!, edPub, IDENTITY_UPDATE_CONTEXT),
    ],
    ['libsodium WASM + hash-wasm SHA-512 (before)', edWith(sodium.combine, hashWasm.sha512)],
    ['ref10 double-scalar WASM + WASM SHA-512 (now)', edWith(ref10.combine, hashes.sha512)],
    ...(native
      ? [
          [
            'libsodium double-scalar native addon + WASM SHA-512 (Node: now)',
            edWith(native.combine, hashes.sha512),
          ] as const,
        ]
      : []),
  ])

  // Hashes, on the ~400-byte signature text.
  const text = texts[0]!
  await group('Keccak-256 (400 B)', [
    ['noble (@noble/hashes)', () => keccak256(text)],
    ['hash-wasm (before)', () => hashWasm.keccak256(text)],
    ['WASM, built here (XKCP)', () => hashes.keccak256(text)],
  ])
  await group('SHA-512 (400 B)', [
    ['noble (@noble/hashes)', () => sha512(text)],
    ['hash-wasm (before)', () => hashWasm.sha512(text)],
    ['WASM, built here (orlp)', () => hashes.sha512(text)],
  ])
  const sha256Cases: [string, Op][] = [
    ['noble (@noble/hashes)', () => sha256(text)],
    ['hash-wasm (before)', () => hashWasm.sha256(text)],
    ['WASM, built here (libsecp256k1)', () => hashes.sha256(text)],
  ]
  const digestHost = (
    globalThis as { crypto?: { subtle?: { digest(a: string, d: Uint8Array): Promise<ArrayBuffer> } } }
  ).crypto?.subtle
  if (digestHost) {
    const bytes = new Uint8Array(text)
    sha256Cases.push(['WebCrypto digest (async), one at a time', () => digestHost.digest('SHA-256', bytes)])
  }
  await group('SHA-256 (400 B)', sha256Cases)

  // The whole fast backend, as the verifier calls it (one mixed set: 3 erc_191, 1 passkey, 3 Ed25519ph).
  const mixed = async (b: typeof fast | null, i: number): Promise<unknown> => {
    const j = at(i)
    if (!b) {
      return Promise.all([
        recoverEip191Digest(ethSigs[j]!, digests[j]!),
        recoverEip191Digest(ethSigs[at(j + 1)]!, digests[at(j + 1)]!),
        recoverEip191Digest(ethSigs[at(j + 2)]!, digests[at(j + 2)]!),
        verifyP256Der(pSigs[j]!, pMsgs[j]!, pPub),
        verifyEd25519ph(edSigs[j]!, texts[j]!, edPub, IDENTITY_UPDATE_CONTEXT),
        verifyEd25519ph(edSigs[at(j + 1)]!, texts[at(j + 1)]!, edPub, IDENTITY_UPDATE_CONTEXT),
        verifyEd25519ph(edSigs[at(j + 2)]!, texts[at(j + 2)]!, edPub, IDENTITY_UPDATE_CONTEXT),
      ])
    }
    return Promise.all([
      b.recoverEip191(ethSigs[j]!, digests[j]!),
      b.recoverEip191(ethSigs[at(j + 1)]!, digests[at(j + 1)]!),
      b.recoverEip191(ethSigs[at(j + 2)]!, digests[at(j + 2)]!),
      b.verifyP256Der(pSigs[j]!, pMsgs[j]!, pPub),
      b.verifyEd25519ph(edSigs[j]!, texts[j]!, edPub, IDENTITY_UPDATE_CONTEXT),
      b.verifyEd25519ph(edSigs[at(j + 1)]!, texts[at(j + 1)]!, edPub, IDENTITY_UPDATE_CONTEXT),
      b.verifyEd25519ph(edSigs[at(j + 2)]!, texts[at(j + 2)]!, edPub, IDENTITY_UPDATE_CONTEXT),
    ])
  }
  await group('mixed signature (3 erc_191 : 1 passkey : 3 Ed25519ph)', [
    ['noble (@noble/*)', (i) => mixed(null, i), 7],
    ['fast backend (src/crypto/backend.ts)', (i) => mixed(fast, i), 7],
  ])

  return { runtime, roundMs: ms, per: cpuMs ? 'CPU-second' : 'wall second', results, loadMs }
}

/** A fixed-width table of a report, for the terminal and the Playwright log. */
export function formatReport(r: PrimitivesReport): string {
  const lines = [
    `primitives on ${r.runtime} (ops per ${r.per}, best of ${Math.max(5, Math.round(1500 / r.roundMs))} interleaved rounds of ${r.roundMs} ms; × = vs noble)`,
  ]
  let last = ''
  for (const x of r.results) {
    if (x.primitive !== last) lines.push(`  ${x.primitive}`)
    last = x.primitive
    lines.push(`    ${x.impl.padEnd(48)} ${String(x.opsPerSec).padStart(9)}  ${x.vsNoble.toFixed(2).padStart(6)}×`)
  }
  lines.push(
    `  load: ${Object.entries(r.loadMs)
      .map(([k, v]) => `${k} ${v} ms`)
      .join(', ')}`,
  )
  return lines.join('\n')
}

// Node entry point (skipped when bundled for the browser, where `process` is absent).
const proc = (globalThis as { process?: { argv: string[]; version: string } }).process
if (proc && /primitives\.bench\.ts$/.test(proc.argv[1] ?? '')) {
  const msArg = proc.argv.find((a) => a.startsWith('--ms='))
  const report = await runPrimitivesBench(msArg ? Number(msArg.slice(5)) : 300, `Node ${proc.version}`)
  console.log(proc.argv.includes('--json') ? JSON.stringify(report, null, 2) : formatReport(report))
}
