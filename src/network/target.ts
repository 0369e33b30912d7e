/**
 * What a network fetch names: the API, the transport and the inbox or identifier asked
 * for (../shared/contracts/cli.md, `fetch`). Apart from ./remote.ts so the app's settings
 * and address parsing use them without loading the network client.
 */
import { lowercaseAscii } from '../core/handles'

export const APIS = ['identity', 'd14n'] as const
export type Api = (typeof APIS)[number]
export const TRANSPORTS = ['gateway', 'grpc', 'grpc-web', 'connect'] as const
export type TransportKind = (typeof TRANSPORTS)[number]
export type RpcTransportKind = Exclude<TransportKind, 'gateway'>

/** The contract's defaults: the gateway for the identity API, Connect for d14n. */
export const DEFAULT_TRANSPORT: Record<Api, TransportKind> = { identity: 'gateway', d14n: 'connect' }

export type TargetKind = 'inbox' | 'address' | 'passkey' | 'handle'
export interface Target {
  readonly kind: TargetKind
  readonly value: string
}

/**
 * The identifier as sent: an address is `0x` + 40 hex (lowercased), a passkey its key
 * hex (lowercased, no 0x), a handle ASCII-lowercased (IDENT-085), an inbox id as given.
 * @returns a reason when the value is not one of its kind
 */
export function normalizeTarget(t: Target): { value: string } | { error: string } {
  const v = t.value.trim()
  switch (t.kind) {
    case 'address':
      return /^0x[0-9a-fA-F]{40}$/.test(v)
        ? { value: v.toLowerCase() }
        : { error: `--address ${JSON.stringify(t.value)} is not an Ethereum address (0x and 40 hex digits)` }
    case 'passkey': {
      const h = v.replace(/^0x/i, '')
      return /^([0-9a-fA-F]{2})+$/.test(h)
        ? { value: h.toLowerCase() }
        : { error: `--passkey ${JSON.stringify(t.value)} is not a public key in hex` }
    }
    case 'handle':
      return v ? { value: lowercaseAscii(v) } : { error: '--handle is empty' }
    case 'inbox':
      return v ? { value: v } : { error: '--inbox is empty' }
  }
}
