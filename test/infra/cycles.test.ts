/** No import cycle anywhere in the sources, the tests, the scripts or the benchmarks (design.md "The house"). */
import { describe, expect, it } from 'vitest'
import { findCycles, importGraph } from './cycles'
import { readSources } from './source-scan'

describe('import cycles', () => {
  it('src/, test/, e2e/, scripts/ and bench/ import in a tree: no file reaches itself', () => {
    const cycles = findCycles(importGraph(readSources('src', 'test', 'e2e', 'scripts', 'bench')))
    expect(
      cycles.map((c) => c.join(' → ')),
      'import cycles',
    ).toEqual([])
  })
})

describe('findCycles', () => {
  const graphOf = (files: Record<string, string>) =>
    importGraph(Object.entries(files).map(([path, source]) => ({ path, source })))

  it('finds a two-file cycle and a longer one, as closed paths', () => {
    const g = graphOf({
      'src/a.ts': "import { b } from './b'",
      'src/b.ts': "import type { A } from './a.js'",
      'src/c/x.ts': "export { y } from './y'",
      'src/c/y.ts': "import { z } from '../z'",
      'src/z.ts': "const x = await import('./c/x')",
    })
    expect(findCycles(g)).toEqual([
      ['src/a.ts', 'src/b.ts', 'src/a.ts'],
      ['src/c/x.ts', 'src/c/y.ts', 'src/z.ts', 'src/c/x.ts'],
    ])
  })

  it('passes a tree, diamonds, packages and files it does not know', () => {
    const g = graphOf({
      'src/top.tsx': "import { l } from './left'\nimport { r } from './right'\nimport React from 'react'",
      'src/left.ts': "import { base } from './base'",
      'src/right.ts': "import { base } from './base'\nimport { gone } from './gone'",
      'src/base.ts': "import { x } from 'vitest'",
    })
    expect(findCycles(g)).toEqual([])
  })
})
