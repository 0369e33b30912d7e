/**
 * Chain test fixture: on a started anvil, deploys WalletFactory, makes OwnedWallets
 * (deployed, or counterfactual at their CREATE2 address), rotates owners, and builds
 * smart wallet signers whose signature is the owner EOA's raw ECDSA over the EIP-191
 * hash (what OwnedWallet.isValidSignature checks), optionally ERC-6492-wrapped.
 * Also: a counting JSON-RPC proxy on 127.0.0.1 in front of anvil, log helpers, and
 * chainForFile, the before/after hooks of a test file that runs against one chain.
 */
import { readFileSync } from 'node:fs'
import { createServer, type IncomingMessage, type Server } from 'node:http'
import {
  concat,
  createPublicClient,
  createTestClient,
  createWalletClient,
  defineChain,
  encodeAbiParameters,
  encodeFunctionData,
  getContractAddress,
  hexToBytes,
  http,
  keccak256,
  parseEther,
  serializeErc6492Signature,
  toHex,
  type Abi,
  type Address,
  type Hex,
  type PublicClient,
} from 'viem'
import { privateKeyToAccount, type PrivateKeyAccount } from 'viem/accounts'
import { encodeBundleJson } from '../../src/core/encode/update'
import { readLogs } from '../../src/core/decode/logs'
import type { InboxLog } from '../../src/core/types'
import { smartWalletSigner, type Signer, type SignedUpdate } from '../../src/signing'
import { afterAll, beforeAll } from 'vitest'
import { startAnvil, type AnvilNode } from './anvil'

interface Artifact {
  abi: Abi
  bytecode: Hex
}
const artifacts = JSON.parse(readFileSync(new URL('./artifacts.json', import.meta.url), 'utf8')) as {
  sourcesHash: string
  OwnedWallet: Artifact
  WalletFactory: Artifact
}

/** anvil's account 0 (mnemonic "test test … junk"): funded, deploys the factory. */
const DEPLOYER_KEY: Hex = '0xac0974bec39a17e36ba4a6b4d238ff944bacb478cbed5efcae784d7bf4f2ff80'

/** A deterministic EOA for a label (keccak256 of it as the private key). */
export const eoa = (label: string): PrivateKeyAccount =>
  privateKeyToAccount(keccak256(toHex(`inbox-inspector chain test: ${label}`)))

export const salt = (n: number): Hex => toHex(n, { size: 32 })

export interface ChainFixture {
  readonly node: AnvilNode
  readonly chainId: bigint
  readonly client: PublicClient
  readonly test: ReturnType<typeof makeTestClient>
  readonly factory: Address
  readonly deployer: ReturnType<typeof makeWalletClient>
}

const chainOf = (node: AnvilNode) =>
  defineChain({
    id: node.chainId,
    name: 'anvil',
    nativeCurrency: { name: 'Ether', symbol: 'ETH', decimals: 18 },
    rpcUrls: { default: { http: [node.url] } },
  })

const makeWalletClient = (node: AnvilNode, account: PrivateKeyAccount) =>
  createWalletClient({
    account,
    chain: chainOf(node),
    transport: http(node.url, { retryCount: 0 }),
    pollingInterval: 20,
    cacheTime: 0,
  })
const makeTestClient = (node: AnvilNode) =>
  createTestClient({
    mode: 'anvil',
    chain: chainOf(node),
    transport: http(node.url, { retryCount: 0 }),
    pollingInterval: 20,
    cacheTime: 0,
  })

export async function setupChain(node: AnvilNode): Promise<ChainFixture> {
  const client = createPublicClient({
    chain: chainOf(node),
    transport: http(node.url, { retryCount: 0 }),
    pollingInterval: 20,
    cacheTime: 0,
  }) as PublicClient
  const deployer = makeWalletClient(node, privateKeyToAccount(DEPLOYER_KEY))
  const hash = await deployer.deployContract({
    abi: artifacts.WalletFactory.abi,
    bytecode: artifacts.WalletFactory.bytecode,
    args: [],
  })
  const receipt = await client.waitForTransactionReceipt({ hash, pollingInterval: 20 })
  if (receipt.status !== 'success' || !receipt.contractAddress) throw new Error('WalletFactory deployment failed')
  return {
    node,
    chainId: BigInt(node.chainId),
    client,
    test: makeTestClient(node),
    factory: receipt.contractAddress,
    deployer,
  }
}

