/**
 * The wagmi config of the signers feature. Wallets are found by EIP-6963 (wagmi's default
 * multiInjectedProviderDiscovery: every wallet that announces itself becomes a connector,
 * id = its rdns) and sign with personal_sign through the connector's EIP-1193 provider
 * (src/signing/browser/wallet.ts). Signing an identity update needs no chain, so the one
 * chain is a local placeholder (31337, defined with viem's defineChain instead of
 * wagmi/chains) whose transport refuses every call: this config never contacts a network.
 */
import { defineChain } from 'viem'
import { createConfig, custom, type Config } from 'wagmi'

const localChain = defineChain({
  id: 31337,
  name: 'Local (never contacted)',
  nativeCurrency: { name: 'Ether', symbol: 'ETH', decimals: 18 },
  rpcUrls: { default: { http: ['http://127.0.0.1:8545'] } },
})

/** An EIP-1193 transport that refuses every call: the signing playground reads no chain. */
const noNetwork = custom({
  async request({ method }: { method: string }): Promise<never> {
    throw new Error(`Inbox Inspector's wallet config reads no chain: ${method} was not sent anywhere`)
  },
})

function createSignersWagmiConfig(): Config {
  return createConfig({
    chains: [localChain],
    connectors: [],
    multiInjectedProviderDiscovery: true,
    transports: { [localChain.id]: noNetwork },
  })
}

export const wagmiConfig = createSignersWagmiConfig()
