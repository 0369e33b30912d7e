#!/usr/bin/env node
/**
 * `npm start`: an offline demo chain (anvil), the local node seeded with the demo
 * inboxes, and the Vite dev server beside them, told the node's URL (VITE_NODE_URL,
 * read by src/app/features/settings/node-url.ts) and the chain's route
 * (VITE_CHAIN_ROUTES, read by src/app/features/settings/chain-routes.ts).
 *
 *   chain: anvil (@foundry-rs/anvil, nothing downloaded) on 127.0.0.1:8545, or a free
 *          port when 8545 is taken; chain id 31337, state in memory. The demo
 *          WalletFactory and an OwnedWallet are deployed on it, owned by a demo key
 *          (scripts/lib/demo-chain.ts), and the smart-wallet demo inbox is published to
 *          the node, which checks erc_6492 signatures on this chain
 *          (`--chain eip155:31337=<anvil>`)
 *   node:  127.0.0.1:8787, or a free port when 8787 is taken; its store is
 *          .data/devnode.db (gitignored; kept between runs; delete it to start over)
 *   app:   Vite bound to 127.0.0.1 (5173, or a free port), printed and opened as
 *          http://localhost:PORT (WebAuthn refuses IP origins: passkeys need localhost)
 *
 * Ctrl-C or SIGTERM stops all three. If anvil does not start, the node and the app start
 * anyway without a chain (smart-wallet signatures show as pending, IDENT-061); if the
 * node does not start, the app starts anyway (it opens the demo log offline and shows
 * the node as unreachable).
 *
 *   npm start -- --no-open       do not open a browser
 *   npm start -- --fresh         delete .data/devnode.db first
 *   npm start -- --no-chain      no anvil (and no smart-wallet demo inbox)
 */
import { spawn } from 'node:child_process'
import { mkdirSync, rmSync } from 'node:fs'
import { dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { AnvilError, freePort, portFree, startAnvil } from './lib/anvil.mjs'
import { appUrl, viteArgs } from './lib/app-url.mjs'
import { devnodeArgs } from './lib/devnode-args.mjs'

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..')
const DATA = join(ROOT, '.data')
const DB = join(DATA, 'devnode.db')
const args = process.argv.slice(2)
const open = !args.includes('--no-open') && process.stdout.isTTY && !process.env.CI

const children = new Set()
let stopping = false
/** The anvil node (scripts/lib/anvil.mjs), stopped by PID with the others. */
let anvil = null

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
  let chainDown = !anvil
  const done = () => {
    if (children.size === 0 && chainDown) process.exit(code)
  }
  if (anvil) {
    anvil.stop().then(
      () => ((chainDown = true), done()),
      () => ((chainDown = true), done()),
    )
  }
  for (const c of children) c.on('exit', done)
  done()
}
for (const sig of ['SIGINT', 'SIGTERM', 'SIGHUP']) process.on(sig, () => stopAll(0))

/** Starts anvil on 8545 (or a free port); resolves the node, or null (and says why) when it cannot start. */
async function startChain() {
  if (args.includes('--no-chain')) return null
  try {
    try {
      return await startAnvil({ port: 8545 })
    } catch (e) {
      if (!(e instanceof AnvilError && e.code === 'port_in_use')) throw e
      return await startAnvil()
    }
  } catch (e) {
    console.error(
      `[start] the demo chain (anvil) did not start, so smart-wallet signatures stay pending (IDENT-061): ${e instanceof Error ? e.message : String(e)}`,
    )
    return null
  }
}

/**
 * Deploys the demo wallets and publishes the smart-wallet demo inbox
 * (scripts/lib/demo-chain.ts --vite-env); resolves the app's environment for it
 * ({ VITE_DEMO_CHAIN, VITE_DEMO_SMART_WALLETS }), or null (and says why).
 */
function seedChain(rpcUrl, nodeUrl) {
  return new Promise((resolve) => {
    // --vite-env: the app's environment for the demo (its demo wallets' public demo keys
    // included), kept out of the terminal.
    const seed = start(process.execPath, [
      '--import',
      'tsx',
      'scripts/lib/demo-chain.ts',
      '--rpc',
      rpcUrl,
      '--node',
      nodeUrl,
      '--vite-env',
    ])
    let out = ''
    let err = ''
    seed.stdout.on('data', (d) => (out += d))
    seed.stderr.on('data', (d) => (err += d))
    seed.on('exit', (code) => {
      if (code === 0) {
        try {
          return resolve(JSON.parse(out.trim().split('\n').pop()))
        } catch {
          /* fall through */
        }
      }
      if (!stopping)
        console.error(`[start] the smart-wallet demo inbox was not seeded: ${err.trim() || `status ${code}`}`)
      resolve(null)
    })
  })
}

