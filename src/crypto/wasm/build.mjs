#!/usr/bin/env node
/**
 * Builds the three WebAssembly modules of the fast crypto backend from C sources that the npm
 * registry serves, with Debian's clang and lld (wasm32 target, no libc: ./shim):
 *
 *   secp256k1.wasm  libsecp256k1 (bitcoin-core) from secp256k1@5.0.2's src/secp256k1:
 *                   10x26 field (32-bit limbs, native 64-bit products; no emulated 128-bit
 *                   type), 8x32 scalars, GLV endomorphism, ECMULT_WINDOW_SIZE 12 (12 ms to
 *                   build the tables at load; 15 took 100 ms for a few per cent more speed),
 *                   the recovery module; entry ./secp256k1-glue.c.
 *   ed25519.wasm    SUPERCOP ref10 from ed25519@0.0.5's src/ed25519: the variable-time
 *                   double-scalar multiplication of Ed25519 verification; entry
 *                   ./ed25519-glue.c.
 *   hashes.wasm     Keccak-256 from the Keccak team's XKCP in keccak@3.0.4's src/libkeccak-64
 *                   (KeccakP-1600-opt64 with lane complementing: measured 15-30% faster
 *                   in V8 than without), SHA-256 from libsecp256k1 (secp256k1@5.0.2) and
 *                   SHA-512 from ed25519@0.0.5's src/sha512.c; entry ./hashes-glue.c.
 *
 * Both at -O3 with bulk-memory (memory.copy/fill), the stack first (an overflow traps instead
 * of overwriting data). The built files are committed beside this script; the test
 * (./build.test.ts) rebuilds into a temporary directory and compares the bytes.
 *
 * Sources: `npm pack NAME@VERSION` (the ordinary client, the registry), checked against the
 * pinned sha512 integrity below (also the native addon's: ../native/build.mjs), unpacked into node_modules/.cache/inbox-wasm-src (kept, so
 * a rebuild needs no network).
 *
 *   node src/crypto/wasm/build.mjs            rebuild the committed .wasm files
 *   node src/crypto/wasm/build.mjs --out DIR  build into DIR (the reproducibility test)
 */
import { execFileSync } from 'node:child_process'
import { createHash } from 'node:crypto'
import { existsSync, mkdirSync, readFileSync, readdirSync, rmSync, renameSync } from 'node:fs'
import { dirname, join, relative } from 'node:path'
import { fileURLToPath } from 'node:url'

const HERE = dirname(fileURLToPath(import.meta.url))
const ROOT = join(HERE, '..', '..', '..')
const CACHE = join(ROOT, 'node_modules', '.cache', 'inbox-wasm-src')

export const SOURCES = {
  secp256k1: {
    spec: 'secp256k1@5.0.2',
    integrity: 'sha512-HwMOXeWjr1UvBNYt9S+w9bMuuyUOrPFQ8CWd23CGai/8vbgtUKS2ITngFOzMhaPZQAPxTb/f9alLou9mPnNV2Q==',
  },
  ed25519: {
    spec: 'ed25519@0.0.5',
    integrity: 'sha512-bg8uNetUVrkTyAVsnCUUmC/we1CFB7DYa59rwEUHut26SISXN2o319HzIt0r7ncqbtjVi0hn9r/A0epUmMNulQ==',
  },
  keccak: {
    spec: 'keccak@3.0.4',
    integrity: 'sha512-3vKuW0jV8J3XNTzvfyicFR5qvxrSAGl7KIhvgOu5cmWwM7tZRj3fMbj/pfIf4be7aznbc+prBWGjywox/g2Y6Q==',
  },
  // libsodium 1.0.16 in deps/libsodium: the native addon's Ed25519 (../native/build.mjs), not WebAssembly.
  sodium: {
    spec: 'sodium@3.0.2',
    integrity: 'sha512-IsTwTJeoNBU97km3XkrbCGC/n/9aUQejgD3QPr2YY2gtbSPru3TI6nhCqgoez9Mv88frF9oVZS/jrXFbd6WXyA==',
  },
}

/**
 * libsecp256k1's configuration in both builds (this one and ../native/build.mjs), less the
 * field and scalar representation, which each picks for its target.
 */
export const SECP256K1_DEFINES = [
  '-DUSE_NUM_NONE=1',
  '-DUSE_FIELD_INV_BUILTIN=1',
  '-DUSE_SCALAR_INV_BUILTIN=1',
  '-DECMULT_WINDOW_SIZE=12',
  '-DECMULT_GEN_PREC_BITS=4',
  '-DUSE_ENDOMORPHISM=1',
  '-DENABLE_MODULE_RECOVERY=1',
]

const COMMON = [
  '--target=wasm32',
  '-O3',
  '-mbulk-memory',
  '-nostdlib',
  '-ffreestanding',
  '-Wno-unused-function',
  '-Wno-everything',
  '-isystem',
  join(HERE, 'shim'),
  '-Wl,--no-entry',
  '-Wl,--stack-first',
  '-Wl,--strip-debug',
]

