/**
 * verify: builds the signature text once per update from the update's own fields
 * (IDENT-020) and verifies every signature the update carries against it. Rules are
 * not judged here: apply walks the actions in order and reads these verdicts.
 */
import { utf8 } from '../../crypto/bytes'
import { signatureText } from '../text/signature-text'
import type { SignatureCheck } from '../trace'
import type { SignatureRole, UnverifiedUpdate, WireAction, WireSignature } from '../types'
import { isCacheable, readVerdictEntry, textDigest, verdictKey, type VerdictCache } from './cache'
import { SignedText, verifySignature, type SignatureVerdict, type VerifyContext } from './signature'

/** The signatures of an action with their roles, in the order apply judges them. */
export function signaturesOf(action: WireAction): readonly (readonly [SignatureRole, WireSignature])[] {
  switch (action.kind) {
    case 'create_inbox':
      return [['initial_identifier_signature', action.initialIdentifierSignature]]
    case 'add':
      return [
        ['existing_member_signature', action.existingMemberSignature],
        ['new_member_signature', action.newMemberSignature],
      ]
    case 'revoke':
      return [['recovery_identifier_signature', action.recoveryIdentifierSignature]]
    case 'change_recovery_address':
      return [['existing_recovery_identifier_signature', action.existingRecoveryIdentifierSignature]]
    case 'claim_handle':
      return [['signature', action.signature]]
  }
}

export interface VerifiedUpdate {
  readonly update: UnverifiedUpdate
  readonly text: string
  /** One per signature, in action order, then role order (signaturesOf). */
  readonly checks: readonly SignatureCheck[]
}

/** Finds the check of one signature of one action (the first, should two carry one place). */
export function checkOf(v: VerifiedUpdate, actionIndex: number, role: SignatureRole): SignatureCheck {
  const checks = v.checks
  // A few checks (nearly every update) are scanned: cheaper than building and reading an index.
  if (checks.length <= SCAN_LIMIT) {
    // An index, not for-of: until it is optimized, for-of steps an iterator object per call.
    for (let k = 0; k < checks.length; k++) {
      const c = checks[k]!
      if (c.actionIndex === actionIndex && c.role === role) return c
    }
    throw new SignatureNeeded(actionIndex, role)
  }
  // Indexed once per update: a find per lookup was quadratic in the actions (issue #14).
  // Keyed by a number (action index and role), not a string built per check and per lookup.
  let index = checkIndexes.get(checks)
  if (!index) {
    index = new Map()
    for (const c of checks) {
      const key = placeKey(c.actionIndex, c.role)
      if (!index.has(key)) index.set(key, c)
    }
    checkIndexes.set(checks, index)
  }
  const c = index.get(placeKey(actionIndex, role))
  if (!c) throw new SignatureNeeded(actionIndex, role)
  return c
}

/** Up to this many checks, checkOf scans them instead of indexing. */
const SCAN_LIMIT = 8

const ROLE_NUMBER: Readonly<Record<SignatureRole, number>> = {
  initial_identifier_signature: 0,
  existing_member_signature: 1,
  new_member_signature: 2,
  recovery_identifier_signature: 3,
  existing_recovery_identifier_signature: 4,
  signature: 5,
}

const placeKey = (actionIndex: number, role: SignatureRole): number => actionIndex * 8 + ROLE_NUMBER[role]

const checkIndexes = new WeakMap<readonly SignatureCheck[], Map<number, SignatureCheck>>()

/**
 * A rule asked for a signature's check that the verified update does not hold. Thrown on
 * purpose for every update by the signature-free pass (../judge-order.ts) and caught there.
 * Not an Error: a signal caught by instanceof needs no stack, and building an Error cost
 * about 4 ms of a 1,024-update command line replay even with no stack trace captured (an
 * Error with V8's stack capture had cost about 25 ms). Should one escape, its message and
 * its string say what it is.
 */
export class SignatureNeeded {
  constructor(
    readonly actionIndex: number,
    readonly role: SignatureRole,
  ) {}
  get name(): string {
    return 'SignatureNeeded'
  }
  get message(): string {
    return `internal: no signature check for action ${this.actionIndex} ${this.role}`
  }
  toString(): string {
    return `${this.name}: ${this.message}`
  }
}

function toCheck(actionIndex: number, role: SignatureRole, sig: WireSignature, v: SignatureVerdict): SignatureCheck {
  return { actionIndex, role, kind: sig.kind, ...v }
}

/** Why a signature of an update replay did not reach was not verified. */
const PAST_THE_STOP = 'not verified: the log stops before this update'

/** A check that was not run, and why (by default: the log stopped before this update). */
function unchecked(
  actionIndex: number,
  role: SignatureRole,
  sig: WireSignature,
  reason = PAST_THE_STOP,
): SignatureCheck {
  return {
    actionIndex,
    role,
    kind: sig.kind,
    verdict: 'unchecked',
    signer: null,
    chainId: null,
    replayKey: null,
    failRule: null,
    reason,
    evidence: {},
  }
}

/** The verification context of one update, with an optional verdict cache (./cache.ts). */
export interface UpdateVerifyOptions extends VerifyContext {
  readonly verdicts?: VerdictCache
}

/** A store's answer, or nothing when the store fails: a broken cache is a miss, never an error. */
async function lookup(cache: VerdictCache, key: string): Promise<SignatureVerdict | null> {
  try {
    return readVerdictEntry(await cache.get(key), key)
  } catch {
    return null
  }
}

