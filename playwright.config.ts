/**
 * Browser end-to-end tests in Debian's Chromium (/usr/bin/chromium; never
 * `npx playwright install`) against `vite preview` of the production build.
 *
 * `npm test` (scripts/test-all.mjs) builds first, picks a free port and passes it as
 * E2E_PORT. A standalone `npm run test:e2e` picks a free port here and builds when
 * dist/ is missing (rebuild with `npm run build` after changing the app).
 * The server binds 127.0.0.1; pages are opened as http://localhost:PORT because
 * WebAuthn refuses IP origins.
 */
import { execFileSync } from 'node:child_process'
import { existsSync } from 'node:fs'
import { defineConfig, devices } from '@playwright/test'

/** A free port on 127.0.0.1, asked of a child process (this config is evaluated synchronously). */
function freePort(): string {
  return execFileSync(
    process.execPath,
    [
      '-e',
      "const s=require('node:net').createServer();s.listen(0,'127.0.0.1',()=>{process.stdout.write(String(s.address().port));s.close()})",
    ],
    { encoding: 'utf8' },
  ).trim()
}

// Workers re-evaluate this file: keep the port in the environment they inherit.
if (!process.env.E2E_PORT) process.env.E2E_PORT = freePort()
const port = Number(process.env.E2E_PORT)
// The local node for e2e/network*.spec.ts: a free port and a fresh SQLite file under tmp/.
if (!process.env.E2E_NODE_PORT) process.env.E2E_NODE_PORT = freePort()
const nodePort = Number(process.env.E2E_NODE_PORT)
const nodeDb = `tmp/e2e-devnode-${nodePort}.db`
const CI = !!process.env.CI

const vite = 'node_modules/.bin/vite'
// E2E_SLOT=name: a private build, results and report under tmp/ (always rebuilt), so
// several runs on one checkout do not overwrite each other's dist/.
const slot = process.env.E2E_SLOT
const outDir = slot ? `tmp/e2e-${slot}/dist` : 'dist'
const preview = `${vite} preview --host 127.0.0.1 --port ${port} --strictPort --outDir ${outDir}`
const build = `${vite} build --outDir ${outDir}${slot ? ' --emptyOutDir' : ''}`

export default defineConfig({
  testDir: './e2e',
  outputDir: slot ? `tmp/e2e-${slot}/test-results` : './test-results',
  workers: 1,
  fullyParallel: false,
  timeout: 60_000,
  expect: { timeout: 10_000 },
  retries: CI ? 1 : 0,
  forbidOnly: CI,
  globalTimeout: CI ? 45 * 60_000 : 0,
  reporter: [['list'], ['json', { outputFile: slot ? `tmp/e2e-${slot}/e2e.json` : 'reports/e2e.json' }]],
  use: {
    baseURL: `http://localhost:${port}`,
    trace: 'retain-on-failure',
    screenshot: 'only-on-failure',
  },
  projects: [
    {
      name: 'chromium',
      use: {
        ...devices['Desktop Chrome'],
        launchOptions: {
          executablePath: '/usr/bin/chromium',
          args: [
            '--no-sandbox',
            '--disable-gpu',
            '--disable-quic',
            '--no-first-run',
            '--disable-background-networking',
            '--disable-component-update',
            '--disable-sync',
          ],
        },
      },
    },
  ],
  webServer: [
    {
      command: !slot && existsSync(new URL('./dist/index.html', import.meta.url)) ? preview : `${build} && ${preview}`,
      url: `http://127.0.0.1:${port}/`,
      timeout: 120_000,
      reuseExistingServer: false,
      stdout: 'ignore',
      stderr: 'pipe',
    },
    {
      // Started for the test run, stopped after (SIGTERM closes its store).
      command: `mkdir -p tmp && rm -f ${nodeDb} ${nodeDb}-wal ${nodeDb}-shm && exec ${process.execPath} --import tsx src/devnode/main.ts --port ${nodePort} --db ${nodeDb} --seed demo`,
      port: nodePort,
      timeout: 60_000,
      reuseExistingServer: false,
      stdout: 'ignore',
      stderr: 'pipe',
    },
  ],
})
