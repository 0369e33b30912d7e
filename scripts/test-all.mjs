#!/usr/bin/env node
/**
 * `npm test`: every suite, in order, each one run even when an earlier one failed.
 *
 *   1. lint       biome check --error-on-warnings . (one test)
 *   2. deadcode   knip: unused files, exports, types and dependencies (one test; knip.jsonc)
 *   3. typecheck  tsc -p tsconfig.core.json, tsconfig.node.json, tsconfig.app.json,
 *                 tsconfig.test.json (in parallel; each config counts as one test)
 *   4. unit       vitest run: unit, property, command-line, chain and infra tests
 *                 (test/infra/gen-fresh.test.ts checks src/gen against proto/)
 *                 → reports/vitest.json
 *   5. e2e        vite build, then Playwright in /usr/bin/chromium against
 *                 `vite preview` on a free port (E2E_PORT) → reports/e2e.json
 *
 * unit and e2e need ../shared beside the repository (the spec, the vectors); without it
 * each is not run and counts as 1 failed, with a note naming the missing files.
 *
 * Counts come from the runners' JSON reports (vitest: numPassedTests/numFailedTests;
 * Playwright: stats.expected + stats.flaky passed, stats.unexpected failed). A runner
 * that exits non-zero without a failed test in its report (crash, no report, load
 * error, build failure) adds 1 failed. The last line printed is the grand total,
 * `N passed, N failed`; the exit status is 1 when anything failed.
 *
 *   npm test -- --only=unit            one suite (lint | deadcode | typecheck | unit | e2e; comma-separate several)
 *   npm test -- --only=typecheck,unit
 */
