/**
 * Makes the real XMTP client library (@xmtp/node-sdk's N-API binary, libxmtp) loadable on
 * this machine, or says in one line why it cannot be (../shared/notes/real-client.md):
 *
 * The linux-x64-gnu binary asks for glibc 2.38 for four C23 names (__isoc23_strtol and
 * friends). On an older glibc, a COPY of the binary in a cache folder gets the weak bit
 * (VER_FLG_WEAK) on its GLIBC_2.38 version requirement, so the loader only warns, and a
 * tiny shared object built with the machine's C compiler forwards the four names to
 * strtol, strtoul, strtoll, strtoull (C23 only adds binary literals to them). The process
 * that loads the library gets both through NAPI_RS_NATIVE_LIBRARY_PATH (napi-rs's loader)
 * and LD_PRELOAD. The file in node_modules is never touched.
 */
import { spawnSync } from 'node:child_process'
import { createHash } from 'node:crypto'
import { existsSync, mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs'
import { createRequire } from 'node:module'
import { dirname, join } from 'node:path'

const require = createRequire(import.meta.url)

export type NativeSetup = { readonly env: Record<string, string> } | { readonly skip: string }

/** The SDK's native package (its own dependency, resolved from the SDK). */
const BINDINGS = ['@xmtp', 'node-bindings'].join('/')

const SHT_GNU_VERNEED = 0x6ffffffe
const VER_FLG_WEAK = 0x2

/** The glibc version this Node runs on, as [major, minor], or null (musl, not Linux). */
function glibcVersion(): [number, number] | null {
  const header = (process.report?.getReport() as { header?: { glibcVersionRuntime?: string } } | undefined)?.header
  const m = /^(\d+)\.(\d+)/.exec(header?.glibcVersionRuntime ?? '')
  return m ? [Number(m[1]), Number(m[2])] : null
}

/**
 * Sets VER_FLG_WEAK on every version requirement named `version` in an ELF64
 * little-endian shared object (its SHT_GNU_verneed section). Returns how many it set.
 * @throws Error when the file is not such an object
 */
function weakenVersionNeed(elf: Buffer, version: string): number {
  if (elf.readUInt32BE(0) !== 0x7f454c46 || elf[4] !== 2 || elf[5] !== 1)
    throw new Error('not a 64-bit little-endian ELF file')
  const shoff = Number(elf.readBigUInt64LE(0x28))
  const shentsize = elf.readUInt16LE(0x3a)
  const shnum = elf.readUInt16LE(0x3c)
  const section = (i: number) => {
    const at = shoff + i * shentsize
    return {
      type: elf.readUInt32LE(at + 4),
      offset: Number(elf.readBigUInt64LE(at + 0x18)),
      link: elf.readUInt32LE(at + 0x28),
      info: elf.readUInt32LE(at + 0x2c),
    }
  }
  let set = 0
  for (let i = 0; i < shnum; i++) {
    const s = section(i)
    if (s.type !== SHT_GNU_VERNEED) continue
    const strtab = section(s.link).offset
    const name = (off: number) => {
      const start = strtab + off
      return elf.toString('latin1', start, elf.indexOf(0, start))
    }
    let need = s.offset
    for (let n = 0; n < s.info; n++) {
      const count = elf.readUInt16LE(need + 2)
      let aux = need + elf.readUInt32LE(need + 8)
      for (let a = 0; a < count; a++) {
        if (name(elf.readUInt32LE(aux + 8)) === version) {
          elf.writeUInt16LE(elf.readUInt16LE(aux + 4) | VER_FLG_WEAK, aux + 4)
          set++
        }
        aux += elf.readUInt32LE(aux + 12)
      }
      need += elf.readUInt32LE(need + 12)
    }
  }
  return set
}

const SHIM_C = `#include <stdlib.h>
long __isoc23_strtol(const char *s, char **end, int base) { return strtol(s, end, base); }
unsigned long __isoc23_strtoul(const char *s, char **end, int base) { return strtoul(s, end, base); }
long long __isoc23_strtoll(const char *s, char **end, int base) { return strtoll(s, end, base); }
unsigned long long __isoc23_strtoull(const char *s, char **end, int base) { return strtoull(s, end, base); }
`

/** Writes a file through a temporary name, so a concurrent reader never sees half of it. */
function writeAtomic(path: string, data: Buffer | string): void {
  const tmp = `${path}.${process.pid}.tmp`
  writeFileSync(tmp, data)
  renameSync(tmp, path)
}

/** The environment that makes the client library load in a child process, or why it cannot. */
export function prepareNativeClient(cacheRoot: string): NativeSetup {
  if (process.platform !== 'linux' || process.arch !== 'x64')
    return { skip: `the XMTP client binary is set up here for linux-x64 only, not ${process.platform}-${process.arch}` }
  const glibc = glibcVersion()
  if (!glibc) return { skip: 'this Node does not run on glibc (the linux-x64-gnu client binary needs it)' }
  let binary: string
  try {
    // The bindings the SDK itself loads (another copy may be installed for another package).
    const fromSdk = createRequire(require.resolve('@xmtp/node-sdk'))
    binary = join(dirname(fromSdk.resolve(BINDINGS)), 'bindings_node.linux-x64-gnu.node')
  } catch {
    return { skip: '@xmtp/node-sdk is not installed (npm ci installs it with the dev dependencies)' }
  }
  if (!existsSync(binary)) return { skip: `${binary} is missing` }
  if (glibc[0] > 2 || (glibc[0] === 2 && glibc[1] >= 38)) return { env: {} }

  const original = readFileSync(binary)
  const digest = createHash('sha256').update(original).digest('hex').slice(0, 16)
  const dir = join(cacheRoot, digest)
  mkdirSync(dir, { recursive: true })
  const patched = join(dir, 'bindings_node.linux-x64-gnu.node')
  if (!existsSync(patched)) {
    const copy = Buffer.from(original)
    let set: number
    try {
      set = weakenVersionNeed(copy, 'GLIBC_2.38')
    } catch (e) {
      return { skip: `cannot patch the client binary: ${e instanceof Error ? e.message : String(e)}` }
    }
    if (set === 0) return { skip: 'the client binary has no GLIBC_2.38 requirement to weaken; it will not load here' }
    writeAtomic(patched, copy)
  }
  const shim = join(dir, 'isoc23-shim.so')
  if (!existsSync(shim)) {
    const source = join(dir, 'isoc23-shim.c')
    writeAtomic(source, SHIM_C)
    const compilers = [process.env.CC, 'cc', 'clang', 'gcc'].filter((c): c is string => !!c)
    let built = false
    const tried: string[] = []
    for (const cc of compilers) {
      const out = `${shim}.${process.pid}.tmp`
      const r = spawnSync(cc, ['-shared', '-fPIC', '-O2', '-o', out, source], { encoding: 'utf8' })
      if (r.status === 0) {
        renameSync(out, shim)
        built = true
        break
      }
      tried.push(`${cc}: ${r.error ? r.error.message : (r.stderr || `exit ${r.status}`).trim().split('\n')[0]}`)
    }
    if (!built)
      return {
        skip: `no C compiler could build the glibc 2.38 shim the client binary needs on glibc ${glibc.join('.')} (${tried.join('; ')})`,
      }
  }
  return { env: { NAPI_RS_NATIVE_LIBRARY_PATH: patched, LD_PRELOAD: shim } }
}