async function mined(fx: ChainFixture, hash: Hex): Promise<bigint> {
  const r = await fx.client.waitForTransactionReceipt({ hash, pollingInterval: 20 })
  if (r.status !== 'success') throw new Error(`transaction ${hash} reverted`)
  return r.blockNumber
}

/** The deploy(owner, salt) calldata: the ERC-6492 factoryData. */
const deployCalldata = (owner: Address, s: Hex): Hex =>
  encodeFunctionData({ abi: artifacts.WalletFactory.abi, functionName: 'deploy', args: [owner, s] })

/** The CREATE2 address of OwnedWallet(owner) under salt, computed locally. */
function walletAddress(fx: ChainFixture, owner: Address, s: Hex): Address {
  const initCode = concat([artifacts.OwnedWallet.bytecode, encodeAbiParameters([{ type: 'address' }], [owner])])
  return getContractAddress({ opcode: 'CREATE2', from: fx.factory, salt: s, bytecode: initCode })
}

export interface Wallet {
  readonly address: Address
  /** The initial owner (part of the CREATE2 address). */
  readonly initialOwner: PrivateKeyAccount
  readonly salt: Hex
  readonly factoryData: Hex
}

export function counterfactualWallet(fx: ChainFixture, owner: PrivateKeyAccount, s: Hex): Wallet {
  return {
    address: walletAddress(fx, owner.address, s),
    initialOwner: owner,
    salt: s,
    factoryData: deployCalldata(owner.address, s),
  }
}

/** Deploys the wallet through the factory; returns it with the block of the deployment. */
export async function deployWallet(
  fx: ChainFixture,
  owner: PrivateKeyAccount,
  s: Hex,
): Promise<Wallet & { readonly blockNumber: bigint }> {
  const w = counterfactualWallet(fx, owner, s)
  const hash = await fx.deployer.writeContract({
    address: fx.factory,
    abi: artifacts.WalletFactory.abi,
    functionName: 'deploy',
    args: [owner.address, s],
    gas: 1_000_000n,
  })
  const blockNumber = await mined(fx, hash)
  const code = await fx.client.getCode({ address: w.address })
  if (!code || code === '0x') throw new Error(`no wallet code at ${w.address} after deploy`)
  return { ...w, blockNumber }
}

async function fund(fx: ChainFixture, to: Address): Promise<void> {
  await mined(fx, await fx.deployer.sendTransaction({ to, value: parseEther('1') }))
}

/** setOwner(newOwner), sent by the current owner (funded first); returns the block it was mined in. */
export async function rotateOwner(
  fx: ChainFixture,
  wallet: Address,
  current: PrivateKeyAccount,
  next: Address,
): Promise<bigint> {
  await fund(fx, current.address)
  const w = makeWalletClient(fx.node, current)
  const hash = await w.writeContract({
    address: wallet,
    abi: artifacts.OwnedWallet.abi,
    functionName: 'setOwner',
    args: [next],
    gas: 200_000n,
  })
  return mined(fx, hash)
}

export async function ownerOf(fx: ChainFixture, wallet: Address, blockNumber?: bigint): Promise<Address> {
  return (await fx.client.readContract({
    address: wallet,
    abi: artifacts.OwnedWallet.abi,
    functionName: 'owner',
    ...(blockNumber === undefined ? {} : { blockNumber }),
  })) as Address
}

/** The owner's raw ECDSA over the hash (r || s || v, v = 27 | 28), as OwnedWallet checks it. */
export const ownerSignature = async (owner: PrivateKeyAccount, hash: Uint8Array): Promise<Uint8Array> =>
  hexToBytes(await owner.sign({ hash: toHex(hash) }))

export interface WalletSignerOptions {
  readonly chainId?: bigint
  readonly blockNumber: bigint
  /** Who signs: the wallet's current owner, or another EOA. */
  readonly owner: PrivateKeyAccount
  /** Wrap in ERC-6492 with the wallet's factory and deploy calldata. */
  readonly wrap?: boolean
}

/** An erc_6492 signer for the wallet whose signature function has `owner` sign the hash. */
export function walletSigner(fx: ChainFixture, wallet: Wallet, o: WalletSignerOptions): Signer {
  return smartWalletSigner({
    chainId: o.chainId ?? fx.chainId,
    address: wallet.address,
    blockNumber: o.blockNumber,
    signature: async (hash) => {
      const inner = await ownerSignature(o.owner, hash)
      if (!o.wrap) return inner
      return hexToBytes(
        serializeErc6492Signature({ address: fx.factory, data: wallet.factoryData, signature: toHex(inner) }),
      )
    },
  })
}

