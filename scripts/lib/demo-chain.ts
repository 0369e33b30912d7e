/**
 * The offline demo chain of `npm start` (scripts/start.mjs): on a running anvil, deploys
 * the demo WalletFactory (anvil's account 0, nonce 0: the same address on every fresh
 * anvil) and one OwnedWallet through it, then publishes the smart-wallet demo inbox
 * (src/devnode/demo.ts) to the local node, whose admission judges its erc_6492
 * signatures on that chain (IDENT-060) and their blocks' freshness (IDENT-062).
 *
 * Idempotent: code already deployed is not deployed again, and an inbox the node already
 * holds is not published again. Deployment is deterministic (factory at block 1, wallet
 * at block 2), so a node store kept from an earlier run verifies against a fresh anvil.
 *
 *   node --import tsx scripts/lib/demo-chain.ts --rpc http://127.0.0.1:8545 --node http://127.0.0.1:8787 [--vite-env]
 *
 * prints one JSON line (DemoChain) on stdout; errors go to stderr with exit status 1.
 * `--vite-env` prints instead the app's environment for the demo (start.mjs passes it to
 * Vite and prints nothing of it): VITE_DEMO_CHAIN (the DemoChain) and
 * VITE_DEMO_SMART_WALLETS (the wallets for the playground's signers, with their owners'
 * demo keys: public by construction, see src/devnode/demo.ts).
 */
import { readFileSync } from 'node:fs'
import { parseArgs } from 'node:util'
import { createWalletClient, getContractAddress, http, type Abi, type Hex } from 'viem'
import { privateKeyToAccount } from 'viem/accounts'
import { ChainClients, chainClient } from '../../src/chain/client'
import { ownedWalletPlan, walletFactoryAbi, type OwnedWalletPlan } from '../../src/chain/owned-wallet'
import { chainSmartWalletSigner } from '../../src/chain/smart-wallet-signer'
import { bytesToHex } from '../../src/crypto/bytes'
import {
  DEMO_WALLET_SALTS,
  demoSmartWalletUpdates,
  demoWalletOwnerKeys,
  demoWalletOwners,
} from '../../src/devnode/demo'
import { createNodeClient } from '../../src/network/client'
import { inboxIdOf } from '../../src/signing'

/** anvil's account 0 (mnemonic "test test … junk"): a public test key that funds and deploys. */
const ANVIL_DEPLOYER_KEY: Hex = '0xac0974bec39a17e36ba4a6b4d238ff944bacb478cbed5efcae784d7bf4f2ff80'

const artifacts = JSON.parse(readFileSync(new URL('../../test/chain/artifacts.json', import.meta.url), 'utf8')) as {
  WalletFactory: { abi: Abi; bytecode: Hex }
}

export interface DemoChain {
  readonly chainId: string
  readonly rpcUrl: string
  readonly factory: Hex
  readonly deployed: OwnedWalletPlan
  readonly counterfactual: OwnedWalletPlan
  /** The smart-wallet demo inbox (created by the deployed wallet). */
  readonly inboxId: string
  /** Updates published now (0 when the node already held the inbox). */
  readonly published: number
}

/** Deploys the demo contracts (when missing); returns the factory and both wallets. */
export async function deployDemoWallets(
  rpcUrl: string,
): Promise<{ chainId: bigint; factory: Hex; deployed: OwnedWalletPlan; counterfactual: OwnedWalletPlan }> {
  const probe = chainClient(0n, rpcUrl, { timeoutMs: 5000 })
  const chainId = BigInt(await probe.getChainId())
  const client = chainClient(chainId, rpcUrl, { timeoutMs: 10_000 })
  const account = privateKeyToAccount(ANVIL_DEPLOYER_KEY)
  const wallet = createWalletClient({
    account,
    chain: client.chain!,
    transport: http(rpcUrl, { retryCount: 0 }),
    cacheTime: 0,
  })
  const mined = async (hash: Hex) => {
    const r = await client.waitForTransactionReceipt({ hash, pollingInterval: 50 })
    if (r.status !== 'success') throw new Error(`demo chain: transaction ${hash} reverted`)
    return r
  }
  let factory = getContractAddress({ from: account.address, nonce: 0n }).toLowerCase() as Hex
  const hasCode = async (a: Hex) => {
    const c = await client.getCode({ address: a })
    return !!c && c !== '0x'
  }
  if (!(await hasCode(factory))) {
    const r = await mined(
      await wallet.deployContract({
        abi: artifacts.WalletFactory.abi,
        bytecode: artifacts.WalletFactory.bytecode,
        args: [],
      }),
    )
    if (!r.contractAddress) throw new Error('demo chain: the WalletFactory deployment has no contract address')
    factory = r.contractAddress.toLowerCase() as Hex
  }
  const owners = demoWalletOwners()
  const deployed = await ownedWalletPlan(
    client,
    factory,
    owners.deployed.identifier.text as Hex,
    DEMO_WALLET_SALTS.deployed,
  )
  const counterfactual = await ownedWalletPlan(
    client,
    factory,
    owners.counterfactual.identifier.text as Hex,
    DEMO_WALLET_SALTS.counterfactual,
  )
  if (!(await hasCode(deployed.address))) {
    await mined(
      await wallet.writeContract({
        address: factory,
        abi: walletFactoryAbi,
        functionName: 'deploy',
        args: [deployed.owner, deployed.salt],
        gas: 1_000_000n,
      }),
    )
    if (!(await hasCode(deployed.address)))
      throw new Error(`demo chain: no wallet code at ${deployed.address} after deploy`)
  }
  return { chainId, factory, deployed, counterfactual }
}

