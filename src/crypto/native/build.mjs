#!/usr/bin/env node
/**
 * Builds the fast backend's native addon for Node (inbox-crypto.node beside this script;
 * scripts/build-cli.mjs runs it, so `npm ci`'s `prepare` does): the Node-API glue here
 * (./inbox-crypto.c) around
 *
 *   secp256k1 recovery  libsecp256k1 from secp256k1@5.0.2 (the WebAssembly module's sources),
 *                       5x52 field on 128-bit products and 4x64 scalars;
 *   Ed25519ph's [S]B - [k]A  libsodium 1.0.16 from sodium@3.0.2, its 51-bit-limb field;
 *   P-256 verification  the OpenSSL inside Node (when Node's headers include it).
 *
 * The curves are about twice the WebAssembly builds' speed here (`npm run bench`, primitives). The
 * sources come from the registry through ../wasm/build.mjs `sources` (pinned sha512,
 * cached in node_modules/.cache/inbox-wasm-src). Needs a C compiler (clang, or $CC, or cc)
 * and the running Node's headers (<prefix>/include/node, node_api.h); without them the build
 * fails with the reason, and the backend uses the WebAssembly modules.
 *
 * Not committed (a binary for one platform): rebuilt when its inputs change, which a stamp
 * beside it records (inbox-crypto.node.json: a digest of the glue, the flags, the source
 * specs and the compiler). Written to a temporary name and renamed into place.
 *
 *   node src/crypto/native/build.mjs          build (or say it is current)
 *   node src/crypto/native/build.mjs --force  build again
 */
