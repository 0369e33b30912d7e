/**
 * The signature primitives in headless Chromium (issue #7): bench/primitives.bench.ts,
 * bundled for the browser, runs in a module Web Worker served by the app's own preview
 * server, next to a page that carries the built app's Content-Security-Policy. It also
 * checks, in the page itself (where that CSP applies), that the fast backend loads every
 * fast path under the app's CSP, and that under a CSP without 'wasm-unsafe-eval' it falls
 * back to noble for the WASM paths, with the reason recorded, instead of failing.
 *
 * The two loading checks run in `npm test`; the benchmark itself runs only with
 * INSPECTOR_PRIMITIVES_BENCH=1 (about two minutes).
 * INSPECTOR_PRIMITIVES_MS sets the round length (default 300 ms; 60 gives steadier best
 * rounds on a loaded machine). The bench pages are written into the served build for the
 * run and removed after it. Numbers go to the test log and to tmp/primitives-chromium.json.
 */
import { copyFileSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { fileURLToPath } from 'node:url'
import { build } from 'esbuild'
import { formatReport } from '../bench/primitives.bench'
import { WASM_HASHES } from '../src/crypto/backend'
import { expect, expectNoA11yViolations, test } from './fixtures'

// Code inside page.evaluate runs in the page; tsconfig.node.json (which checks e2e/) has no DOM lib.
declare const window: any, document: any

const ENABLED = process.env.INSPECTOR_PRIMITIVES_BENCH === '1'
const ROOT = fileURLToPath(new URL('..', import.meta.url))
const slot = process.env.E2E_SLOT
/** The directory `vite preview` serves (playwright.config.ts). */
const DIST = `${ROOT}${slot ? `tmp/e2e-${slot}/dist` : 'dist'}`
const DIR = `${DIST}/__primitives-bench`
const ROUND_MS = Number(process.env.INSPECTOR_PRIMITIVES_MS ?? 300)

/** The built app's CSP, from its index.html <meta> (vite.config.ts puts it there). */
function appCsp(): string {
  const html = readFileSync(`${DIST}/index.html`, 'utf8')
  const m = /<meta http-equiv="Content-Security-Policy" content="([^"]+)"/.exec(html)
  if (!m) throw new Error(`no Content-Security-Policy meta in ${DIST}/index.html`)
  return m[1]!.replace(/&#39;/g, "'")
}

async function bundle(contents: string, outfile: string): Promise<void> {
  await build({
    stdin: { contents, resolveDir: ROOT, loader: 'ts', sourcefile: outfile },
    bundle: true,
    format: 'esm',
    platform: 'browser',
    target: 'es2022',
    outfile: `${DIR}/${outfile}`,
    // libsodium's emscripten glue names Node modules on a branch the browser never takes.
    external: ['crypto', 'fs', 'path', 'url', 'module', 'worker_threads'],
    logLevel: 'error',
  })
}

const page = (title: string, csp: string) =>
  `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta http-equiv="Content-Security-Policy" content="${csp}">` +
  `<title>${title}</title><script type="module" src="./page.js"></script></head><body><main><h1>${title}</h1><pre id="out" aria-live="polite">running…</pre></main></body></html>`