import { spawn } from 'node:child_process'
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { createServer } from 'node:net'
import { dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..')
const BIN = join(ROOT, 'node_modules', '.bin')
const REPORTS = join(ROOT, 'reports')
const CI = !!process.env.CI
const SUITES = ['lint', 'deadcode', 'typecheck', 'unit', 'e2e']
const ALIASES = {
  biome: 'lint',
  knip: 'deadcode',
  vitest: 'unit',
  tsc: 'typecheck',
  types: 'typecheck',
  browser: 'e2e',
  playwright: 'e2e',
}

// ---- arguments -------------------------------------------------------------------
let only = SUITES
for (let i = 2; i < process.argv.length; i++) {
  const a = process.argv[i]
  if (a === '--help' || a === '-h') {
    console.log('usage: npm test [-- --only=lint,deadcode,typecheck,unit,e2e]')
    process.exit(0)
  }
  const m = /^--only(?:=(.*))?$/.exec(a)
  if (m) {
    const v = m[1] ?? process.argv[++i] ?? ''
    only = v
      .split(',')
      .map((s) => s.trim())
      .filter(Boolean)
      .map((s) => ALIASES[s] ?? s)
    const bad = only.filter((s) => !SUITES.includes(s))
    if (bad.length || only.length === 0) {
      console.error(`unknown suite in --only: ${bad.join(', ') || '(empty)'}; choose from ${SUITES.join(', ')}`)
      process.exit(2)
    }
  } else {
    console.error(`unknown argument: ${a} (usage: npm test [-- --only=lint,deadcode,typecheck,unit,e2e])`)
    process.exit(2)
  }
}

// ---- child processes ---------------------------------------------------------------
const running = new Set()
let interrupted = null

/** Runs a command; resolves { code, signal, error, out } (out only when buffered). */
function run(cmd, args, { env = {}, buffer = false } = {}) {
  return new Promise((resolve) => {
    let out = ''
    let child
    try {
      child = spawn(cmd, args, {
        cwd: ROOT,
        env: { ...process.env, ...env },
        stdio: buffer ? ['ignore', 'pipe', 'pipe'] : ['ignore', 'inherit', 'inherit'],
        // Own process group: a signal reaches it once, from us (see the handler below).
        detached: process.platform !== 'win32',
      })
    } catch (error) {
      resolve({ code: null, signal: null, error, out })
      return
    }
    running.add(child)
    if (buffer) {
      child.stdout.on('data', (d) => (out += d))
      child.stderr.on('data', (d) => (out += d))
    }
    let error = null
    child.on('error', (e) => (error = e))
    child.on('close', (code, signal) => {
      running.delete(child)
      resolve({ code, signal, error, out })
    })
  })
}

/** Sends a signal to a child's whole process group (the child itself as a fallback). */
function signalGroup(child, sig) {
  try {
    process.kill(-child.pid, sig)
  } catch {
    try {
      child.kill(sig)
    } catch {
      /* already gone */
    }
  }
}

// On Ctrl-C / SIGTERM: SIGINT each running suite once (Playwright then stops its web
// server and browser itself), SIGKILL whatever is left after 15 s, and still print the
// summary with the interrupted suite counted as failed.
for (const sig of ['SIGINT', 'SIGTERM', 'SIGHUP']) {
  process.on(sig, () => {
    if (interrupted) return
    interrupted = sig
    for (const c of running) signalGroup(c, 'SIGINT')
    setTimeout(() => {
      for (const c of running) signalGroup(c, 'SIGKILL')
    }, 15_000).unref()
  })
}

const describeExit = (r) =>
  r.error ? `could not run: ${r.error.message}` : r.signal ? `killed by ${r.signal}` : `exit status ${r.code}`

function readJson(path) {
  try {
    return JSON.parse(readFileSync(path, 'utf8'))
  } catch {
    return null
  }
}

function freePort() {
  return new Promise((resolve, reject) => {
    const s = createServer()
    s.unref()
    s.on('error', reject)
    s.listen(0, '127.0.0.1', () => {
      const { port } = s.address()
      s.close(() => resolve(port))
    })
  })
}

// ---- suites ------------------------------------------------------------------------
/** Each returns { passed, failed, skipped, notes: string[] }. */

/** A checker that passes or fails as a whole: one test. */
async function single(label, cmd, args) {
  const r = await run(join(BIN, cmd), args, { buffer: true })
  const ok = r.code === 0 && !r.signal && !r.error
  console.log(`${ok ? '✓' : '✗'} ${label}${ok ? '' : ` (${describeExit(r)})`}`)
  if (r.out.trim()) console.log(r.out.trimEnd())
  return ok
    ? { passed: 1, failed: 0, skipped: 0, notes: [] }
    : { passed: 0, failed: 1, skipped: 0, notes: [`${label} failed (${describeExit(r)})`] }
}

const lint = () => single('biome check', 'biome', ['check', '--error-on-warnings', '--colors=off', '.'])
const deadcode = () => single('knip', 'knip', ['--no-progress'])

async function typecheck() {
  const configs = ['tsconfig.core.json', 'tsconfig.node.json', 'tsconfig.app.json', 'tsconfig.test.json']
  const results = await Promise.all(
    configs.map((cfg) => {
      // Locally keep incremental build info (faster reruns); CI checks from scratch.
      const inc = CI
        ? []
        : [
            '--incremental',
            '--tsBuildInfoFile',
            join('node_modules', '.cache', 'tsc', cfg.replace(/json$/, 'tsbuildinfo')),
          ]
      return run(join(BIN, 'tsc'), ['-p', cfg, '--pretty', ...inc], { buffer: true })
    }),
  )
  const res = { passed: 0, failed: 0, skipped: 0, notes: [] }
  results.forEach((r, i) => {
    const ok = r.code === 0 && !r.signal && !r.error
    console.log(`${ok ? '✓' : '✗'} tsc -p ${configs[i]}${ok ? '' : ` (${describeExit(r)})`}`)
    if (r.out.trim()) console.log(r.out.trimEnd())
    if (ok) res.passed++
    else {
      res.failed++
      res.notes.push(`tsc -p ${configs[i]} failed (${describeExit(r)})`)
    }
  })
  return res
}

/**
 * The unit and browser tests read the spec and the real network's vectors from `shared/`
 * beside the repository (../shared/spec, ../shared/vectors). Without it every test that
 * reads them fails on its own; this says once what is missing instead.
 */
const SHARED = join(ROOT, '..', 'shared')
function sharedMissing(suite) {
  const need = ['spec/identity-updates.txt', 'vectors/xmtpd-inbox-log.csv'].filter((f) => !existsSync(join(SHARED, f)))
  if (need.length === 0) return null
  return {
    passed: 0,
    failed: 1,
    skipped: 0,
    notes: [
      `${suite}: ${need.map((f) => join(SHARED, f)).join(' and ')} not found: shared/ must sit beside the repository; not run, counted as 1 failed`,
    ],
  }
}

async function unit() {
  const missing = sharedMissing('vitest')
  if (missing) return missing
  const report = join(REPORTS, 'vitest.json')
  rmSync(report, { force: true })
  const r = await run(join(BIN, 'vitest'), ['run', '--reporter=default', '--reporter=json', `--outputFile=${report}`])
  const j = readJson(report)
  const res = { passed: 0, failed: 0, skipped: 0, notes: [] }
  if (!j) {
    res.failed = 1
    res.notes.push(`vitest wrote no report (${describeExit(r)}): counted as 1 failed`)
    return res
  }
  res.passed = j.numPassedTests ?? 0
  res.failed = j.numFailedTests ?? 0
  res.skipped = (j.numPendingTests ?? 0) + (j.numTodoTests ?? 0)
  // A test file that fails to load has no failed test of its own: count it as one.
  for (const f of j.testResults ?? []) {
    const failedHere = (f.assertionResults ?? []).filter((a) => a.status === 'failed').length
    if (f.status === 'failed' && failedHere === 0) {
      res.failed++
      res.notes.push(`vitest: ${f.name.replace(`${ROOT}/`, '')} failed to run: ${(f.message ?? '').split('\n')[0]}`)
    }
  }
  if (r.code !== 0 && res.failed === 0) {
    res.failed = 1
    res.notes.push(`vitest ${describeExit(r)} with no failed test in its report: counted as 1 failed`)
  }
  return res
}

async function e2e() {
  const report = join(REPORTS, 'e2e.json')
  rmSync(report, { force: true })
  const missing = sharedMissing('e2e')
  if (missing) return missing
  const res = { passed: 0, failed: 0, skipped: 0, notes: [] }
  if (!existsSync('/usr/bin/chromium')) {
    res.failed = 1
    res.notes.push('e2e: /usr/bin/chromium is missing (apt-get install -y chromium): counted as 1 failed')
    return res
  }
  console.log('$ vite build')
  const b = await run(join(BIN, 'vite'), ['build', '--logLevel', 'warn'])
  if (b.code !== 0 || b.signal || b.error) {
    res.failed = 1
    res.notes.push(`e2e: vite build failed (${describeExit(b)}); Playwright not run: counted as 1 failed`)
    return res
  }
  if (interrupted) return { ...res, failed: 1, notes: ['e2e: interrupted'] }
  const port = await freePort()
  console.log(`$ playwright test   (vite preview on 127.0.0.1:${port}, pages at http://localhost:${port})`)
  const r = await run(join(BIN, 'playwright'), ['test'], { env: { E2E_PORT: String(port) } })
  const j = readJson(report)
  if (!j?.stats) {
    res.failed = 1
    res.notes.push(`playwright wrote no report (${describeExit(r)}): counted as 1 failed`)
    return res
  }
  res.passed = (j.stats.expected ?? 0) + (j.stats.flaky ?? 0)
  res.failed = j.stats.unexpected ?? 0
  res.skipped = j.stats.skipped ?? 0
  if (j.stats.flaky) res.notes.push(`e2e: ${j.stats.flaky} flaky test(s) passed on retry`)
  if (r.code !== 0 && res.failed === 0) {
    res.failed = 1
    const why = (j.errors ?? []).map((e) => (e.message ?? '').split('\n')[0]).filter(Boolean)[0]
    res.notes.push(
      `playwright ${describeExit(r)} with no failed test in its report${why ? ` (${why})` : ''}: counted as 1 failed`,
    )
  }
  return res
}

// ---- main --------------------------------------------------------------------------
const STAGES = [
  { id: 'lint', label: 'lint', fn: lint },
  { id: 'deadcode', label: 'deadcode', fn: deadcode },
  { id: 'typecheck', label: 'typecheck', fn: typecheck },
  { id: 'unit', label: 'vitest', fn: unit },
  { id: 'e2e', label: 'e2e', fn: e2e },
]

mkdirSync(REPORTS, { recursive: true })
const summary = []
for (const st of STAGES.filter((s) => only.includes(s.id))) {
  const t0 = Date.now()
  let res
  if (interrupted) {
    res = { passed: 0, failed: 1, skipped: 0, notes: [`${st.label}: not run (interrupted by ${interrupted})`] }
  } else {
    console.log(`\n━━ ${st.label} ━━`)
    try {
      res = await st.fn()
    } catch (e) {
      res = { passed: 0, failed: 1, skipped: 0, notes: [`${st.label}: ${e?.stack ?? e}`] }
    }
    if (interrupted && res.failed === 0) {
      res.failed = 1
      res.notes.push(`${st.label}: interrupted by ${interrupted}`)
    }
  }
  summary.push({ suite: st.label, ...res, seconds: (Date.now() - t0) / 1000 })
}

const total = summary.reduce((a, s) => ({ passed: a.passed + s.passed, failed: a.failed + s.failed }), {
  passed: 0,
  failed: 0,
})
const totalLine = `${total.passed} passed, ${total.failed} failed`
writeFileSync(join(REPORTS, 'summary.json'), `${JSON.stringify({ suites: summary, total }, null, 2)}\n`)
writeFileSync(join(REPORTS, 'totals.txt'), `${totalLine}\n`)

const lines = ['', '━━ summary ━━']
for (const s of summary) for (const n of s.notes) lines.push(n)
lines.push(`time: ${summary.map((s) => `${s.suite} ${s.seconds.toFixed(1)} s`).join(', ')}`)
for (const s of summary) {
  lines.push(`${s.suite}: ${s.passed} passed, ${s.failed} failed${s.skipped ? `, ${s.skipped} skipped` : ''}`)
}
lines.push(totalLine)
process.stdout.write(`${lines.join('\n')}\n`)
process.exitCode = total.failed > 0 || interrupted ? 1 : 0