function remember(cache: VerdictCache, key: string | null, v: SignatureVerdict): void {
  if (key === null || !isCacheable(v)) return
  try {
    cache.put({ key, verdict: v })
  } catch {
    // A store that cannot write only loses the speed-up.
  }
}

async function verifyOne(
  sig: WireSignature,
  signed: SignedText,
  ctx: UpdateVerifyOptions,
  textHash: string,
): Promise<SignatureVerdict> {
  const cache = ctx.verdicts
  const key = cache ? verdictKey(sig, textHash) : null
  if (cache && key !== null) {
    const hit = await lookup(cache, key)
    if (hit) return hit
  }
  const v = await verifySignature(sig, signed, ctx)
  if (cache) remember(cache, key, v)
  return v
}

/** One signature of an update, where apply reads it. */
interface SignatureAt {
  readonly actionIndex: number
  readonly role: SignatureRole
  readonly sig: WireSignature
}

/**
 * The signatures of one update, verified on demand in signaturesOf order (action order,
 * then role order): the text is built and hashed once, whatever the number of calls.
 * verifyUpdate verifies them all at once; ../judge-order.ts a growing prefix at a time.
 */
export class UpdateSignatures {
  readonly text: string
  readonly all: readonly SignatureAt[]
  private readonly signed: SignedText
  private readonly textHash: string

  constructor(
    readonly update: UnverifiedUpdate,
    private readonly ctx: UpdateVerifyOptions,
  ) {
    this.text = signatureText(update)
    this.signed = new SignedText(this.text, utf8(this.text))
    this.textHash = ctx.verdicts ? textDigest(this.text) : ''
    const all: SignatureAt[] = []
    update.actions.forEach((action, actionIndex) => {
      for (const [role, sig] of signaturesOf(action)) all.push({ actionIndex, role, sig })
    })
    this.all = all
  }

  /**
   * The verdicts of this update's signatures by verdict key (over this one text): a
   * signature carried twice (the wallet that creates an inbox also signs, as the existing
   * member, the installation it adds in the same update: the same bytes over the same
   * text) is verified once, its verdict a pure function of that key (./cache.ts).
   */
  private readonly verdicts = new Map<string, Promise<SignatureVerdict>>()

  private verdictOf(sig: WireSignature): Promise<SignatureVerdict> {
    const key = verdictKey(sig, '')
    if (key === null) return verifyOne(sig, this.signed, this.ctx, this.textHash)
    let v = this.verdicts.get(key)
    if (!v) {
      v = verifyOne(sig, this.signed, this.ctx, this.textHash)
      this.verdicts.set(key, v)
    }
    return v
  }

  /** The checks of signatures `from` to `to` (exclusive) of `all`. */
  verify(from: number, to: number): Promise<SignatureCheck[]> {
    return Promise.all(
      this.all.slice(from, to).map((s) => this.verdictOf(s.sig).then((v) => toCheck(s.actionIndex, s.role, s.sig, v))),
    )
  }

  /** The check of signature `n` when it was not verified, with the reason. */
  unchecked(n: number, reason: string): SignatureCheck {
    const s = this.all[n]!
    return unchecked(s.actionIndex, s.role, s.sig, reason)
  }
}

export async function verifyUpdate(update: UnverifiedUpdate, ctx: UpdateVerifyOptions = {}): Promise<VerifiedUpdate> {
  const s = new UpdateSignatures(update, ctx)
  return { update, text: s.text, checks: await s.verify(0, s.all.length) }
}

/**
 * The verified update from the cache alone, or null unless every signature is a hit
 * (an erc_6492 signature never is). For a verification stage that sends misses elsewhere.
 */
export async function verifyFromCache(update: UnverifiedUpdate, cache: VerdictCache): Promise<VerifiedUpdate | null> {
  const text = signatureText(update)
  const textHash = textDigest(text)
  const jobs: Promise<SignatureCheck | null>[] = []
  update.actions.forEach((action, i) => {
    for (const [role, sig] of signaturesOf(action)) {
      const key = verdictKey(sig, textHash)
      jobs.push(
        key === null ? Promise.resolve(null) : lookup(cache, key).then((v) => (v ? toCheck(i, role, sig, v) : null)),
      )
    }
  })
  const checks = await Promise.all(jobs)
  return checks.every((c) => c !== null) ? { update, text, checks: checks as SignatureCheck[] } : null
}

/** Keeps the cacheable verdicts of a verified update (valid and invalid; never unreachable, never erc_6492). */
export function rememberVerdicts(v: VerifiedUpdate, cache: VerdictCache): void {
  const textHash = textDigest(v.text)
  for (const c of v.checks) {
    const sig = signaturesOf(v.update.actions[c.actionIndex]!).find(([role]) => role === c.role)?.[1]
    if (!sig || c.verdict === 'unchecked') continue
    const { actionIndex: _a, role: _r, kind: _k, ...verdict } = c
    remember(cache, verdictKey(sig, textHash), verdict as SignatureVerdict)
  }
}

/**
 * The signature text and unchecked signatures of an update none of whose signatures was
 * verified, with the reason (by default: replay did not reach it).
 */
export function describeUnverified(update: UnverifiedUpdate, reason = PAST_THE_STOP): VerifiedUpdate {
  const checks: SignatureCheck[] = []
  update.actions.forEach((action, i) => {
    for (const [role, sig] of signaturesOf(action)) checks.push(unchecked(i, role, sig, reason))
  })
  return { update, text: signatureText(update), checks }
}
