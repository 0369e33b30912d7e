/**
 * A log's verdicts as one compact value: every signature check of every update of one
 * replayed log, in log order, so a reopened log is verified by reading one record
 * (./log-store.ts) instead of looking up each signature's verdict by its key (a hash of
 * each signature text and the hex of each signature: most of a second at 10,000 updates).
 *
 * The record is bound to the log by the digest of its input (the store's key), and every
 * check read back is checked again: its shape (core readVerdictEntry), and its place
 * (action, role, kind) against the update it is used for. Only verdicts a verdict cache may
 * keep are stored (valid or invalid, never erc_6492, IDENT-060/061); an update with any
 * other check is stored as none and verified again.
 *
 * The blob is JSON: `{ v: 1, n, s: [strings], u: [per update: null | [check tuples]] }`.
 * Most of its texts (reasons, labels, signers, evidence values) repeat: they are indices into `s`.
 */
import { readVerdictEntry } from '../core/verify/cache'
import type { SignatureCheck } from '../core/trace'
import type { SignatureKind, SignatureRole, UnverifiedUpdate } from '../core/types'
import { signatureText } from '../core/text/signature-text'
import { signaturesOf, type VerifiedUpdate } from '../core/verify/update'

const VERSION = 1

/**
 * One check: action index, role, kind, verdict (1 valid, 0 invalid), signer kind, signer
 * text, chain id (decimal), replay key, fail rule, reason, evidence (label, value, …). The
 * texts are indices into the blob's string table, as most repeat from check to check.
 */
type CheckTuple = [
  number,
  string,
  string,
  0 | 1,
  string | null,
  number | null,
  string | null,
  string | null,
  string | null,
  number,
  number[],
]

interface Blob {
  readonly v: number
  readonly n: number
  readonly s: string[]
  readonly u: (CheckTuple[] | null)[]
}

/** The checks of one update, or null when any of them is not a verdict to keep. */
type Stored = readonly SignatureCheck[] | null

const keepable = (c: SignatureCheck): boolean =>
  (c.verdict === 'valid' || c.verdict === 'invalid') && c.kind !== 'erc_6492'

/** Encodes each update's checks (index = the update's place in the log, sorted by sequence id). */
export function encodeLogVerdicts(updates: readonly (readonly SignatureCheck[] | null)[]): string {
  const encoder = new LogVerdictsEncoder()
  encoder.add(updates)
  return encoder.finish()
}

/**
 * encodeLogVerdicts in pieces: `add` encodes some updates (in log order) to JSON text,
 * `finish` joins them with the string table. The replay worker writes a large log's
 * record this way, a slice of updates at a time (./deferred-writes.ts), and the text is
 * the one encodeLogVerdicts gives.
 */
export class LogVerdictsEncoder {
  private readonly strings: string[] = []
  private readonly index = new Map<string, number>()
  private readonly parts: string[] = []
  private count = 0

  private intern(s: string): number {
    let i = this.index.get(s)
    if (i === undefined) {
      i = this.strings.length
      this.strings.push(s)
      this.index.set(s, i)
    }
    return i
  }

  /** Encodes the next updates' checks. */
  add(updates: readonly (readonly SignatureCheck[] | null)[]): void {
    if (updates.length === 0) return
    const u = updates.map((checks): CheckTuple[] | null => {
      if (!checks || checks.length === 0 || !checks.every(keepable)) return null
      return checks.map((c) => {
        const evidence: number[] = []
        for (const [k, v] of Object.entries(c.evidence)) evidence.push(this.intern(k), this.intern(v))
        return [
          c.actionIndex,
          c.role,
          c.kind,
          c.verdict === 'valid' ? 1 : 0,
          c.signer?.kind ?? null,
          c.signer ? this.intern(c.signer.text) : null,
          c.chainId === null ? null : c.chainId.toString(),
          c.replayKey,
          c.failRule,
          this.intern(c.reason),
          evidence,
        ]
      })
    })
    this.count += updates.length
    // The array's text without its brackets: the parts join with commas.
    this.parts.push(JSON.stringify(u).slice(1, -1))
  }

