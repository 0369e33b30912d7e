/**
 * The import directions of design.md "The house", as data and one pure checker (the
 * app's model/, trace/ and ui/ below its features and shell included).
 * layers.test.ts runs it over src/ and over hand-made violations.
 */
import { posix } from 'node:path'
import { findImports, stripComments } from './source-scan'

export interface SourceFile {
  /** Repo-relative POSIX path, e.g. `src/core/replay.ts`. */
  path: string
  source: string
}

export interface Violation {
  file: string
  line: number
  import: string
  rule: string
}

/** Layers that the pure core and crypto must never import. */
const ABOVE_CORE = ['chain', 'network', 'app', 'cli', 'devnode', 'worker', 'signing', 'storage']
/** The wire modules: the only importers of src/gen (besides src/gen itself). */
const GEN_IMPORTERS = [
  'src/core/decode',
  'src/core/encode',
  'src/network',
  'src/devnode',
  'src/cli',
  'src/app/features/raw/wire-tree.ts',
  'src/gen',
]
/** Chain clients: the core reaches a chain only through its SmartWalletVerifier port. */
const CHAIN_CLIENTS = /^(viem|wagmi|ox|@wagmi\/[^/]+|@tanstack\/[^/]+)(\/|$)/

/** The app's shared lower layers: they import no feature and not the shell that composes the features. */
const APP_BASE = ['src/app/model', 'src/app/trace', 'src/app/ui']

const isTestFile = (p: string): boolean => /\.(test|spec)\.[cm]?[jt]sx?$/.test(p) || /(^|\/)__tests__\//.test(p)

const under = (p: string, dir: string): boolean => p === dir || p.startsWith(`${dir}/`)

/** `src/<layer>/…` → `<layer>`; anything else → null. */
function layerOf(p: string): string | null {
  const m = /^src\/([^/]+)\//.exec(p)
  return m ? m[1]! : null
}

function featureOf(p: string): string | null {
  const m = /^src\/app\/features\/([^/]+)\//.exec(p)
  return m ? m[1]! : null
}

/** Resolves a relative or root-absolute specifier to a repo-relative path; bare packages → null. */
function resolveSpecifier(fromFile: string, spec: string): string | null {
  if (spec.startsWith('./') || spec.startsWith('../') || spec === '.' || spec === '..') {
    return posix.normalize(posix.join(posix.dirname(fromFile), spec))
  }
  if (spec.startsWith('/src/')) return posix.normalize(spec.slice(1))
  if (spec.startsWith('src/')) return posix.normalize(spec)
  return null
}

/**
 * Checks production sources (test files beside modules are exempt: a core test may
 * read fixtures with node:fs or build updates with src/signing).
 */
export function checkLayers(files: SourceFile[]): Violation[] {
  const out: Violation[] = []
  for (const f of files) {
    if (isTestFile(f.path) || !under(f.path, 'src')) continue
    const layer = layerOf(f.path)
    const inCore = layer === 'core'
    const pure = layer === 'core' || layer === 'crypto'
    const feature = featureOf(f.path)
    const add = (line: number, text: string, rule: string): void => {
      out.push({ file: f.path, line, import: text, rule })
    }
    for (const ref of findImports(f.source)) {
      const spec = ref.specifier
      const target = resolveSpecifier(f.path, spec)
      if (target !== null) {
        const tLayer = layerOf(`${target}/`)
        if (pure && tLayer !== null && ABOVE_CORE.includes(tLayer)) {
          add(ref.line, ref.text, `src/${layer} must not import src/${tLayer} (imports point down the layers)`)
        }
        if (under(target, 'src/gen') && !GEN_IMPORTERS.some((d) => under(f.path, d))) {
          add(ref.line, ref.text, `only the wire modules (${GEN_IMPORTERS.slice(0, -1).join(', ')}) may import src/gen`)
        }
        const tFeature = featureOf(`${target}/`)
        if (feature !== null && tFeature !== null && tFeature !== feature) {
          add(ref.line, ref.text, `feature "${feature}" must not import feature "${tFeature}"`)
        }
        const base = APP_BASE.find((d) => under(f.path, d))
        if (
          base &&
          (under(target, 'src/app/features') || under(target, 'src/app/shell') || /^src\/app\/App\b/.test(target))
        ) {
          add(ref.line, ref.text, `${base}/ is below the features and the shell: it must not import ${target}`)
        }
        continue
      }
      // Bare specifiers: packages and node: built-ins.
      if (/^@noble\//.test(spec) && layer !== 'crypto') {
        add(ref.line, ref.text, 'only src/crypto may import @noble/*')
      }
      if (inCore && (spec.startsWith('node:') || NODE_BUILTINS.has(spec.split('/')[0]!))) {
        add(ref.line, ref.text, 'src/core must not import Node built-ins')
      }
      if (inCore && /^(react|react-dom)(\/|$)/.test(spec)) {
        add(ref.line, ref.text, 'src/core must not import React')
      }
      if (pure && CHAIN_CLIENTS.test(spec)) {
        add(
          ref.line,
          ref.text,
          `src/${layer} must not import a chain or network client (use the SmartWalletVerifier port)`,
        )
      }
    }
    if (inCore) {
      const code = stripComments(f.source, true)
      const re = /(?<![\w$.])fetch\s*\(|\b(?:globalThis|window|self)\s*\.\s*fetch\b/g
      for (let m = re.exec(code); m; m = re.exec(code)) {
        const line = code.slice(0, m.index).split('\n').length
        add(
          line,
          f.source.split('\n')[line - 1]!.trim(),
          'src/core must not use fetch (I/O goes through injected ports)',
        )
      }
    }
  }
  return out
}

export function formatViolations(vs: Violation[]): string {
  return vs.map((v) => `${v.file}:${v.line}: ${v.rule}\n    ${v.import}`).join('\n')
}

const NODE_BUILTINS = new Set([
  'assert',
  'async_hooks',
  'buffer',
  'child_process',
  'cluster',
  'console',
  'constants',
  'crypto',
  'dgram',
  'diagnostics_channel',
  'dns',
  'domain',
  'events',
  'fs',
  'http',
  'http2',
  'https',
  'inspector',
  'module',
  'net',
  'os',
  'path',
  'perf_hooks',
  'process',
  'punycode',
  'querystring',
  'readline',
  'repl',
  'stream',
  'string_decoder',
  'sys',
  'timers',
  'tls',
  'trace_events',
  'tty',
  'url',
  'util',
  'v8',
  'vm',
  'wasi',
  'worker_threads',
  'zlib',
])
