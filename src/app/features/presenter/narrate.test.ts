import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { readLogs } from '../../../core/decode/logs'
import { replay } from '../../../core/replay'
import { toTransferStep } from '../../../worker/transfer'
import { allRows, TraceModel } from '../../trace/trace-model'
import { narrate } from './narrate'

const FIXTURES = join(import.meta.dirname, '..', '..', '..', '..', 'test', 'fixtures')

/** Every row of a fixture log, narrated (the fixtures replay with no smart wallet verifier). */
async function narrated(name: string): Promise<string[]> {
  const trace = await replay(readLogs(readFileSync(join(FIXTURES, `${name}.json`), 'utf8'))[0]!, {
    verifyAfterStop: true,
  })
  const model = new TraceModel(trace.steps.map(toTransferStep))
  const stop = model.stopIndex()
  const stopAt = stop >= 0 ? model.steps[stop]!.sequenceId : null
  return allRows(model.steps).map((r) =>
    narrate({ step: model.steps[r.k]!, i: r.i, status: model.statusOf(r.k, r.i), stopAt }),
  )
}

const W1 = 'wallet 0x507c8c…d488'
const W2 = 'wallet 0xfe28ef…7a0c'
const I1 = 'installation 838d8f…7b51'

describe('narrate', () => {
  it('tells every action kind of valid-full-life, with its actor and "(applied)"', async () => {
    const lines = await narrated('valid-full-life')
    expect(lines).toEqual([
      `Sequence id 1, action 0 of 2: the ${W1} creates the inbox (applied)`,
      `Sequence id 1, action 1 of 2: the ${W1} adds ${I1} (applied)`,
      `Sequence id 2: the ${W1} adds passkey 04754c…a45c (applied)`,
      `Sequence id 3: the ${W1} adds ${W2} (applied)`,
      `Sequence id 4: the ${I1} adds wallet 0x312965…3752 (applied)`,
      `Sequence id 5: the ${W1} claims the handle "nick" (applied)`,
      `Sequence id 6: the ${I1} claims the handle "nick#2341" (applied)`,
      'Sequence id 7: the passkey 04754c…a45c claims the handle "nick" (applied)',
      `Sequence id 8: the ${W2} adds installation 573de3…890c (applied)`,
      `Sequence id 9: the ${W1} hands the recovery role to ${W2} (applied)`,
      // IDENT-044: the revoked wallet's installation goes with it.
      `Sequence id 10: the ${W2} revokes ${W1}, and with it 1 installation it added (applied)`,
      `Sequence id 11: the ${W2} revokes ${W2}, and with it 1 installation it added (applied)`,
      'Sequence id 12: the passkey 04754c…a45c adds installation e315ba…40dd (applied)',
      `Sequence id 13: the ${W2} adds installation 47e804…5dc2 (applied)`,
    ])
  })

  it('IDENT-044: a revoked non-member is said to be one, its cascade still counted', async () => {
    expect((await narrated('IDENT-044-revoke-non-member'))[4]).toBe(
      `Sequence id 5: the ${W2} revokes ${W2} (not a member), and with it 1 installation it added (applied)`,
    )
  })

  it('IDENT-040: a rejection names its rule and what the check found; later updates are not applied', async () => {
    const lines = await narrated('IDENT-040-add-signer-mismatch')
    expect(lines[2]).toBe(
      `Sequence id 2: the ${W1} would add ${W2}, rejected under IDENT-040: the new member signature is by wallet 0x312965…3752, not by the member named (${W2})`,
    )
    expect(lines[3]).toBe(`Sequence id 3: the ${W1} would add ${W2}, not applied: the log stops at sequence id 2`)
  })

  it('IDENT-002: an action before the failing one is rolled back', async () => {
    const lines = await narrated('IDENT-002-whole-update-or-nothing')
    expect(lines[2]).toBe(
      `Sequence id 2, action 0 of 2: the ${W1} would add ${W2}, rolled back: action 1 was rejected under IDENT-040, so none of the update is kept (IDENT-002)`,
    )
    expect(lines[3]).toMatch(
      /^Sequence id 2, action 1 of 2: .* rejected under IDENT-040: the new member signature is by/,
    )
  })

  it('IDENT-003: a failure of the whole update rolls its action back, with the reason', async () => {
    expect((await narrated('IDENT-003-inbox-id-mismatch'))[2]).toBe(
      `Sequence id 2: the ${W1} would add ${W2}, rolled back: the update was rejected under IDENT-003: the update names another inbox (2e3ba4…860a)`,
    )
  })

  it('IDENT-061: a pending update names the chain it waits for, and the action after it is not reached', async () => {
    const lines = await narrated('IDENT-046-smart-wallet-other-chain')
    expect(lines[0]).toBe(
      'Sequence id 1, action 0 of 2: the wallet 0xa70db2…d29f would create the inbox, pending under IDENT-061: the smart wallet signature on chain eip155:1 cannot be judged yet (no route to it is set)',
    )
    expect(lines[1]).toBe(
      `Sequence id 1, action 1 of 2: the wallet 0xa70db2…d29f would add ${I1}, not reached: action 0 is pending under IDENT-061`,
    )
    expect(lines[2]).toBe(
      'Sequence id 2: the wallet 0xa70db2…d29f would add installation 573de3…890c, not applied: the log stops at sequence id 1',
    )
    expect((await narrated('IDENT-061-unrouted-chain'))[2]).toMatch(
      /^Sequence id 2: .* pending under IDENT-061: the smart wallet signature on chain eip155:999 cannot be judged yet/,
    )
  })

  it('IDENT-001: an update that does not decode is told by its verdict alone', async () => {
    expect((await narrated('IDENT-001-empty-actions'))[2]).toBe(
      'Sequence id 2: rejected under IDENT-001: the update has no actions',
    )
    expect((await narrated('IDENT-001-invalid-hex'))[2]).toBe(
      'Sequence id 2: rejected under IDENT-001: the update’s bytes are not valid hex',
    )
    expect((await narrated('IDENT-001-signature-field-4-only'))[2]).toBe(
      'Sequence id 2: rejected under IDENT-001: a signature holds only the retired legacy field 4',
    )
  })

  it('names the signer of each refused action kind: revoke, recovery change, claim, create', async () => {
    expect((await narrated('IDENT-043-revoke-by-non-recovery'))[3]).toBe(
      `Sequence id 3: the ${W2} would revoke ${I1}, rejected under IDENT-043: the signer ${W2} is not the recovery identifier (${W1})`,
    )
    expect((await narrated('IDENT-045-change-recovery-by-non-recovery'))[3]).toMatch(
      new RegExp(
        `^Sequence id 3: the ${W2} would hand the recovery role to .*, rejected under IDENT-045: the signer ${W2} is not the recovery identifier \\(${W1}\\)$`,
      ),
    )
    expect((await narrated('IDENT-081-claim-by-revoked-installation'))[3]).toBe(
      `Sequence id 3: the ${I1} would claim the handle "nick", rejected under IDENT-081: the signer ${I1} is not a member`,
    )
    expect((await narrated('IDENT-031-create-installation-signature'))[0]).toBe(
      `Sequence id 1: the ${W1} would create the inbox, rejected under IDENT-031: an installation_key signature cannot sign as the creator (erc_191 or erc_6492 expected)`,
    )
  })

  it('words each check of the rules in a few words', async () => {
    const at = async (name: string, row: number) => (await narrated(name))[row]!.replace(/^.*?, rejected under /, '')
    expect(await at('IDENT-040-existing-signer-not-member', 2)).toBe(
      'IDENT-040: the signer wallet 0x312965…3752 is not a member nor the recovery identifier',
    )
    expect(await at('IDENT-040-add-current-member', 3)).toBe(`IDENT-040: ${W2} is already a member`)
    expect(await at('IDENT-040-both-signers-equal', 3)).toBe(
      'IDENT-040: one party signed both as the existing member and as the new member',
    )
    expect(await at('IDENT-041-installation-adds-installation', 2)).toBe(
      'IDENT-041: an installation cannot add an installation',
    )
    expect(await at('IDENT-046-erc6492-sig-from-erc191-member', 3)).toBe(
      'IDENT-046: the existing member signature is on chain eip155:1, but the signer joined with no chain',
    )
    expect(await at('IDENT-050-replay-after-revocation', 4)).toBe(
      `IDENT-050: the existing member signature by ${W1} was already used`,
    )
    expect(await at('IDENT-030-installation-sig-corrupted', 2)).toBe(
      'IDENT-030: the new member signature does not verify',
    )
    expect(await at('IDENT-011-first-action-not-create', 0)).toBe('IDENT-011: the log does not open with a CreateInbox')
    expect(await at('IDENT-011-second-create', 2)).toBe('IDENT-011: the inbox already exists')
    expect(await at('IDENT-013-add-checksummed-address', 2)).toBe(
      'IDENT-013: "0xfe28EF281D27096905FC45901f4b26b59aE97A0c" is not a lowercase address',
    )
    expect(await at('IDENT-078-handle-uppercase', 2)).toBe('IDENT-078: "Nick" is not a valid handle')
    expect(await at('IDENT-079-claim-with-other-action', 2)).toBe(
      'IDENT-079: a claim must be the only action of its update',
    )
    expect(await at('IDENT-080-65th-claim', 66)).toBe('IDENT-080: the inbox has made all 64 of its claims')
    expect(await at('IDENT-077-create-kind-handle', 0)).toBe(
      'IDENT-077: identifier kind IDENTIFIER_KIND_HANDLE cannot sign',
    )
  })
})

describe('TraceModel.statusOf', () => {
  it('is the action’s status, or the update’s for a step without actions', async () => {
    const trace = await replay(
      readLogs(readFileSync(join(FIXTURES, 'IDENT-001-signature-field-4-only.json'), 'utf8'))[0]!,
    )
    const model = new TraceModel(trace.steps.map(toTransferStep))
    expect(model.statusOf(1, -1)).toBe('rejected') // the undecodable update, not "rolled back"
    expect(model.statusOf(0, 1)).toBe('applied')
    expect(model.statusOf(2, 0)).toBe('not_applied')
  })
})
