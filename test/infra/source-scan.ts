/**
 * Small source scanners shared by the infrastructure tests (layers, traceability).
 * Regex based on purpose: no parser dependency, fast, and good enough for the
 * import/export-from statements, dynamic import() and test titles this repo writes.
 */
import { readdirSync, readFileSync } from 'node:fs'
import { join, relative, sep } from 'node:path'
import { fileURLToPath } from 'node:url'

/** Absolute path of the repository root (this file lives in test/infra/). */
export const REPO_ROOT = fileURLToPath(new URL('../..', import.meta.url)).replace(/[\\/]$/, '')

const SKIP_DIRS = new Set([
  'node_modules',
  '.git',
  'dist',
  'reports',
  'test-results',
  'playwright-report',
  'coverage',
  '.vite',
])

/** Every file under `dir` (repo-relative, POSIX separators) whose name passes `keep`. */
export function listFiles(dir: string, keep: (rel: string) => boolean): string[] {
  const out: string[] = []
  const walk = (abs: string): void => {
    let entries
    try {
      entries = readdirSync(abs, { withFileTypes: true })
    } catch {
      return
    }
    for (const e of entries) {
      const child = join(abs, e.name)
      if (e.isDirectory()) {
        if (!SKIP_DIRS.has(e.name)) walk(child)
      } else if (e.isFile()) {
        const rel = relative(REPO_ROOT, child).split(sep).join('/')
        if (keep(rel)) out.push(rel)
      }
    }
  }
  walk(join(REPO_ROOT, dir))
  return out.sort()
}

export function readRepoFile(rel: string): string {
  return readFileSync(join(REPO_ROOT, rel), 'utf8')
}

const SOURCE_RE = /\.(?:[cm]?[jt]sx?)$/

/** The JavaScript and TypeScript sources (declaration files left out) under each of `dirs`, read. */
export function readSources(...dirs: string[]): { path: string; source: string }[] {
  return dirs.flatMap((dir) =>
    listFiles(dir, (p) => SOURCE_RE.test(p) && !p.endsWith('.d.ts')).map((path) => ({
      path,
      source: readRepoFile(path),
    })),
  )
}

/**
 * Blanks out comments (keeping line breaks, so offsets map to the same lines) and,
 * when `blankStrings` is set, the contents of string and template literals too.
 * Regex literals are not recognised; a `//` or quote inside one may confuse it.
 */
export function stripComments(src: string, blankStrings = false): string {
  let out = ''
  let i = 0
  const n = src.length
  while (i < n) {
    const c = src[i]!
    const d = src[i + 1]
    if (c === '/' && d === '/') {
      while (i < n && src[i] !== '\n') {
        out += ' '
        i++
      }
    } else if (c === '/' && d === '*') {
      out += '  '
      i += 2
      while (i < n && !(src[i] === '*' && src[i + 1] === '/')) {
        out += src[i] === '\n' ? '\n' : ' '
        i++
      }
      if (i < n) {
        out += '  '
        i += 2
      }
    } else if (c === '"' || c === "'" || c === '`') {
      out += c
      i++
      while (i < n && src[i] !== c) {
        if (src[i] === '\\' && i + 1 < n) {
          out += blankStrings ? '  ' : src[i]! + src[i + 1]!
          i += 2
          continue
        }
        if (c !== '`' && src[i] === '\n') break // unterminated: give up on this literal
        out += blankStrings && src[i] !== '\n' ? ' ' : src[i]!
        i++
      }
      if (i < n && src[i] === c) {
        out += c
        i++
      }
    } else {
      out += c
      i++
    }
  }
  return out
}

export interface ImportRef {
  specifier: string
  line: number
  /** The statement as written, trimmed to one line, for error messages. */
  text: string
}

const STATIC_RE = /\b(?:import|export)\s+(?:type\s+)?(?:[\w*{}\s,$]+?\s+from\s*)?(['"])([^'"\n]+)\1/g
const DYNAMIC_RE = /\bimport\s*\(\s*(['"`])([^'"`\n]+)\1\s*\)/g
const REQUIRE_RE = /\brequire\s*\(\s*(['"])([^'"\n]+)\1\s*\)/g

/** Every module specifier a source file imports or re-exports (static, dynamic, require). */
export function findImports(src: string): ImportRef[] {
  const code = stripComments(src)
  const refs: ImportRef[] = []
  for (const re of [STATIC_RE, DYNAMIC_RE, REQUIRE_RE]) {
    re.lastIndex = 0
    for (let m = re.exec(code); m; m = re.exec(code)) {
      const line = code.slice(0, m.index).split('\n').length
      refs.push({ specifier: m[2]!, line, text: m[0].replace(/\s+/g, ' ').trim() })
    }
  }
  return refs.sort((a, b) => a.line - b.line)
}

/**
 * The string-literal titles passed to describe / it / test (with any modifiers:
 * `.only`, `.skip`, `.each(table)`, `test.describe.serial`, `it.prop([...])`, …).
 * Titles computed from variables are not seen: name rule ids in literal titles.
 */
export function findTestTitles(src: string): string[] {
  const code = stripComments(src)
  // Same offsets, string contents blanked: a `describe(` inside a string is not a call.
  const masked = stripComments(src, true)
  const titles: string[] = []
  const head = /(?<![\w$.])(describe|it|test)\b/g
  for (let m = head.exec(masked); m; m = head.exec(masked)) {
    let i = m.index + m[0].length
    // Walk `.member` and balanced `(...)` groups until the call whose first argument is a literal.
    for (let guard = 0; guard < 20; guard++) {
      while (/\s/.test(code[i] ?? '')) i++
      if (code[i] === '.') {
        const mm = /^\.\s*[\w$]+/.exec(code.slice(i))
        if (!mm) break
        i += mm[0].length
        continue
      }
      if (code[i] !== '(') break
      let j = i + 1
      while (/\s/.test(code[j] ?? '')) j++
      const q = code[j]
      if (q === '"' || q === "'" || q === '`') {
        const lit = readLiteral(code, j)
        if (lit !== null) titles.push(lit)
        break
      }
      // Not a literal: skip this balanced group (e.g. the table of `.each(...)`) and go on.
      const end = skipBalanced(code, i)
      if (end < 0) break
      i = end
    }
  }
  return titles
}

function readLiteral(code: string, start: number): string | null {
  const q = code[start]!
  let s = ''
  let i = start + 1
  while (i < code.length && code[i] !== q) {
    if (code[i] === '\\' && i + 1 < code.length) {
      s += code[i + 1]
      i += 2
      continue
    }
    s += code[i]
    i++
  }
  return i < code.length ? s : null
}

function skipBalanced(code: string, open: number): number {
  let depth = 0
  for (let i = open; i < code.length; i++) {
    const c = code[i]
    if (c === '"' || c === "'" || c === '`') {
      i++
      while (i < code.length && code[i] !== c) {
        if (code[i] === '\\') i++
        i++
      }
    } else if (c === '(' || c === '[' || c === '{') depth++
    else if (c === ')' || c === ']' || c === '}') {
      depth--
      if (depth === 0) return i + 1
    }
  }
  return -1
}
