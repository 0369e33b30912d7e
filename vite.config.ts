/// <reference types="vitest/config" />
import { fileURLToPath } from 'node:url'
import { defineConfig } from 'vite'
import react from '@vitejs/plugin-react'

/**
 * The built app's Content-Security-Policy (a <meta> tag; dev keeps none, since the
 * React refresh preamble is an inline script): no inline or remote script, workers
 * from this origin only. connect-src allows https and local hosts for `?url=`.
 */
const CSP = [
  "default-src 'self'",
  "script-src 'self' 'wasm-unsafe-eval'",
  "worker-src 'self'",
  "style-src 'self'",
  "img-src 'self' data: blob:",
  "connect-src 'self' https: http://localhost:* http://127.0.0.1:*",
  "object-src 'none'",
  "base-uri 'none'",
  "form-action 'none'",
].join('; ')

/**
 * In the workers' build, the decoder's protobuf half is not imported with the decoder
 * (src/core/decode/record.ts): `record-eager.ts` becomes an empty module, and the replay
 * worker imports src/core/decode/update.ts when a log needs it, so protobuf's runtime
 * (about 90 KB) is a chunk of its own, loaded only then.
 */
const lazyRecordReader = {
  name: 'inspector-lazy-record-reader',
  enforce: 'pre' as const,
  resolveId(source: string, importer: string | undefined) {
    if (source === './record-eager' && importer && /[\\/]src[\\/]core[\\/]decode[\\/]/.test(importer))
      return '\0inspector-record-eager-empty'
    return null
  },
  load(id: string) {
    return id === '\0inspector-record-eager-empty' ? 'export {}' : null
  },
}

/**
 * In the workers' build, the core's SHA-256 and SHA-512 (`crypto/hash`, noble's) are the
 * verification backend's (src/crypto/hash-installed.ts, installed by src/worker/browser-loaders.ts
 * once the backend loads): @noble/hashes' SHA-2 then loads in a worker only with noble's backend.
 */
const installedHashes = {
  name: 'inspector-installed-hashes',
  enforce: 'pre' as const,
  resolveId(source: string, importer: string | undefined) {
    if (/(^|\/)crypto\/hash$/.test(source) && importer && /[\\/]src[\\/]core[\\/]/.test(importer))
      return fileURLToPath(new URL('./src/crypto/hash-installed.ts', import.meta.url))
    return null
  },
}

/**
 * The gallery's index as the app imports it, in two parts, neither with a fixture's other
 * files, its expected report's name nor the index's notes:
 * - `test/fixtures/index.json?gallery-open` (src/app/features/log-input/gallery.ts, in the
 *   main bundle): what opening `#example=<name>` needs, per fixture its name, its verifier
 *   when it has one, and its bundle file when that is not `<name>.json`;
 * - `test/fixtures/index.json?gallery` (./gallery-list.ts there, a lazy chunk): what the
 *   Open panel's list shows besides (description, verdict, rules).
 */
interface FixtureEntry {
  readonly name: string
  readonly description: string
  readonly ok: boolean
  readonly rules?: readonly string[]
  readonly verifier?: string
  readonly files?: { readonly bundle?: string }
}
const galleryIndex = {
  name: 'inspector-gallery-index',
  enforce: 'pre' as const,
  transform(code: string, id: string) {
    const query = /[\\/]test[\\/]fixtures[\\/]index\.json\?(gallery(?:-open)?)(?:&|$)/.exec(id)?.[1]
    if (!query) return null
    const { fixtures = [] } = JSON.parse(code) as { fixtures?: readonly FixtureEntry[] }
    const bundled = fixtures.filter((f) => f.files?.bundle)
    const kept =
      query === 'gallery-open'
        ? bundled.map((f) => ({
            name: f.name,
            ...(f.verifier && f.verifier !== 'none' ? { verifier: f.verifier } : {}),
            ...(f.files!.bundle !== `${f.name}.json` ? { file: f.files!.bundle } : {}),
          }))
        : bundled.map((f) => ({
            name: f.name,
            description: f.description,
            ok: f.ok,
            rules: f.rules,
            verifier: f.verifier,
            file: f.files!.bundle,
          }))
    return { code: `export default ${JSON.stringify(kept)}`, map: null }
  },
}

const contentSecurityPolicy = {
  name: 'inspector-csp',
  apply: 'build' as const,
  transformIndexHtml: () => [
    {
      tag: 'meta',
      attrs: { 'http-equiv': 'Content-Security-Policy', content: CSP },
      injectTo: 'head-prepend' as const,
    },
  ],
}

/**
 * Component tests (`*.test.tsx`, beside their components) run in happy-dom: each names it in
 * a `// @vitest-environment happy-dom` comment; the rest run in Node.
 */
const UNIT_TESTS = ['src/**/*.test.ts', 'src/**/*.test.tsx', 'test/**/*.test.ts', 'scripts/**/*.test.ts']
/** Tests that start processes (anvil, the devnode, the CLI, buf), worker threads, or long property runs. */
const SLOW_TESTS = [
  'test/chain/**/*.test.ts',
  'test/devnode/**/*.test.ts',
  'test/interop/**/*.test.ts',
  'test/cli.test.ts',
  'test/cli-watch*.test.ts',
  'test/fixtures.test.ts',
  'test/audit/**/*.test.ts',
  'test/infra/gen-fresh.test.ts',
  'src/cli/pool/**/*.test.ts',
  'src/core/decode/fuzz.test.ts',
  'src/core/apply/properties.test.ts',
]

export default defineConfig({
  plugins: [react(), galleryIndex, contentSecurityPolicy],
  server: {
    host: '127.0.0.1',
    port: 5173,
    strictPort: false,
    warmup: { clientFiles: ['./src/app/main.tsx', './src/worker/replay.worker.ts'] },
  },
  preview: { host: '127.0.0.1', port: 4173, strictPort: true },
  worker: {
    format: 'es',
    plugins: () => [lazyRecordReader, installedHashes],
    // The workers import the fast backend's loaders statically on purpose
    // (src/worker/browser-loaders.ts: one request, not one per dynamic import), which makes
    // src/crypto/backend.ts's dynamic imports of them ineffective in every worker bundle:
    // eight warnings of a known, intended split. (Vite passes workers no log filter; the
    // app's own bundle still reports the check.)
    rolldownOptions: { checks: { ineffectiveDynamicImport: false } },
  },
  build: { target: 'es2022', sourcemap: true },
  test: {
    environment: 'node',
    testTimeout: 60_000,
    reporters: ['default'],
    // `vitest run` (npm test) runs both; `vitest run --project fast` is the quick loop.
    projects: [
      { extends: true, test: { name: 'fast', include: UNIT_TESTS, exclude: SLOW_TESTS } },
      // Process start-up (tsx, anvil, the devnode) takes tens of seconds on a loaded machine.
      { extends: true, test: { name: 'slow', include: SLOW_TESTS, hookTimeout: 120_000, testTimeout: 180_000 } },
    ],
  },
})
