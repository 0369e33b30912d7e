/**
 * Starts and stops a local anvil node for the chain tests. The code is shared with
 * `npm start` (scripts/start.mjs) in scripts/lib/anvil.mjs: the platform binary of
 * @foundry-rs/anvil spawned directly on 127.0.0.1 and a free port, ready when
 * eth_chainId answers, stopped by PID (SIGTERM, then SIGKILL after 3 s).
 *
 *   const node = await startAnvil()
 *   afterAll(() => node.stop())
 */
export {
  AnvilError,
  freePort,
  portFree,
  startAnvil,
  type AnvilNode,
} from '../../scripts/lib/anvil.mjs'