const ED25519_FILES = [
  'fe_0.c',
  'fe_1.c',
  'fe_add.c',
  'fe_cmov.c',
  'fe_copy.c',
  'fe_frombytes.c',
  'fe_invert.c',
  'fe_isnegative.c',
  'fe_isnonzero.c',
  'fe_mul.c',
  'fe_neg.c',
  'fe_pow22523.c',
  'fe_sq.c',
  'fe_sq2.c',
  'fe_sub.c',
  'fe_tobytes.c',
  'ge_add.c',
  'ge_double_scalarmult.c',
  'ge_frombytes.c',
  'ge_madd.c',
  'ge_msub.c',
  'ge_p1p1_to_p2.c',
  'ge_p1p1_to_p3.c',
  'ge_p2_0.c',
  'ge_p2_dbl.c',
  'ge_p3_0.c',
  'ge_p3_dbl.c',
  'ge_p3_to_cached.c',
  'ge_p3_to_p2.c',
  'ge_sub.c',
  'ge_tobytes.c',
  'ge_precomp_0.c',
  'crypto_verify_32.c',
]

/** The unpacked package directory of `name`, fetched with `npm pack` and checked once. */
export function sources(name) {
  const { spec, integrity } = SOURCES[name]
  const dir = join(CACHE, spec)
  if (existsSync(join(dir, 'package', 'package.json'))) return join(dir, 'package')
  mkdirSync(dir, { recursive: true })
  const out = execFileSync('npm', ['pack', spec, '--json', '--pack-destination', dir], { encoding: 'utf8' })
  const file = join(dir, JSON.parse(out)[0].filename)
  const digest = `sha512-${createHash('sha512').update(readFileSync(file)).digest('base64')}`
  if (digest !== integrity) {
    rmSync(dir, { recursive: true, force: true })
    throw new Error(`${spec}: tarball integrity ${digest} is not the pinned ${integrity}`)
  }
  execFileSync('tar', ['xzf', file, '-C', dir])
  return join(dir, 'package')
}

function clang(args, cwd) {
  execFileSync('clang', [...COMMON, ...args], { cwd, stdio: ['ignore', 'inherit', 'inherit'] })
}

/** Builds the three modules into `out`; returns their paths. */
export function build(out = HERE) {
  mkdirSync(out, { recursive: true })
  const secp = join(sources('secp256k1'), 'src', 'secp256k1')
  const secpOut = join(out, 'secp256k1.wasm.tmp')
  // Relative paths and a fixed cwd: the output does not depend on where the tree is.
  clang(
    [
      '-I.',
      '-Isrc',
      '-Iinclude',
      ...SECP256K1_DEFINES,
      '-DUSE_FIELD_10X26=1',
      '-DUSE_SCALAR_8X32=1',
      '-Wl,-z,stack-size=262144',
      '-o',
      secpOut,
      join(HERE, 'secp256k1-glue.c'),
      join(HERE, 'shim', 'shim.c'),
    ],
    secp,
  )
  const ed = join(sources('ed25519'), 'src', 'ed25519')
  const have = new Set(readdirSync(ed))
  for (const f of ED25519_FILES) if (!have.has(f)) throw new Error(`ed25519 sources: ${f} is missing`)
  const edOut = join(out, 'ed25519.wasm.tmp')
  clang(
    [
      '-I.',
      '-Wl,-z,stack-size=65536',
      '-o',
      edOut,
      join(HERE, 'ed25519-glue.c'),
      ...ED25519_FILES,
      join(HERE, 'shim', 'shim.c'),
    ],
    ed,
  )
  const keccak = join(sources('keccak'), 'src', 'libkeccak-64')
  const edRoot = join(sources('ed25519'), 'src')
  const hashOut = join(out, 'hashes.wasm.tmp')
  // Sources by paths relative to the cwd (the keccak package), the other two packages by
  // -I paths relative to it too: the output does not depend on where the tree is.
  const rel = (dir) => relative(keccak, dir)
  clang(
    [
      '-DLITTLE_ENDIAN',
      '-DKeccakP1600_useLaneComplementing',
      '-I.',
      `-I${rel(edRoot)}`,
      `-I${rel(secp)}`,
      '-Wl,-z,stack-size=65536',
      '-o',
      hashOut,
      join(HERE, 'hashes-glue.c'),
      'KeccakSpongeWidth1600.c',
      'KeccakP-1600-opt64.c',
      join(rel(edRoot), 'sha512.c'),
      join(HERE, 'shim', 'shim.c'),
    ],
    keccak,
  )
  const files = {
    secp256k1: join(out, 'secp256k1.wasm'),
    ed25519: join(out, 'ed25519.wasm'),
    hashes: join(out, 'hashes.wasm'),
  }
  renameSync(secpOut, files.secp256k1)
  renameSync(edOut, files.ed25519)
  renameSync(hashOut, files.hashes)
  return files
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  const i = process.argv.indexOf('--out')
  const files = build(i > 0 ? process.argv[i + 1] : HERE)
  for (const f of Object.values(files)) console.log(`built ${f} (${readFileSync(f).length} bytes)`)
}