import { execFileSync, spawnSync } from 'node:child_process'
import { createHash } from 'node:crypto'
import { existsSync, mkdtempSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs'
import { arch, endianness, tmpdir } from 'node:os'
import { dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { SECP256K1_DEFINES, SOURCES, sources } from '../wasm/build.mjs'

const HERE = dirname(fileURLToPath(import.meta.url))
export const NATIVE_FILE = join(HERE, 'inbox-crypto.node')
const STAMP = `${NATIVE_FILE}.json`
const GLUE = ['inbox-crypto.c', 'secp256k1-native.c', 'ed25519-native.c', 'p256-native.c', 'napi-bytes.h']
/**
 * What the addon is built from, relative to the repository (scripts/build-cli.mjs lists these
 * for the command line's stale check): this script, the glue, and the WASM build's script,
 * which pins the sources and libsecp256k1's configuration.
 */
export const NATIVE_INPUTS = [
  'src/crypto/native/build.mjs',
  'src/crypto/wasm/build.mjs',
  ...GLUE.map((f) => `src/crypto/native/${f}`),
]

/** The first C compiler that answers --version: $CC, clang, cc; null when none does. */
export function compiler() {
  for (const cc of [process.env.CC, 'clang', 'cc'].filter(Boolean)) {
    const r = spawnSync(cc, ['--version'], { encoding: 'utf8' })
    if (r.status === 0) return { cc, version: r.stdout.split('\n')[0] }
  }
  return null
}

/** The running Node's headers (node_api.h), as node-gyp's --nodedir would take them. */
function nodeHeaders() {
  const dir = join(dirname(dirname(process.execPath)), 'include', 'node')
  return existsSync(join(dir, 'node_api.h')) ? dir : null
}

/**
 * Builds the addon unless it is current. Returns { file, built, ms }; throws an Error whose
 * message says what is missing or what failed.
 */
export function buildNative({ force = false } = {}) {
  const t0 = performance.now()
  const cc = compiler()
  if (!cc) throw new Error('no C compiler (clang, cc or $CC) was found (Debian: apt-get install clang)')
  const headers = nodeHeaders()
  if (!headers) {
    throw new Error(
      `Node's headers are not at ${join(dirname(dirname(process.execPath)), 'include', 'node')} (node_api.h)`,
    )
  }
  // 128-bit products on 64-bit hosts; elsewhere the 32-bit-limb fields (as in WebAssembly).
  const wide = ['x64', 'arm64', 'ppc64', 's390x', 'riscv64', 'loong64'].includes(arch())
  const secpDefines = [
    ...SECP256K1_DEFINES,
    ...(wide
      ? ['-DHAVE___INT128=1', '-DUSE_FIELD_5X52=1', '-DUSE_SCALAR_4X64=1']
      : ['-DUSE_FIELD_10X26=1', '-DUSE_SCALAR_8X32=1']),
  ]
  const sodiumDefines = [
    ...(wide ? ['-DHAVE_TI_MODE'] : []),
    ...(endianness() === 'LE' ? ['-DNATIVE_LITTLE_ENDIAN'] : []),
  ]
  // P-256 through Node's own OpenSSL (its headers ship with Node's; a Node built against a
  // system OpenSSL may have none, and then node:crypto serves P-256).
  const openssl = existsSync(join(headers, 'openssl', 'ecdsa.h'))
  const common = ['-O3', '-fPIC', '-fvisibility=hidden', '-w', `-I${headers}`, `-I${HERE}`]
  const key = createHash('sha256').update(
    JSON.stringify({ cc: cc.version, secpDefines, sodiumDefines, common, specs: SOURCES, headers }),
  )
  for (const f of GLUE) key.update(readFileSync(join(HERE, f)))
  const digest = key.digest('hex')
  if (!force && existsSync(NATIVE_FILE) && existsSync(STAMP)) {
    try {
      if (JSON.parse(readFileSync(STAMP, 'utf8')).digest === digest) return { file: NATIVE_FILE, built: false, ms: 0 }
    } catch {
      // An unreadable stamp: build again.
    }
  }
  const secp = join(sources('secp256k1'), 'src', 'secp256k1')
  const sodium = join(sources('sodium'), 'deps', 'libsodium', 'src', 'libsodium')
  const tmp = mkdtempSync(join(tmpdir(), 'inbox-native-'))
  try {
    const c = (args) => execFileSync(cc.cc, args, { stdio: ['ignore', 'ignore', 'pipe'] })
    const objects = {
      secp: join(tmp, 'secp256k1.o'),
      ed: join(tmp, 'ed25519.o'),
      ref10: join(tmp, 'ed25519_ref10.o'),
      glue: join(tmp, 'inbox-crypto.o'),
      ...(openssl ? { p256: join(tmp, 'p256.o') } : {}),
    }
    c([
      ...common,
      ...secpDefines,
      `-I${secp}`,
      `-I${join(secp, 'src')}`,
      '-c',
      join(HERE, 'secp256k1-native.c'),
      '-o',
      objects.secp,
    ])
    const sodiumIncludes = [
      `-I${join(sodium, 'include', 'sodium')}`,
      `-I${join(sodium, 'include', 'sodium', 'private')}`,
    ]
    c([...common, ...sodiumDefines, ...sodiumIncludes, '-c', join(HERE, 'ed25519-native.c'), '-o', objects.ed])
    const ref10 = join(sodium, 'crypto_core', 'ed25519', 'ref10', 'ed25519_ref10.c')
    c([...common, ...sodiumDefines, ...sodiumIncludes, '-c', ref10, '-o', objects.ref10])
    c([...common, ...(openssl ? ['-DINBOX_WITH_OPENSSL'] : []), '-c', join(HERE, 'inbox-crypto.c'), '-o', objects.glue])
    if (objects.p256) c([...common, '-c', join(HERE, 'p256-native.c'), '-o', objects.p256])
    const out = join(tmp, 'inbox-crypto.node')
    c(['-shared', '-o', out, ...Object.values(objects), '-lpthread'])
    renameSync(out, NATIVE_FILE)
  } catch (e) {
    const stderr = e?.stderr?.toString().trim()
    throw new Error(`${cc.cc} failed: ${stderr ? stderr.split('\n').slice(0, 6).join(' | ') : e?.message}`)
  } finally {
    rmSync(tmp, { recursive: true, force: true })
  }
  writeFileSync(STAMP, `${JSON.stringify({ digest, cc: cc.version })}\n`)
  return { file: NATIVE_FILE, built: true, ms: performance.now() - t0 }
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  const r = buildNative({ force: process.argv.includes('--force') })
  console.log(r.built ? `built ${r.file} in ${r.ms.toFixed(0)} ms` : `${r.file} is current`)
}
