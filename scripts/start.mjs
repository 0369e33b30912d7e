#!/usr/bin/env node
/**
 * `npm start`: the local node seeded with the demo inboxes, and the Vite dev server
 * beside it, told the node's URL (VITE_NODE_URL, read by src/app/features/settings/
 * node-url.ts).
 *
 *   node: 127.0.0.1:8787, or a free port when 8787 is taken; its store is
 *         .data/devnode.db (gitignored; kept between runs; delete it to start over)
 *   app:  Vite on 127.0.0.1 (5173 or the next free port), opened in a browser on a terminal
 *
 * Ctrl-C or SIGTERM stops both. If the node does not start, the app starts anyway
 * (it opens the demo log offline and shows the node as unreachable).
 *
 *   npm start -- --no-open       do not open a browser
 *   npm start -- --fresh         delete .data/devnode.db first
 */
import { spawn } from 'node:child_process'
import { mkdirSync, rmSync } from 'node:fs'
import { createServer } from 'node:net'
import { dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..')
const DATA = join(ROOT, '.data')
const DB = join(DATA, 'devnode.db')
const args = process.argv.slice(2)
const open = !args.includes('--no-open') && process.stdout.isTTY && !process.env.CI

function portFree(port) {
  return new Promise((resolve) => {
    const s = createServer()
    s.once('error', () => resolve(false))
    s.listen(port, '127.0.0.1', () => s.close(() => resolve(true)))
  })
}

function freePort() {
  return new Promise((resolve, reject) => {
    const s = createServer()
    s.once('error', reject)
    s.listen(0, '127.0.0.1', () => {
      const { port } = s.address()
      s.close(() => resolve(port))
    })
  })
}

const children = new Set()
let stopping = false

function start(cmd, argv, env = {}) {
  const child = spawn(cmd, argv, { cwd: ROOT, env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'pipe'] })
  children.add(child)
  child.on('exit', () => children.delete(child))
  return child
}

function stopAll(code = 0) {
  if (stopping) return
  stopping = true
  for (const c of children) c.kill('SIGTERM')
  const force = setTimeout(() => {
    for (const c of children) c.kill('SIGKILL')
  }, 5000)
  force.unref()
  const done = () => {
    if (children.size === 0) process.exit(code)
  }
  for (const c of children) c.on('exit', done)
  done()
}
for (const sig of ['SIGINT', 'SIGTERM', 'SIGHUP']) process.on(sig, () => stopAll(0))

/** Starts the node; resolves its URL, or null when it did not start within 30 s. */
async function startNode() {
  mkdirSync(DATA, { recursive: true })
  if (args.includes('--fresh')) rmSync(DB, { force: true })
  const port = (await portFree(8787)) ? 8787 : await freePort()
  const node = start(process.execPath, ['--import', 'tsx', 'src/devnode/main.ts', '--port', String(port), '--db', DB, '--seed', 'demo'])
  return new Promise((resolve) => {
    let out = ''
    const timer = setTimeout(() => {
      console.error('[start] the local node did not start within 30 s; the app starts without it')
      node.kill('SIGTERM')
      resolve(null)
    }, 30_000)
    node.stdout.on('data', (d) => {
      out += d
      const m = /listening on (http:\/\/\S+)/.exec(out)
      if (m) {
        clearTimeout(timer)
        resolve(m[1])
      }
    })
    node.stderr.on('data', (d) => process.stderr.write(`[node] ${d}`))
    node.on('exit', (code, signal) => {
      clearTimeout(timer)
      if (!stopping) console.error(`[start] the local node exited (${signal ?? `status ${code}`}); the app shows it as unreachable`)
      resolve(null)
    })
  })
}

const nodeUrl = await startNode()
if (stopping) process.exit(0)

const vite = start(join(ROOT, 'node_modules', '.bin', 'vite'), ['--host', '127.0.0.1', ...(open ? ['--open'] : [])], { VITE_NODE_URL: nodeUrl ?? '' })
let printed = false
let buf = ''
vite.stdout.on('data', (d) => {
  process.stdout.write(d)
  buf += d
  // eslint-disable-next-line no-control-regex
  const m = /Local:\s+(http:\/\/\S+)/.exec(buf.replace(/\x1b\[[0-9;]*m/g, ''))
  if (m && !printed) {
    printed = true
    console.log(`\n  app:  ${m[1]}`)
    console.log(`  node: ${nodeUrl ?? 'not running (the app works offline on the demo log)'}`)
    console.log('  Ctrl-C stops both.\n')
  }
})
vite.stderr.on('data', (d) => process.stderr.write(d))
vite.on('exit', (code, signal) => {
  if (!stopping) {
    console.error(`[start] vite exited (${signal ?? `status ${code}`}); stopping the node`)
    stopAll(code ?? 1)
  }
})
