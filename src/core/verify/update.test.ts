import { describe, expect, it } from 'vitest'
import type { SignatureCheck } from '../trace'
import type { SignatureRole, UnverifiedUpdate } from '../types'
import { checkOf, SignatureNeeded, type VerifiedUpdate } from './update'

const ROLES: readonly SignatureRole[] = [
  'initial_identifier_signature',
  'existing_member_signature',
  'new_member_signature',
  'recovery_identifier_signature',
  'existing_recovery_identifier_signature',
  'signature',
]

function check(actionIndex: number, role: SignatureRole, reason = ''): SignatureCheck {
  return {
    actionIndex,
    role,
    kind: 'erc_191',
    verdict: 'valid',
    signer: null,
    chainId: null,
    replayKey: null,
    failRule: null,
    reason,
    evidence: {},
  }
}

const verified = (checks: SignatureCheck[]): VerifiedUpdate => ({
  update: {} as UnverifiedUpdate,
  text: '',
  checks,
})

function needed(v: VerifiedUpdate, i: number, role: SignatureRole): SignatureNeeded {
  try {
    checkOf(v, i, role)
  } catch (e) {
    if (e instanceof SignatureNeeded) return e
    throw e
  }
  throw new Error('expected SignatureNeeded')
}

describe('checkOf', () => {
  // Both sides of the scan limit: a few checks are scanned, many are indexed.
  for (const actions of [1, 2, 3, 40]) {
    it(`finds every place and refuses the others (${actions} actions of two checks)`, () => {
      const checks = [...Array(actions).keys()].flatMap((i) => [
        check(i, 'existing_member_signature'),
        check(i, 'new_member_signature'),
      ])
      const v = verified(checks)
      for (let i = 0; i < actions; i++) {
        expect(checkOf(v, i, 'existing_member_signature')).toBe(checks[2 * i])
        expect(checkOf(v, i, 'new_member_signature')).toBe(checks[2 * i + 1])
        for (const role of ROLES.filter((r) => r !== 'existing_member_signature' && r !== 'new_member_signature')) {
          const e = needed(v, i, role)
          expect([e.actionIndex, e.role]).toEqual([i, role])
          expect(e.message).toBe(`internal: no signature check for action ${i} ${role}`)
        }
      }
      expect(needed(v, actions, 'new_member_signature').actionIndex).toBe(actions)
      expect(needed(v, -1, 'new_member_signature').actionIndex).toBe(-1)
    })
  }

  it('answers the first check of a place that two carry, scanned or indexed', () => {
    for (const n of [2, 30]) {
      const checks = [...Array(n).keys()].map((k) => check(k < 2 ? 0 : k, 'signature', `#${k}`))
      expect(checkOf(verified(checks), 0, 'signature').reason).toBe('#0')
    }
  })

  it('no checks: every place is needed, and the signal says so should it escape', () => {
    const e = needed(verified([]), 0, 'initial_identifier_signature')
    expect(e.role).toBe('initial_identifier_signature')
    expect(e.name).toBe('SignatureNeeded')
    expect(String(e)).toBe('SignatureNeeded: internal: no signature check for action 0 initial_identifier_signature')
  })
})
