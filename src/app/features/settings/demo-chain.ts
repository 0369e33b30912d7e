/**
 * The offline demo chain `npm start` runs (scripts/lib/demo-chain.ts), as the app is
 * told of it in VITE_DEMO_CHAIN (JSON): its chain id and RPC URL, the demo factory, the
 * deployed and the counterfactual OwnedWallet (address, owner, ERC-6492 deployment), and
 * the smart-wallet demo inbox. The wallets' owners are demo keys (src/devnode/demo.ts
 * demoWalletOwners): public, so the app says so wherever it shows them.
 */

const HEX = /^0x[0-9a-f]*$/
const ADDRESS = /^0x[0-9a-f]{40}$/

interface DemoWallet {
  readonly address: string
  readonly owner: string
  readonly factory: string
  readonly factoryData: string
}

export interface DemoChainInfo {
  readonly chainId: string
  readonly rpcUrl: string
  readonly factory: string
  readonly deployed: DemoWallet
  readonly counterfactual: DemoWallet
  readonly inboxId: string
}

function wallet(v: unknown): DemoWallet | null {
  if (!v || typeof v !== 'object') return null
  const w = v as Record<string, unknown>
  const ok = (k: string, re: RegExp) => typeof w[k] === 'string' && re.test(w[k] as string)
  if (!ok('address', ADDRESS) || !ok('owner', ADDRESS) || !ok('factory', ADDRESS) || !ok('factoryData', HEX))
    return null
  return {
    address: w.address as string,
    owner: w.owner as string,
    factory: w.factory as string,
    factoryData: w.factoryData as string,
  }
}

/** The demo chain from VITE_DEMO_CHAIN's JSON, or null when unset or not of that shape. */
export function parseDemoChain(text: string | undefined): DemoChainInfo | null {
  if (!text) return null
  let v: unknown
  try {
    v = JSON.parse(text)
  } catch {
    return null
  }
  if (!v || typeof v !== 'object') return null
  const o = v as Record<string, unknown>
  const deployed = wallet(o.deployed)
  const counterfactual = wallet(o.counterfactual)
  if (typeof o.chainId !== 'string' || !/^(0|[1-9][0-9]*)$/.test(o.chainId)) return null
  if (typeof o.rpcUrl !== 'string' || !/^https?:\/\//.test(o.rpcUrl)) return null
  if (typeof o.factory !== 'string' || !ADDRESS.test(o.factory)) return null
  if (typeof o.inboxId !== 'string' || !/^[0-9a-f]{64}$/.test(o.inboxId)) return null
  if (!deployed || !counterfactual) return null
  return { chainId: o.chainId, rpcUrl: o.rpcUrl, factory: o.factory, deployed, counterfactual, inboxId: o.inboxId }
}

/** The demo chain `npm start` started, or null. */
// Read through a cast: this module is also imported by Node tests, which have no Vite env types.
export const DEMO_CHAIN: DemoChainInfo | null = parseDemoChain(
  (import.meta as { env?: Record<string, string | undefined> }).env?.VITE_DEMO_CHAIN,
)
