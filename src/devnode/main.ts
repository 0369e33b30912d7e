/**
 * The local node's command line (../shared/contracts/cli.md, "The local node"):
 *
 *   npm run --silent devnode -- --port <port> --db <file> [--host 127.0.0.1]
 *       [--chain eip155:<id>=<rpc-url>]...
 *       [--min-handle-length N] [--reserved a,b,c] [--claim-interval-s S]
 *       [--max-body-bytes N] [--seed demo|<log file>] [--log-requests]
 *       [--max-subscribers N] [--subscriber-backlog N]
 *
 * Prints exactly `listening on http://<host>:<port>` on stdout once it accepts requests
 * (`--port 0` binds a free port and prints it); operator lines go to stderr. SIGTERM or
 * SIGINT: stop accepting, finish requests in flight, close the store, exit 0. A usage
 * error exits 2; a store or address that cannot be opened exits 1.
 */
import { readFileSync } from 'node:fs'
import type { SmartWalletVerifier } from '../core/verify/port'
import { NO_FRESHNESS, type FreshnessCheck } from './admission'
import { UsageError } from '../cli/io'
import { parseNodeArgs, USAGE, type NodeConfig } from './args'
import { LocalNode, seedUpdates } from './node'
import type { HeadBlock } from './scw'
import { ChainUnreachableError } from '../core/errors'

const urlHost = (host: string): string => (host.includes(':') ? `[${host}]` : host)

export async function main(argv: readonly string[]): Promise<void> {
  let config: NodeConfig
  try {
    config = parseNodeArgs(argv)
  } catch (e) {
    if (e instanceof UsageError) {
      if (e.message) process.stderr.write(`devnode: ${e.message}\n`)
      process.stderr.write(`${USAGE}\n`)
      process.exit(e.message ? 2 : 0)
    }
    throw e
  }
  const log = (line: string) => process.stderr.write(`devnode: ${line}\n`)

  let smartWallets: SmartWalletVerifier | undefined
  let freshness: FreshnessCheck = NO_FRESHNESS
  let headBlock: HeadBlock | undefined
  if (config.routes.size > 0) {
    // viem loads only when a chain is configured. One client per route, shared by the
    // verifier (IDENT-060) and the freshness check (IDENT-062).
    const [{ ChainClients }, { ChainVerifier }, { ChainFreshness }] = await Promise.all([
      import('../chain/client'),
      import('../chain/verifier'),
      import('../chain/freshness'),
    ])
    const clients = new ChainClients(config.routes)
    smartWallets = new ChainVerifier(clients)
    freshness = new ChainFreshness(clients)
    headBlock = async (chainId) => {
      const client = await clients.ready(chainId)
      try {
        return await client.getBlockNumber({ cacheTime: 0 })
      } catch (e) {
        throw new ChainUnreachableError(
          chainId,
          `eth_blockNumber failed: ${e instanceof Error ? e.message : String(e)}`,
        )
      }
    }
  }

  let node: LocalNode
  try {
    node = new LocalNode({
      db: config.db,
      policy: config.policy,
      freshness,
      maxBodyBytes: config.maxBodyBytes,
      log,
      logRequests: config.logRequests,
      maxSubscribers: config.maxSubscribers,
      subscriberBacklog: config.subscriberBacklog,
      ...(smartWallets ? { smartWallets } : {}),
      ...(headBlock ? { headBlock } : {}),
    })
  } catch (e) {
    process.stderr.write(`devnode: cannot open the store ${config.db}: ${e instanceof Error ? e.message : String(e)}\n`)
    process.exit(1)
  }

  if (config.seed !== null) {
    try {
      const r = await node.seed(await seedUpdates(config.seed, (p) => readFileSync(p)))
      if (r.skipped) log(`--seed ${config.seed}: the store is not empty; nothing seeded`)
      else
        log(
          `--seed ${config.seed}: stored ${r.stored} update(s)${r.refused.length ? `, refused ${r.refused.length}` : ''}`,
        )
      for (const f of r.refused) log(`  seed update ${f.index} refused: ${f.error}`)
    } catch (e) {
      process.stderr.write(`devnode: --seed ${config.seed}: ${e instanceof Error ? e.message : String(e)}\n`)
      node.store.close()
      process.exit(1)
    }
  }

  let closing = false
  const stop = (signal: string) => {
    if (closing) return
    closing = true
    log(`${signal}: closing`)
    node.close().then(
      () => process.exit(0),
      () => process.exit(0),
    )
  }
  process.on('SIGTERM', () => stop('SIGTERM'))
  process.on('SIGINT', () => stop('SIGINT'))

  try {
    const { host, port } = await node.listen(config.host, config.port)
    process.stdout.write(`listening on http://${urlHost(host)}:${port}\n`)
  } catch (e) {
    process.stderr.write(
      `devnode: cannot listen on ${config.host}:${config.port}: ${e instanceof Error ? e.message : String(e)}\n`,
    )
    node.store.close()
    process.exit(1)
  }
}

await main(process.argv.slice(2))