export const headNumber = (fx: ChainFixture): Promise<bigint> => fx.client.getBlockNumber({ cacheTime: 0 })

/** A log of signed updates with sequence ids 1, 2, …, as the core reads it. */
export function bundleOf(...updates: SignedUpdate[]): string {
  return encodeBundleJson({
    inboxId: updates[0]!.update.inboxId,
    updates: updates.map((u, i) => ({ sequenceId: BigInt(i + 1), bytes: u.bytes })),
  })
}
export function logOf(...updates: SignedUpdate[]): InboxLog {
  const [log] = readLogs(bundleOf(...updates))
  if (!log) throw new Error('no log')
  return log
}

// ---- a counting JSON-RPC proxy on 127.0.0.1 ----------------------------------------------

export interface RpcProxy {
  readonly url: string
  /** JSON-RPC calls forwarded, by method (a batch counts each call). */
  readonly calls: { method: string; params: unknown }[]
  /** 'forward' (default), 'http503' (an HTML 503), 'hang' (accept, never answer). */
  mode: 'forward' | 'http503' | 'hang'
  count(method?: string): number
  close(): Promise<void>
}

const readBody = (req: IncomingMessage): Promise<string> =>
  new Promise((resolve, reject) => {
    let b = ''
    req.setEncoding('utf8')
    req.on('data', (d: string) => (b += d))
    req.on('end', () => resolve(b))
    req.on('error', reject)
  })

function rpcProxy(target: string): Promise<RpcProxy> {
  const calls: { method: string; params: unknown }[] = []
  const hanging = new Set<import('node:http').ServerResponse>()
  const proxy: { mode: RpcProxy['mode'] } = { mode: 'forward' }
  const server: Server = createServer(async (req, res) => {
    const body = await readBody(req)
    if (proxy.mode === 'http503') {
      res.writeHead(503, { 'content-type': 'text/html' }).end('<html><body>503 Service Unavailable</body></html>')
      return
    }
    if (proxy.mode === 'hang') {
      hanging.add(res)
      return
    }
    try {
      const parsed = JSON.parse(body) as { method: string; params: unknown } | { method: string; params: unknown }[]
      for (const c of Array.isArray(parsed) ? parsed : [parsed]) calls.push({ method: c.method, params: c.params })
      const r = await fetch(target, { method: 'POST', headers: { 'content-type': 'application/json' }, body })
      res.writeHead(r.status, { 'content-type': 'application/json' }).end(await r.text())
    } catch (e) {
      res.writeHead(502, { 'content-type': 'text/plain' }).end(String(e))
    }
  })
  return new Promise((resolve, reject) => {
    server.on('error', reject)
    server.listen(0, '127.0.0.1', () => {
      const addr = server.address()
      const port = typeof addr === 'object' && addr ? addr.port : 0
      resolve({
        url: `http://127.0.0.1:${port}`,
        calls,
        get mode() {
          return proxy.mode
        },
        set mode(m) {
          proxy.mode = m
        },
        count: (method) => (method ? calls.filter((c) => c.method === method).length : calls.length),
        close: () =>
          new Promise<void>((r) => {
            for (const h of hanging) h.destroy()
            server.closeAllConnections()
            server.close(() => r())
          }),
      })
    })
  })
}

/** What chainForFile hands the file's own setup. */
export interface ChainRun {
  readonly node: AnvilNode
  readonly fx: ChainFixture
  /** The counting proxy in front of anvil, when asked for. */
  readonly proxy: RpcProxy | null
}

/**
 * The hooks of a test file that runs against one chain: before its tests, starts anvil,
 * deploys the fixture (setupChain), with `proxy` puts an rpcProxy in front, then runs `ready`
 * (the file's own setup); after them, or as soon as any of that throws, closes the proxy and
 * stops anvil.
 */
export function chainForFile(ready: (run: ChainRun) => void | Promise<void>, opts: { proxy?: boolean } = {}): void {
  let node: AnvilNode | undefined
  let proxy: RpcProxy | null = null
  const stop = async () => {
    await proxy?.close()
    await node?.stop()
  }
  beforeAll(async () => {
    node = await startAnvil()
    try {
      const fx = await setupChain(node)
      if (opts.proxy) proxy = await rpcProxy(node.url)
      await ready({ node, fx, proxy })
    } catch (e) {
      await stop()
      throw e
    }
  }, 30_000)
  afterAll(stop)
}
