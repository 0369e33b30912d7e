/**
 * Import directions of design.md "The house": core and crypto import nothing above
 * them; only src/crypto imports @noble/*; only the wire modules import src/gen; the
 * core uses no node:*, no React, no fetch; app features do not import each other; the
 * app's model/, trace/ and ui/ import no feature and not the shell.
 */
import { describe, expect, it } from 'vitest'
import { checkLayers, formatViolations } from './layers'
import { findImports, readSources } from './source-scan'

describe('import directions of the house (design.md)', () => {
  it('src/ has no import that points up the layers or across features', () => {
    const violations = checkLayers(readSources('src'))
    expect(violations, `layer violations:\n${formatViolations(violations)}`).toEqual([])
  })
})

describe('the import scanner', () => {
  it('finds static, type-only, multi-line, re-export, side-effect, dynamic and require imports', () => {
    const src = [
      "import a from './a'",
      "import type { B } from '../b'",
      'import {',
      '  c,',
      '  d as e,',
      '} from "./c"',
      "import './side-effect'",
      "export * from './re'",
      "export { f } from './f'",
      "const g = await import('./g')",
      "const h = require('h')",
      "// import nope from './commented'",
      "/* import nope2 from './block' */",
      "const s = 'not an import'",
    ].join('\n')
    expect(findImports(src).map((r) => r.specifier)).toEqual([
      './a',
      '../b',
      './c',
      './side-effect',
      './re',
      './f',
      './g',
      'h',
    ])
  })
})

describe('the layer checker', () => {
  const check = (path: string, source: string) => checkLayers([{ path, source }]).map((v) => v.rule)

  it('rejects core and crypto importing chain, network, app, cli, devnode, worker or signing', () => {
    for (const layer of ['chain', 'network', 'app', 'cli', 'devnode', 'worker', 'signing', 'storage']) {
      expect(check('src/core/replay.ts', `import { x } from '../${layer}/x'`)).toHaveLength(1)
      expect(check('src/crypto/ed25519.ts', `export { x } from '../${layer}/x'`)).toHaveLength(1)
      expect(check('src/core/apply/add.ts', `const m = await import('../../${layer}/index')`)).toHaveLength(1)
    }
    expect(check('src/core/replay.ts', "import { sha256 } from '../crypto/hash'")).toEqual([])
    expect(check('src/cli/main.ts', "import { replay } from '../core/replay'")).toEqual([])
  })

  it('allows @noble/* only in src/crypto', () => {
    expect(check('src/crypto/hash.ts', "import { sha256 } from '@noble/hashes/sha2.js'")).toEqual([])
    expect(check('src/core/inbox-id.ts', "import { sha256 } from '@noble/hashes/sha2.js'")).toHaveLength(1)
    expect(check('src/signing/local.ts', "import { secp256k1 } from '@noble/curves/secp256k1.js'")).toHaveLength(1)
  })

  it('allows src/gen only in the wire modules', () => {
    const imp = (depth: number) =>
      `import { IdentityUpdateSchema } from '${'../'.repeat(depth)}gen/identity/associations/association_pb'`
    expect(check('src/core/decode/binary.ts', imp(2))).toEqual([])
    expect(check('src/core/encode/binary.ts', imp(2))).toEqual([])
    expect(check('src/network/client.ts', imp(1))).toEqual([])
    expect(check('src/devnode/server.ts', imp(1))).toEqual([])
    expect(check('src/cli/main.ts', imp(1))).toEqual([])
    expect(check('src/core/apply/add.ts', imp(2))).toHaveLength(1)
    expect(check('src/app/main.tsx', imp(1))).toHaveLength(1)
    expect(check('src/signing/build.ts', imp(1))).toHaveLength(1)
  })

  it('keeps node:*, React, chain clients and fetch out of the core', () => {
    expect(check('src/core/a.ts', "import { readFileSync } from 'node:fs'")).toHaveLength(1)
    expect(check('src/core/a.ts', "import { createHash } from 'crypto'")).toHaveLength(1)
    expect(check('src/core/a.ts', "import { useState } from 'react'")).toHaveLength(1)
    expect(check('src/core/a.ts', "import { createRoot } from 'react-dom/client'")).toHaveLength(1)
    expect(check('src/core/a.ts', "import { createPublicClient } from 'viem'")).toHaveLength(1)
    expect(check('src/core/a.ts', 'const r = await fetch(url)')).toHaveLength(1)
    expect(check('src/core/a.ts', 'const r = await globalThis.fetch(url)')).toHaveLength(1)
    expect(check('src/core/a.ts', '// no fetch() here\nconst s = "fetch(x)"\nconst y = deps.fetch(url)')).toEqual([])
    expect(check('src/cli/main.ts', "import { readFileSync } from 'node:fs'")).toEqual([])
    expect(check('src/network/client.ts', 'const r = await fetch(url)')).toEqual([])
  })

  it('rejects one app feature importing another', () => {
    expect(
      check('src/app/features/timeline/components/Step.tsx', "import { X } from '../../state/components/X'"),
    ).toHaveLength(1)
    expect(check('src/app/features/timeline/components/Step.tsx', "import { Y } from '../hooks/useStep'")).toEqual([])
    expect(check('src/app/features/timeline/components/Step.tsx', "import { Z } from '../../../shell/Z'")).toEqual([])
  })

  it('keeps the model/, trace/ and ui/ of the app below its features and shell', () => {
    expect(check('src/app/trace/useInspector.ts', "import { x } from '../features/log-input/attempts'")).toHaveLength(1)
    expect(check('src/app/model/a.ts', "import type { X } from '../features/compose/flows/flow-ids'")).toHaveLength(1)
    expect(check('src/app/ui/Keys.tsx', "import { DRAWERS } from '../shell/drawers'")).toHaveLength(1)
    expect(check('src/app/ui/Keys.tsx', "import { App } from '../App'")).toHaveLength(1)
    expect(check('src/app/ui/Keys.tsx', "import { KEYMAP } from './keymap'")).toEqual([])
    expect(check('src/app/trace/useInspector.ts', "import { looksLikeJson } from '../model/input-kind'")).toEqual([])
    expect(
      check('src/app/shell/drawers.tsx', "import { Composer } from '../features/compose/components/Composer'"),
    ).toEqual([])
  })

  it('exempts test files beside their modules', () => {
    expect(check('src/core/replay.test.ts', "import { readFileSync } from 'node:fs'")).toEqual([])
  })

  it('names the offending file, line and import', () => {
    const [v] = checkLayers([{ path: 'src/core/x.ts', source: "\n\nimport { a } from '../app/a'" }])
    expect(v).toMatchObject({ file: 'src/core/x.ts', line: 3, import: "import { a } from '../app/a'" })
  })
})
