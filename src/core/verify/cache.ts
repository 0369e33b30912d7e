/**
 * The verdict cache: a signature's verdict is a pure function of its kind, its key, its
 * signature bytes and the signature text it signs (IDENT-020, IDENT-030), so a verdict
 * once reached can be reused, and a reopened log replays at the cost of bookkeeping.
 *
 * The key names all of them: `v1|<kind>|<key hex>|<signature bytes hex>|<SHA-256 of the
 * text>`, where a passkey's signature bytes are its DER signature, authenticator data and
 * client data JSON (all three are verified). Only `valid` and `invalid` verdicts are
 * kept; erc_6492 is left out (its verdict depends on a chain at a block, and src/chain
 * keeps its own verdict cache), and `unreachable` is never a verdict to keep (IDENT-061).
 *
 * Stores are ports (IndexedDB in the browser, src/worker/verdict-cache.ts; the bounded
 * LRU below in Node). What a store returns is not trusted: `readVerdictEntry` checks the
 * full key and the verdict's shape, and anything else is treated as a miss.
 */
import { bytesToHex, utf8 } from '../../crypto/bytes'
import { sha256 } from '../../crypto/hash'
import { Lru } from '../lru'
import type { MemberKind, WireSignature } from '../types'
import type { SignatureVerdict } from './signature'

/** A verdict worth keeping: valid or invalid, never unreachable. */
export type CachedVerdict = SignatureVerdict & { readonly verdict: 'valid' | 'invalid' }

/** What a store holds for one key: the full key beside the verdict, compared on read. */
export interface VerdictEntry {
  readonly key: string
  readonly verdict: CachedVerdict
}

/**
 * A verdict store. `get` may answer synchronously or not; it returns what it holds (an
 * entry, or anything a damaged store gives back), never throws for a miss.
 */
export interface VerdictCache {
  get(key: string): unknown
  put(entry: VerdictEntry): void
}

/** SHA-256 of the signature text, hex: the part of every key that names the text. */
export function textDigest(text: string): string {
  return bytesToHex(sha256(utf8(text)))
}

/** The cache key of one signature over a text (by its digest), or null when the kind is not cached (erc_6492). */
export function verdictKey(sig: WireSignature, textHash: string): string | null {
  switch (sig.kind) {
    case 'erc_191':
      return `v1|erc_191||${bytesToHex(sig.bytes)}|${textHash}`
    case 'installation_key':
      return `v1|installation_key|${bytesToHex(sig.publicKey)}|${bytesToHex(sig.bytes)}|${textHash}`
    case 'passkey':
      return `v1|passkey|${bytesToHex(sig.publicKey)}|${bytesToHex(sig.signature)}.${bytesToHex(sig.authenticatorData)}.${bytesToHex(sig.clientDataJson)}|${textHash}`
    case 'erc_6492':
      return null
  }
}

/** True for a verdict a cache may keep. */
export const isCacheable = (v: SignatureVerdict): v is CachedVerdict => v.verdict === 'valid' || v.verdict === 'invalid'

const MEMBER_KINDS: readonly MemberKind[] = ['ethereum', 'passkey', 'installation']

const isRecord = (x: unknown): x is Record<string, unknown> => typeof x === 'object' && x !== null && !Array.isArray(x)
const isStringOrNull = (x: unknown): x is string | null => x === null || typeof x === 'string'

/**
 * The verdict a store's answer holds for `key`, or null when it holds none: a miss, an
 * entry for another key (a hash collision, a damaged store) or an entry that is not a
 * well-formed verdict. Never trusted blindly.
 */
export function readVerdictEntry(stored: unknown, key: string): CachedVerdict | null {
  if (!isRecord(stored) || stored.key !== key) return null
  const v = stored.verdict
  if (!isRecord(v)) return null
  if (v.verdict !== 'valid' && v.verdict !== 'invalid') return null
  const signer = v.signer
  if (
    signer !== null &&
    !(isRecord(signer) && typeof signer.text === 'string' && MEMBER_KINDS.includes(signer.kind as MemberKind))
  )
    return null
  if (v.chainId !== null && typeof v.chainId !== 'bigint') return null
  if (!isStringOrNull(v.replayKey) || typeof v.reason !== 'string') return null
  if (v.failRule !== null && v.failRule !== 'IDENT-030' && v.failRule !== 'IDENT-060') return null
  // A valid verdict names its signer and replay key; an invalid one names its rule (IDENT-030).
  if (v.verdict === 'valid' && (v.replayKey === null || v.failRule !== null)) return null
  if (v.verdict === 'invalid' && v.failRule === null) return null
  const evidence = v.evidence
  if (!isRecord(evidence) || !Object.values(evidence).every((e) => typeof e === 'string')) return null
  return {
    verdict: v.verdict,
    signer:
      signer === null ? null : { kind: (signer as { kind: MemberKind }).kind, text: (signer as { text: string }).text },
    chainId: v.chainId as bigint | null,
    replayKey: v.replayKey,
    failRule: v.failRule as CachedVerdict['failRule'],
    reason: v.reason,
    evidence: { ...(evidence as Record<string, string>) },
  }
}

/** A bounded in-memory LRU store (Node: the command line, the local node). */
export class LruVerdictCache extends Lru<string, VerdictEntry> implements VerdictCache {
  constructor(capacity = 50_000) {
    super(capacity, 'verdict cache capacity')
  }

  put(entry: VerdictEntry): void {
    this.set(entry.key, entry)
  }
}