test.describe('signature primitives in Chromium', () => {
  test.beforeAll(async () => {
    mkdirSync(DIR, { recursive: true })
    // The worker: runs the benchmark and posts the report.
    await bundle(
      `import { runPrimitivesBench } from './bench/primitives.bench.ts'
       self.onmessage = async (ev) => {
         try { self.postMessage({ report: await runPrimitivesBench(ev.data.ms, 'Chromium ' + navigator.userAgent.match(/Chrome\\/([0-9.]+)/)?.[1] + ' (Web Worker)') }) }
         catch (e) { self.postMessage({ error: String(e && e.stack || e) }) }
       }`,
      'worker.js',
    )
    // The page: loads the fast backend where the page's CSP applies, and starts the worker on request.
    await bundle(
      `import { buildFastBackend } from './src/crypto/backend.ts'
       // Once the hashes, which load in the background, have settled too.
       window.__backend = buildFastBackend().then(async (b) => (await b.settled, b.primitives))
       window.__runBench = (ms) => new Promise((resolve, reject) => {
         const w = new Worker(new URL('./worker.js', import.meta.url), { type: 'module' })
         w.onmessage = (ev) => (ev.data.error ? reject(new Error(ev.data.error)) : resolve(ev.data.report), w.terminate())
         w.onerror = (ev) => reject(new Error('worker failed to load: ' + ev.message))
         w.postMessage({ ms })
       })`,
      'page.js',
    )
    // The bundles fetch the fast backend's WebAssembly beside them (src/crypto/wasm-module.ts).
    mkdirSync(`${DIR}/wasm`, { recursive: true })
    for (const f of readdirSync(`${ROOT}/src/crypto/wasm`).filter((n) => n.endsWith('.wasm')))
      copyFileSync(`${ROOT}/src/crypto/wasm/${f}`, `${DIR}/wasm/${f}`)
    const csp = appCsp()
    writeFileSync(`${DIR}/index.html`, page('Signature primitives benchmark', csp))
    writeFileSync(
      `${DIR}/no-wasm.html`,
      page('Signature primitives without WebAssembly', csp.replace(" 'wasm-unsafe-eval'", '')),
    )
  })

  // The build is left as it was built: the bench pages are removed after the run.
  test.afterAll(() => {
    rmSync(DIR, { recursive: true, force: true })
  })

  test("under the app's CSP the fast backend loads every fast path in the page", async ({ page: p }) => {
    expect(appCsp()).toContain("script-src 'self' 'wasm-unsafe-eval'")
    await p.goto('/__primitives-bench/index.html')
    const primitives = await p.evaluate(() => window.__backend)
    expect(primitives).toEqual({
      'secp256k1-recover': { impl: 'libsecp256k1 (WASM, built from secp256k1@5.0.2: src/crypto/wasm)' },
      'p256-verify': { impl: 'WebCrypto' },
      'ed25519ph-verify': {
        impl: 'ref10 double-scalar multiplication (WASM, built from ed25519@0.0.5: src/crypto/wasm)',
      },
      keccak256: { impl: WASM_HASHES },
      sha256: { impl: WASM_HASHES },
    })
    await expectNoA11yViolations(p)
  })

  test("without 'wasm-unsafe-eval' the WASM paths fall back to noble with the reason, and nothing throws", async ({
    page: p,
  }) => {
    const violations: string[] = []
    p.on('console', (m) => {
      if (m.type() === 'error') violations.push(m.text())
    })
    await p.goto('/__primitives-bench/no-wasm.html')
    const primitives = await p.evaluate(() => window.__backend)
    expect(primitives['p256-verify']).toEqual({ impl: 'WebCrypto' })
    for (const name of ['secp256k1-recover', 'ed25519ph-verify', 'keccak256', 'sha256']) {
      expect(primitives[name].impl, name).toMatch(/^@noble\//)
      expect(primitives[name].fallback, name).toMatch(/unavailable: .*(WebAssembly|wasm|Content Security Policy)/i)
    }
  })

  test('ops/s of noble and each candidate, in a Web Worker', async ({ page: p }, info) => {
    test.skip(!ENABLED, 'set INSPECTOR_PRIMITIVES_BENCH=1 to run the primitives benchmark')
    test.setTimeout(240_000)
    await p.goto('/__primitives-bench/index.html')
    const report = await p.evaluate((ms) => window.__runBench(ms), ROUND_MS)
    const text = formatReport(report)
    console.log(text)
    await info.attach('primitives-chromium.txt', { body: text, contentType: 'text/plain' })
    mkdirSync(`${ROOT}tmp`, { recursive: true })
    writeFileSync(`${ROOT}tmp/primitives-chromium.json`, JSON.stringify(report, null, 2))
    await p.evaluate((t) => {
      document.getElementById('out').textContent = t
    }, text)
    // Every case checked its answer against noble before it was timed (the bench throws
    // otherwise). The fast backend must beat noble on the mix; the margin is left to the
    // numbers, since this machine's load moves them (measured 1.3× to 3.5×).
    const mixed = report.results.filter((r: { primitive: string }) => r.primitive.startsWith('mixed'))
    expect(mixed).toHaveLength(2)
    expect(mixed[1].vsNoble).toBeGreaterThan(1)
  })
})
