/**
 * Shared checks of the reducers: reading a signature's verdict (IDENT-030, IDENT-060,
 * IDENT-061), its kind against the member it stands for (IDENT-031), its chain against
 * the recorded one (IDENT-046), and its replay key against the seen keys (IDENT-050).
 */
import type { PSet } from '../persistent'
import { RuleViolation } from '../errors'
import type { RuleId } from '../rules'
import { describeMember, sameMember } from '../text/identifier'
import type { SignatureCheck } from '../trace'
import type { MemberId, MemberKind, SignatureKind } from '../types'

/** What an update's reducers share: the verdicts, the pre-update seen keys, pending reasons. */
export interface ApplyContext {
  readonly sequenceId: bigint
  readonly clientTimestampNs: bigint
  /** Seen keys of the state the update is applied to: IDENT-050 checks against these. */
  readonly seenBefore: PSet
  /** Replay keys of this update's signatures, in order. */
  readonly replayKeys: string[]
  /**
   * The seen keys with `replayKeys` added in order (the set `seenBefore.union(replayKeys)`
   * gives, in its iteration order): the state's seen keys when the whole update applies.
   */
  seen: PSet
  /** Signatures that could not be judged (IDENT-061). */
  readonly unreachable: SignatureCheck[]
  check(actionIndex: number, role: SignatureCheck['role']): SignatureCheck
}

/** A signature that verified (or could not be judged) with the signer it names. */
export interface Signed {
  readonly signer: MemberId
  readonly chainId: bigint | null
  readonly check: SignatureCheck
}

const KINDS_FOR: Record<MemberKind, readonly SignatureKind[]> = {
  ethereum: ['erc_191', 'erc_6492'],
  passkey: ['passkey'],
  installation: ['installation_key'],
}

const roleName = (role: SignatureCheck['role']): string => role.replaceAll('_', ' ')

/** IDENT-031: the signature's field is one the section 4 table lists for the party's member kind. */
export function requireKindFor(check: SignatureCheck, party: MemberKind, partyName: string, actionIndex: number): void {
  if (!KINDS_FOR[party].includes(check.kind)) {
    throw new RuleViolation(
      'IDENT-031',
      actionIndex,
      `${roleName(check.role)} is ${check.kind}, which cannot sign for the ${partyName}, a ${party} member (expected ${KINDS_FOR[party].join(' or ')})`,
      { check: 'signature-kind', role: check.role, expected: KINDS_FOR[party].join(' or '), found: check.kind },
    )
  }
}

/**
 * IDENT-030 / IDENT-060: the signature verified. An unreachable smart wallet
 * signature is not a failure (IDENT-061): its signer, from the account id, is used
 * for the rules, and the update ends pending if nothing else fails.
 */
export function requireSigned(ctx: ApplyContext, actionIndex: number, role: SignatureCheck['role']): Signed {
  const check = ctx.check(actionIndex, role)
  if (check.verdict === 'invalid' || check.verdict === 'unchecked' || !check.signer) {
    throw new RuleViolation(check.failRule ?? 'IDENT-030', actionIndex, `${roleName(role)}: ${check.reason}`, {
      check: 'signature-invalid',
      role,
      expected: 'a signature that verifies over the signature text',
      found: check.signer ? `${check.reason} (names ${describeMember(check.signer)})` : check.reason,
    })
  }
  if (check.verdict === 'unreachable') ctx.unreachable.push(check)
  return { signer: check.signer, chainId: check.chainId, check }
}

/**
 * requireSigned, and the signer is `expected` (`expectedName` in the message), else `rule`:
 * IDENT-012 (the creator names the initial identifier), IDENT-040 (the new member signs its
 * add), IDENT-043 / IDENT-045 (only the recovery identifier revokes or changes recovery; they
 * name it in `recovery` too).
 */
export function requireSignedBy(
  ctx: ApplyContext,
  actionIndex: number,
  role: SignatureCheck['role'],
  rule: RuleId,
  expected: MemberId,
  expectedName: string,
): Signed {
  const s = requireSigned(ctx, actionIndex, role)
  if (!sameMember(s.signer, expected)) {
    const want = describeMember(expected)
    const found = describeMember(s.signer)
    const recovery = rule === 'IDENT-043' || rule === 'IDENT-045' ? { recovery: want } : {}
    throw new RuleViolation(
      rule,
      actionIndex,
      `${roleName(role)} signer ${found} differs from ${expectedName} ${want}`,
      { check: 'signer-mismatch', role, expected: want, found, ...recovery },
    )
  }
  return s
}

/** IDENT-046: the signature's chain id equals the one recorded for the member or role. */
export function requireChain(s: Signed, recorded: bigint | null, what: string, actionIndex: number): void {
  if (s.chainId !== recorded) {
    throw new RuleViolation(
      'IDENT-046',
      actionIndex,
      `${roleName(s.check.role)} by ${describeMember(s.signer)} is on chain ${fmtChain(s.chainId)}, but ${what} is recorded on chain ${fmtChain(recorded)}`,
      { check: 'chain-mismatch', role: s.check.role, expected: fmtChain(recorded), found: fmtChain(s.chainId) },
    )
  }
}

const fmtChain = (c: bigint | null): string => (c === null ? 'none' : `eip155:${c}`)

/** IDENT-050: no signature of the action is among the seen keys; keys are recorded on apply. */
export function requireFresh(ctx: ApplyContext, s: Signed, actionIndex: number): void {
  const key = s.check.replayKey
  if (key === null)
    throw new RuleViolation('IDENT-030', actionIndex, `${roleName(s.check.role)} has no replay key`, {
      check: 'no-replay-key',
      role: s.check.role,
      found: describeMember(s.signer),
    })
  // One add asks and records: an unchanged set holds the key already, from before the
  // update or from an earlier signature of it (not a replay: had that key been seen before,
  // that signature would have been refused).
  const seen = ctx.seen.add(key)
  if (seen === ctx.seen && !ctx.replayKeys.includes(key)) {
    throw new RuleViolation(
      'IDENT-050',
      actionIndex,
      `${roleName(s.check.role)} by ${describeMember(s.signer)} was already used: replay key ${key.slice(0, 16)}… is among the seen keys`,
      {
        check: 'replay',
        role: s.check.role,
        expected: 'a replay key not yet seen',
        found: describeMember(s.signer),
        replayKey: key,
      },
    )
  }
  ctx.seen = seen
  ctx.replayKeys.push(key)
}