/** Deploys (when missing) and publishes the smart-wallet demo inbox to the node (when missing). */
export async function seedDemoChain(rpcUrl: string, nodeUrl: string): Promise<DemoChain> {
  const { chainId, factory, deployed, counterfactual } = await deployDemoWallets(rpcUrl)
  const route = { chainId, url: rpcUrl }
  const clients = new ChainClients(new Map([[chainId, rpcUrl]]))
  const owners = demoWalletOwners()
  const wallets = {
    deployed: chainSmartWalletSigner({
      route,
      clients,
      address: deployed.address,
      owner: owners.deployed,
      deployment: deployed,
    }),
    counterfactual: chainSmartWalletSigner({
      route,
      clients,
      address: counterfactual.address,
      owner: owners.counterfactual,
      deployment: counterfactual,
    }),
  }
  const inboxId = inboxIdOf(wallets.deployed)
  const node = createNodeClient({ baseUrl: nodeUrl, fetch: (i, init) => fetch(i, init) })
  let published = 0
  const log = await node.getInboxLog(inboxId)
  if (log.entries.length === 0) {
    for (const u of await demoSmartWalletUpdates(wallets)) {
      await node.publishIdentityUpdate(u.bytes)
      published++
    }
  }
  return { chainId: chainId.toString(), rpcUrl, factory, deployed, counterfactual, inboxId, published }
}

/** The playground's demo wallets (src/app/features/signers/smart-wallets.ts parseDemoSmartWallets): public demo data. */
export function viteDemoSmartWallets(demo: DemoChain): string {
  const keys = demoWalletOwnerKeys()
  const entry = (name: string, w: OwnedWalletPlan, key: Uint8Array) => ({
    name,
    address: w.address,
    owner: w.owner,
    ownerKey: `0x${bytesToHex(key)}`,
    factory: w.factory,
    salt: w.salt,
    factoryData: w.factoryData,
  })
  return JSON.stringify({
    chainId: demo.chainId,
    wallets: [
      entry('deployed wallet', demo.deployed, keys.deployed),
      entry('counterfactual wallet', demo.counterfactual, keys.counterfactual),
    ],
  })
}

const isMain = process.argv[1] !== undefined && /scripts[\\/]lib[\\/]demo-chain\.ts$/.test(process.argv[1])
if (isMain) {
  const { values } = parseArgs({
    options: { rpc: { type: 'string' }, node: { type: 'string' }, 'vite-env': { type: 'boolean' } },
  })
  if (!values.rpc || !values.node) {
    process.stderr.write(
      'usage: node --import tsx scripts/lib/demo-chain.ts --rpc <anvil url> --node <local node url>\n',
    )
    process.exit(2)
  }
  try {
    const demo = await seedDemoChain(values.rpc, values.node)
    const out = values['vite-env']
      ? { VITE_DEMO_CHAIN: JSON.stringify(demo), VITE_DEMO_SMART_WALLETS: viteDemoSmartWallets(demo) }
      : demo
    process.stdout.write(`${JSON.stringify(out)}\n`)
  } catch (e) {
    process.stderr.write(`demo chain: ${e instanceof Error ? e.message : String(e)}\n`)
    process.exit(1)
  }
}
