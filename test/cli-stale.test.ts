import { mkdirSync, mkdtempSync, rmSync, utimesSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
// @ts-expect-error: a plain ES module script without types (scripts/cli-stale.mjs)
import { staleReason } from '../scripts/cli-stale.mjs'

const dirs: string[] = []
afterEach(() => {
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true })
})

/** A tree with src/a.ts and package-lock.json, and a bundle built at time 2000 s listing them. */
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
  writeFileSync(join(out, 'cli.mjs'), '')
  writeFileSync(join(out, 'inputs.json'), JSON.stringify({ inputs: ['src/a.ts', 'package-lock.json'] }))
  utimesSync(join(out, 'cli.mjs'), 2000, 2000)
  return { root, out }
}

describe('scripts/cli-stale.mjs staleReason (the guard of npm run cli against a stale bundle)', () => {
  it('a bundle newer than every input is current', () => {
    const { root, out } = tree()
    expect(staleReason(root, out)).toBeNull()
  })
  it('an edited source file, an edited lock file or a deleted input makes it stale, naming the file', () => {
    const t1 = tree()
    utimesSync(join(t1.root, 'src/a.ts'), 3000, 3000)
    expect(staleReason(t1.root, t1.out)).toBe('src/a.ts changed')
    const t2 = tree()
    utimesSync(join(t2.root, 'package-lock.json'), 3000, 3000)
    expect(staleReason(t2.root, t2.out)).toBe('package-lock.json changed')
    const t3 = tree()
    rmSync(join(t3.root, 'src/a.ts'))
    expect(staleReason(t3.root, t3.out)).toBe('src/a.ts is gone')
  })
  it('no bundle, or no inputs list, is stale', () => {
    const t1 = tree()
    rmSync(join(t1.out, 'cli.mjs'))
    expect(staleReason(t1.root, t1.out)).toBe('there is no bundle')
    const t2 = tree()
    writeFileSync(join(t2.out, 'inputs.json'), '{}')
    expect(staleReason(t2.root, t2.out)).toBe('inputs.json lists no inputs')
  })
})
