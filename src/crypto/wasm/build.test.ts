import { spawnSync } from 'node:child_process'
import { mkdtempSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, describe, expect, it } from 'vitest'

const hasClang = spawnSync('clang', ['--version']).status === 0
const hasWasmLd = spawnSync('wasm-ld', ['--version']).status === 0
const reason = !hasClang
  ? 'clang is not installed (apt-get install clang lld)'
  : 'wasm-ld is not installed (apt-get install lld)'

describe('src/crypto/wasm/build.mjs', () => {
  const out = mkdtempSync(join(tmpdir(), 'inbox-wasm-'))
  afterAll(() => rmSync(out, { recursive: true, force: true }))
  if (!hasClang || !hasWasmLd) console.warn(`build.test.ts: rebuild check skipped: ${reason}`)
  it.skipIf(!hasClang || !hasWasmLd)(
    'rebuilding from the pinned npm sources gives the committed .wasm files byte for byte',
    () => {
      const r = spawnSync(process.execPath, [join(import.meta.dirname, 'build.mjs'), '--out', out], {
        encoding: 'utf8',
      })
      expect(r.status, r.stderr).toBe(0)
      for (const name of ['secp256k1.wasm', 'ed25519.wasm', 'hashes.wasm']) {
        const built = readFileSync(join(out, name))
        const committed = readFileSync(join(import.meta.dirname, name))
        expect(
          built.equals(committed),
          `${name}: rebuilt ${built.length} bytes differ from the committed ${committed.length}`,
        ).toBe(true)
      }
    },
    180_000,
  )
})
