/**
 * What a network fetch names: the API, the transport and the inbox or identifier asked
 * for (../shared/contracts/cli.md, `fetch`). Apart from ./remote.ts so the app's settings
 * and address parsing use them without loading the network client.
 */
import { isValidHandle, lowercaseAscii } from '../core/handles'

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

/** What `detectTarget` tells a person when the text reads as none of the four kinds. */
export const TARGET_SHAPES =
  'an inbox id (64 hex digits), an Ethereum address (0x and 40 hex digits), a passkey key (the hex of a 33- or 65-byte P-256 key) or a handle (a-z, then a-z, 0-9, _ or -, at most 27 in all, optionally #0000)'

/**
 * The kind an identifier's text has, so that a person may paste any of the four without
 * choosing: the shapes do not overlap (a handle starts with a letter and has at most 32
 * characters, IDENT-078; an inbox id is a SHA-256 in hex, IDENT-010; an address is 20
 * bytes; a P-256 key 33 or 65). A handle is judged with its ASCII letters lowercased, as
 * the lookup sends it (IDENT-085). 40 hex digits without `0x` read as an address and
 * 64 with `0x` as an inbox id; the value returned is then written as the kind expects.
 * @returns null when the text reads as none of them
 */
export function detectTarget(text: string): Target | null {
  const v = text.trim()
  const hex = /^(0x|0X)?([0-9a-fA-F]*)$/.exec(v)
  if (hex && v.length > 0) {
    const digits = hex[2]!
    if (digits.length === 40) return { kind: 'address', value: `0x${digits}` }
    if (digits.length === 64) return { kind: 'inbox', value: digits.toLowerCase() }
    if ((digits.length === 66 && /^0[23]/.test(digits)) || (digits.length === 130 && digits.startsWith('04')))
      return { kind: 'passkey', value: digits }
  }
  if (isValidHandle(lowercaseAscii(v))) return { kind: 'handle', value: v }
  return null
}