  /** The blob of every update added: JSON.stringify of `{ v, n, s, u }`. */
  finish(): string {
    return `{"v":${VERSION},"n":${this.count},"s":${JSON.stringify(this.strings)},"u":[${this.parts.join(',')}]}`
  }
}

const isTuple = (x: unknown): x is CheckTuple => Array.isArray(x) && x.length === 11

/** One check from its tuple, or null when the tuple is not one this module writes. */
function readCheck(t: unknown, strings: readonly string[]): SignatureCheck | null {
  if (!isTuple(t)) return null
  const str = (i: unknown): string | undefined => (typeof i === 'number' ? strings[i] : undefined)
  const [actionIndex, role, kind, valid, signerKind, signerText, chainId, replayKey, failRule, reason, ev] = t
  if (!Number.isInteger(actionIndex) || typeof role !== 'string' || typeof kind !== 'string') return null
  if (typeof strings[reason] !== 'string' || !Array.isArray(ev) || ev.length % 2 !== 0) return null
  const evidence: Record<string, string> = {}
  for (let j = 0; j < ev.length; j += 2) {
    const label = strings[ev[j]!]
    const value = strings[ev[j + 1]!]
    if (typeof label !== 'string' || typeof value !== 'string') return null
    evidence[label] = value
  }
  let chain: bigint | null = null
  if (chainId !== null) {
    if (typeof chainId !== 'string' || !/^\d{1,78}$/.test(chainId)) return null
    chain = BigInt(chainId)
  }
  // The verdict's own shape: the verdict cache's reader, under a key of its own.
  const verdict = readVerdictEntry(
    {
      key: '',
      verdict: {
        verdict: valid === 1 ? 'valid' : valid === 0 ? 'invalid' : null,
        signer: signerKind === null && signerText === null ? null : { kind: signerKind, text: str(signerText) },
        chainId: chain,
        replayKey,
        failRule,
        reason: strings[reason],
        evidence,
      },
    },
    '',
  )
  if (!verdict) return null
  return { actionIndex, role: role as SignatureRole, kind: kind as SignatureKind, ...verdict }
}

/**
 * Decodes a blob written by encodeLogVerdicts for a log of `updates` updates: each
 * update's checks (null where none was kept or a check is malformed). Null when the blob
 * is not one (another version, another length, not JSON).
 */
export function decodeLogVerdicts(blob: unknown, updates: number): Stored[] | null {
  if (typeof blob !== 'string') return null
  let parsed: unknown
  try {
    parsed = JSON.parse(blob)
  } catch {
    return null
  }
  const b = parsed as Partial<Blob> | null
  if (!b || b.v !== VERSION || b.n !== updates || !Array.isArray(b.u) || b.u.length !== updates) return null
  if (!Array.isArray(b.s) || !b.s.every((s) => typeof s === 'string')) return null
  const strings = b.s
  return b.u.map((checks) => {
    if (!Array.isArray(checks) || checks.length === 0) return null
    const out: SignatureCheck[] = []
    for (const t of checks) {
      const c = readCheck(t, strings)
      if (!c) return null
      out.push(c)
    }
    return out
  })
}

/** Whether stored checks sit exactly on the update's signatures (action, role, kind, in order). */
export function fitsUpdate(checks: readonly SignatureCheck[], u: UnverifiedUpdate): boolean {
  let j = 0
  for (let i = 0; i < u.actions.length; i++) {
    for (const [role, sig] of signaturesOf(u.actions[i]!)) {
      const c = checks[j++]
      if (!c || c.actionIndex !== i || c.role !== role || c.kind !== sig.kind) return false
    }
  }
  return j === checks.length
}

/**
 * A replay verify stage that answers an update from its stored checks when they fit it,
 * and asks `inner` otherwise (an update not stored, or stored for another shape).
 * `used` counts the updates answered from the record.
 */
export function storedStage(
  stored: readonly Stored[],
  inner: (u: UnverifiedUpdate, n: number) => Promise<VerifiedUpdate>,
  used: { count: number },
): (u: UnverifiedUpdate, n: number) => Promise<VerifiedUpdate> {
  return (u, n) => {
    const checks = stored[n]
    if (checks && fitsUpdate(checks, u)) {
      used.count++
      return Promise.resolve({ update: u, text: signatureText(u), checks })
    }
    return inner(u, n)
  }
}
