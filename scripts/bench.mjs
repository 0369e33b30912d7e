#!/usr/bin/env node
/**
 * `npm run bench`: the Node replay benchmark (bench/replay.bench.ts: 1,000 and 10,000
 * updates, replay vs bare verification), then the browser benchmark: a fresh `vite
 * build` and the inspector's replay-perf spec in headless Chromium on a 10,000-update log
 * (INSPECTOR_PERF_UPDATES), which prints load time, the longest main-thread task during
 * replay and step times as a `replay-perf {...}` line.
 *   npm run bench -- node      only the Node benchmark (sizes may follow: node 10000)
 *   npm run bench -- browser   only the browser benchmark
 */
import { spawnSync } from 'node:child_process'
import { join, dirname } from 'node:path'
import { fileURLToPath } from 'node:url'

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..')
const bin = (n) => join(ROOT, 'node_modules', '.bin', n)
const [what = 'all', ...rest] = process.argv.slice(2)
const run = (cmd, args, env = {}) => {
  const r = spawnSync(cmd, args, { cwd: ROOT, stdio: 'inherit', env: { ...process.env, ...env } })
  if (r.status !== 0) {
    console.error(`bench: ${[cmd, ...args].join(' ')} failed (exit status ${r.status ?? r.signal})`)
    process.exit(1)
  }
}
if (what === 'all' || what === 'node') {
  run(process.execPath, ['--expose-gc', '--import', 'tsx', 'bench/replay.bench.ts', ...rest])
}
if (what === 'all' || what === 'browser') {
  run(bin('vite'), ['build', '--logLevel', 'warn'])
  run(bin('playwright'), ['test', 'e2e/replay-perf.spec.ts', '--reporter=list'], { INSPECTOR_PERF_UPDATES: rest[0] && what === 'browser' ? rest[0] : '10000' })
}
