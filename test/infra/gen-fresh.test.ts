/**
 * src/gen is not committed: `npm ci` generates it from proto/ (`prepare` runs `buf generate`).
 * This checks that what the tests and the build read is what the committed proto/ generates
 * now (a proto/ edit without `npm run gen` fails here). Generates into a temporary directory
 * (`buf generate --output <tmp>`) and compares byte for byte, so the work tree is never touched.
 */
import { spawnSync } from 'node:child_process'
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join, sep } from 'node:path'
import { afterAll, describe, expect, it } from 'vitest'
import { listFiles, REPO_ROOT } from './source-scan'

const GEN = 'src/gen'

describe('generated protobuf code', () => {
  const tmp = mkdtempSync(join(tmpdir(), 'inbox-inspector-gen-'))
  afterAll(() => rmSync(tmp, { recursive: true, force: true }))

  it('src/gen is byte-identical to what proto/ generates (`npm run gen`)', () => {
    const buf = join(REPO_ROOT, 'node_modules', '.bin', 'buf')
    expect(existsSync(buf), `${buf} is missing: run npm ci`).toBe(true)
    const r = spawnSync(buf, ['generate', '--output', tmp], { cwd: REPO_ROOT, encoding: 'utf8' })
    expect(r.status, `buf generate failed:\n${r.error ?? ''}${r.stderr}`).toBe(0)

    const present = listFiles(GEN, () => true).map((p) => p.slice(GEN.length + 1))
    const freshAbs = join(tmp, GEN)
    const fresh = existsSync(freshAbs)
      ? readdirSync(freshAbs, { recursive: true, encoding: 'utf8' })
          .filter((p) => statSync(join(freshAbs, p)).isFile())
          .map((p) => p.split(sep).join('/'))
          .sort()
      : []
    const problems: string[] = []
    for (const f of fresh) {
      if (!present.includes(f)) problems.push(`${GEN}/${f} is missing (buf generates it)`)
      else if (!readFileSync(join(tmp, GEN, f)).equals(readFileSync(join(REPO_ROOT, GEN, f)))) {
        problems.push(`${GEN}/${f} is stale (differs from what buf generates)`)
      }
    }
    for (const f of present) {
      if (!fresh.includes(f)) problems.push(`${GEN}/${f} is not generated from proto/ any more`)
    }
    expect(problems, `src/gen does not match proto/; run \`npm run gen\`:\n  ${problems.join('\n  ')}`).toEqual([])
  })
})