/** Starts the node; resolves its URL, or null when it did not start within 30 s. */
async function startNode(chainUrl) {
  mkdirSync(DATA, { recursive: true })
  if (args.includes('--fresh')) rmSync(DB, { force: true })
  const port = (await portFree(8787)) ? 8787 : await freePort()
  const chain = chainUrl ? ['--chain', `eip155:31337=${chainUrl}`] : []
  const node = start(process.execPath, devnodeArgs(port, DB, ['--seed', 'demo', ...chain]))
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
      if (!stopping)
        console.error(`[start] the local node exited (${signal ?? `status ${code}`}); the app shows it as unreachable`)
      resolve(null)
    })
  })
}

anvil = await startChain()
if (anvil) {
  anvil.exited.then(() => {
    if (!stopping)
      console.error('[start] the demo chain (anvil) exited; smart-wallet signatures now show as pending (IDENT-061)')
  })
}
/** After a Ctrl-C during start-up, stopAll() is under way: start nothing more and let it exit. */
const halted = () => new Promise(() => {})
if (stopping) await halted()
const nodeUrl = await startNode(anvil?.url ?? null)
if (stopping) await halted()
const demo = anvil && nodeUrl ? await seedChain(anvil.url, nodeUrl) : null
if (stopping) await halted()

const chainRoutes = anvil ? `eip155:${anvil.chainId}=${anvil.url}` : ''

/**
 * The app's environment for the demo chain, from scripts/lib/demo-chain.ts --vite-env:
 * VITE_DEMO_CHAIN (src/app/features/settings/demo-chain.ts) and VITE_DEMO_SMART_WALLETS
 * (src/app/features/signers/smart-wallets.ts: the demo wallets with their owners' keys,
 * PUBLIC demo keys derived in src/devnode/demo.ts, so the signers panel can add them in
 * one click). Never fund these wallets.
 */
const demoInfo = demo ? JSON.parse(demo.VITE_DEMO_CHAIN) : null
// The app binds 127.0.0.1 but is printed and opened as http://localhost:PORT (app-url.mjs):
// WebAuthn refuses IP origins, so passkeys work only there.
const appPort = (await portFree(5173)) ? 5173 : await freePort()
const vite = start(join(ROOT, 'node_modules', '.bin', 'vite'), viteArgs(appPort, open), {
  VITE_NODE_URL: nodeUrl ?? '',
  VITE_CHAIN_ROUTES: chainRoutes,
  VITE_DEMO_CHAIN: demo?.VITE_DEMO_CHAIN ?? '',
  VITE_DEMO_SMART_WALLETS: demo?.VITE_DEMO_SMART_WALLETS ?? '',
})
let printed = false
let buf = ''
vite.stdout.on('data', (d) => {
  // Vite's own banner names 127.0.0.1 (its bind address): shown as localhost, the address passkeys accept.
  process.stdout.write(String(d).replace(/http:\/\/127\.0\.0\.1:/g, 'http://localhost:'))
  buf += d
  // biome-ignore lint/suspicious/noControlCharactersInRegex: strips vite's ANSI colour codes (ESC)
  const m = /Local:\s+(http:\/\/\S+)/.exec(buf.replace(/\x1b\[[0-9;]*m/g, ''))
  if (m && !printed) {
    printed = true
    console.log(`\n  app:   ${appUrl(m[1])}  (localhost: passkeys refuse IP addresses)`)
    console.log(`  node:  ${nodeUrl ?? 'not running (the app works offline on the demo log)'}`)
    console.log(
      `  chain: ${anvil ? `${anvil.url} (eip155:${anvil.chainId}, anvil; the app's chain route)` : 'not running (smart-wallet signatures stay pending)'}`,
    )
    if (demoInfo) {
      console.log(`         smart-wallet demo inbox ${demoInfo.inboxId}`)
      console.log(
        `         deployed wallet ${demoInfo.deployed.address}, counterfactual wallet ${demoInfo.counterfactual.address}`,
      )
      console.log('         (owned by demo keys: public, never fund them)')
    }
    console.log('  Ctrl-C stops them all.\n')
  }
})
vite.stderr.on('data', (d) => process.stderr.write(d))
vite.on('exit', (code, signal) => {
  if (!stopping) {
    console.error(`[start] vite exited (${signal ?? `status ${code}`}); stopping the node and the chain`)
    stopAll(code ?? 1)
  }
})
