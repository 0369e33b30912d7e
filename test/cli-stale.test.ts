import { mkdirSync, mkdtempSync, rmSync, utimesSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
// @ts-expect-error: a plain CommonJS script without types (scripts/cli-stale.cjs)
import { staleReason } from '../scripts/cli-stale.cjs'

const dirs: string[] = []
afterEach(() => {
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true })
})

/** A tree with src/a.ts and package-lock.json, and a bundle (loader and script) built by this Node at time 2000 s listing them. */
function tree(): { root: string; out: string } {
  const root = mkdtempSync(join(tmpdir(), 'cli-stale-'))
  dirs.push(root)
  const out = join(root, 'dist-cli')
  mkdirSync(join(root, 'src'))
  mkdirSync(out)
  for (const f of ['src/a.ts', 'package-lock.json']) {
    writeFileSync(join(root, f), 'x')
    utimesSync(join(root, f), 1000, 1000)
  }
  for (const f of ['cli.mjs', 'cli.cjs']) {
    writeFileSync(join(out, f), '')
    utimesSync(join(out, f), 2000, 2000)
  }
  writeFileSync(
    join(out, 'inputs.json'),
    JSON.stringify({ inputs: ['src/a.ts', 'package-lock.json'], node: process.version }),
  )
  return { root, out }
}

/** Why a fresh tree's bundle is stale after `change` (null: it is current). */
function reasonAfter(change: (t: ReturnType<typeof tree>) => void): string | null {
  const t = tree()
  change(t)
  return staleReason(t.root, t.out)
}

describe('scripts/cli-stale.cjs staleReason (the guard of npm run cli against a stale bundle)', () => {
  it('a bundle newer than every input is current', () => {
    const { root, out } = tree()
    expect(staleReason(root, out)).toBeNull()
  })
  it('an edited source file, an edited lock file or a deleted input makes it stale, naming the file', () => {
    expect(reasonAfter((t) => utimesSync(join(t.root, 'src/a.ts'), 3000, 3000))).toBe('src/a.ts changed')
    expect(reasonAfter((t) => utimesSync(join(t.root, 'package-lock.json'), 3000, 3000))).toBe(
      'package-lock.json changed',
    )
    expect(reasonAfter((t) => rmSync(join(t.root, 'src/a.ts')))).toBe('src/a.ts is gone')
  })
  it('no bundle, or no inputs list, is stale', () => {
    expect(reasonAfter((t) => rmSync(join(t.out, 'cli.mjs')))).toBe('there is no bundle')
    expect(reasonAfter((t) => writeFileSync(join(t.out, 'inputs.json'), '{}'))).toBe('inputs.json lists no inputs')
    expect(reasonAfter((t) => rmSync(join(t.out, 'cli.cjs')))).toBe('there is no bundle')
  })
  it("a bundle built by another Node is stale (its code cache is another V8's)", () => {
    expect(
      reasonAfter((t) =>
        writeFileSync(join(t.out, 'inputs.json'), JSON.stringify({ inputs: ['src/a.ts'], node: 'v18.0.0' })),
      ),
    ).toBe(`it was built by Node v18.0.0, this is ${process.version}`)
  })
  it('a script older than its inputs is stale even when the loader is newer', () => {
    expect(reasonAfter((t) => utimesSync(join(t.out, 'cli.cjs'), 500, 500))).toBe('src/a.ts changed')
  })
})
