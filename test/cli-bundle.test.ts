/**
 * The command line's bundle (issue #13): `npm run cli` runs dist-cli/cli.mjs, which runs the
 * script dist-cli/cli.cjs from V8's code cache (scripts/cli-loader.cjs), and its pool's worker
 * threads load the bundled worker (dist-cli/verify-worker.mjs), not TypeScript.
 */
import { spawnSync } from 'node:child_process'
import { cpSync, existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join, sep } from 'node:path'
import { Worker } from 'node:worker_threads'
import { describe, expect, it } from 'vitest'
import { readLogs } from '../src/core/decode/logs'
import { fromResult, toJob, type FromVerifyWorker } from '../src/core/verify/transfer'
import { verifyUpdate } from '../src/core/verify/update'
import { ROOT, runCli } from './support/cli'

const FILE = join(ROOT, 'test', 'fixtures', 'valid-full-life.json')

async function run(env: Record<string, string>) {
  const r = await runCli(['replay', '--json', FILE], { env, timeoutMs: 120_000 })
  return { status: r.code, stdout: r.stdout.toString('utf8'), stderr: r.stderr }
}

const big = (_k: string, v: unknown) => (typeof v === 'bigint' ? v.toString() : v instanceof Uint8Array ? [...v] : v)

describe('the bundled command line', () => {
  it('with its pool forced on (INBOX_CLI_POOL_THRESHOLD=1) prints the report of one thread', async () => {
    const one = await run({ INBOX_CLI_POOL_STATS: '1' })
    expect(one.status, one.stderr).toBe(0)
    expect(one.stderr).toBe('') // below the threshold: no pool, no stats
    const pooled = await run({ INBOX_CLI_POOL_THRESHOLD: '1', INBOX_CLI_POOL_STATS: '1' })
    expect(pooled.status, pooled.stderr).toBe(0)
    expect(pooled.stdout).toBe(one.stdout)
    // A pool was started and no worker failed (a 13-update log may finish before one is ready).
    expect(pooled.stderr).toMatch(/^pool: \d+\/[1-9]\d* workers ready/m)
    expect(pooled.stderr).not.toMatch(/failures/)
  })

  it('its worker (dist-cli/verify-worker.mjs) starts as a plain worker thread, loads the fast backend and verifies as one thread does', async () => {
    expect((await run({})).status).toBe(0) // the launcher has (re)built the bundle if it was stale
    const [log] = readLogs(readFileSync(FILE), FILE)
    const updates = log!.entries.flatMap((e) => ('error' in e.update ? [] : [e.update]))
    const w = new Worker(join(ROOT, 'dist-cli', 'verify-worker.mjs'), { execArgv: [] })
    try {
      const next = () =>
        new Promise<FromVerifyWorker>((resolve, reject) => {
          w.once('message', resolve)
          w.once('error', reject)
        })
      expect(await next()).toEqual({ type: 'ready', backend: 'fast' })
      w.postMessage({ type: 'verify', batch: 1, jobs: updates.map((u, i) => toJob(i, u)) })
      const answer = await next()
      expect(answer.type).toBe('verified')
      if (answer.type !== 'verified') return
      expect(answer.results).toHaveLength(updates.length)
      for (const [i, u] of updates.entries()) {
        const local = await verifyUpdate(u)
        expect(JSON.stringify(fromResult(u, answer.results[i]!), big)).toBe(JSON.stringify(local, big))
      }
    } finally {
      await w.terminate()
    }
  }, 120_000)

  it('a replay evaluates neither viem nor Connect-ES: they are in cli.cjs, behind lazy module wrappers run only by --chain and fetch', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'cli-coverage-'))
    try {
      // V8's own record of which functions ran (NODE_V8_COVERAGE), for the script cli.cjs.
      const r = await runCli(['replay', '--json', FILE], { env: { NODE_V8_COVERAGE: dir }, timeoutMs: 120_000 })
      expect(r.code, r.stderr).toBe(0)
      const scripts = readdirSync(dir).flatMap(
        (f) => (JSON.parse(readFileSync(join(dir, f), 'utf8')) as { result: CoveredScript[] }).result,
      )
      const cli = scripts.find(
        (s) => s.url.endsWith(`${sep}dist-cli${sep}cli.cjs`) || s.url.endsWith('/dist-cli/cli.cjs'),
      )
      expect(cli, scripts.map((s) => s.url).join('\n')).toBeDefined()
      // esbuild names each lazily evaluated module's wrapper after the module's path.
      const modules = cli!.functions.filter((f) => /^(src|node_modules)\//.test(f.functionName))
      const ran = new Set(modules.filter((f) => f.ranges[0]!.count > 0).map((f) => f.functionName))
      const lazy = (n: string) =>
        /^node_modules\/(viem|@connectrpc)\//.test(n) || /^src\/(cli\/fetch|chain\/verifier)\.ts$/.test(n)
      // The wrappers exist (else this test could not fail), the replay's modules ran, the lazy ones did not.
      expect(modules.filter((f) => lazy(f.functionName)).length).toBeGreaterThan(100)
      expect(ran).toContain('src/core/replay.ts')
      expect([...ran].filter(lazy)).toEqual([])
      // And it verified on the fast backend: a loader that fails falls back to noble silently.
      const calls = new Set(cli!.functions.filter((f) => f.ranges[0]!.count > 0).map((f) => f.functionName))
      // The curves (and P-256's OpenSSL calls) on the native addon where the build made one (src/crypto/native-crypto.test.ts
      // checks that it does wherever a C compiler is), else on the WebAssembly modules.
      const native = existsSync(join(ROOT, 'dist-cli', 'native', 'inbox-crypto.node'))
      const curves = native
        ? ['loadNativeSecp256k1Recover', 'loadNativeEd25519Combine', 'loadNativeP256Verify']
        : ['loadWasmSecp256k1Recover', 'loadWasmEd25519Combine', 'nodeP256Verifier']
      for (const f of [...curves, 'loadWasmHashes', 'openSslP256Verifier']) expect(calls, f).toContain(f)
      if (native) expect(calls).not.toContain('loadWasmSecp256k1Recover')
      expect(calls).toContain('verifyWithCombine')
      expect(calls).not.toContain('nobleSecp256k1Recover')
    } finally {
      rmSync(dir, { recursive: true, force: true })
    }
  })

  it('runs from the code cache that the build wrote, and refuses a cache of another build', async () => {
    const used = await runCli(['replay', '--json', FILE], { env: { INBOX_CLI_CODE_CACHE: 'report' } })
    expect(used.code, used.stderr).toBe(0)
    expect(used.stderr).toBe('code cache: used\n')
    // The same bundle with a cache made for other bytes of the same length: refused, same output.
    const dir = mkdtempSync(join(tmpdir(), 'cli-cache-'))
    try {
      for (const f of readdirSync(join(ROOT, 'dist-cli'))) {
        if (f.endsWith('.mjs') || f === 'load.cjs' || f === 'cli.cjs.cache' || f === 'wasm')
          cpSync(join(ROOT, 'dist-cli', f), join(dir, f), { recursive: true })
      }
      const script = readFileSync(join(ROOT, 'dist-cli', 'cli.cjs'), 'utf8')
      writeFileSync(join(dir, 'cli.cjs'), script) // a new file: another modification time
      const stale = spawnSync(process.execPath, [join(dir, 'cli.mjs'), 'replay', '--json', FILE], {
        cwd: ROOT,
        env: { ...process.env, INBOX_CLI_CODE_CACHE: 'report' },
        encoding: 'utf8',
      })
      expect(stale.status, stale.stderr).toBe(0)
      expect(stale.stderr).toBe('code cache: stale\n')
      expect(stale.stdout).toBe(used.stdout.toString('utf8'))
    } finally {
      rmSync(dir, { recursive: true, force: true })
    }
  }, 120_000)
})

interface CoveredScript {
  url: string
  functions: { functionName: string; ranges: { count: number }[] }[]
}
