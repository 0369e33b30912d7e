import { describe, expect, it } from 'vitest'
import { memberKey } from '../../../../core/types'
import { createCollector, dryRun, type Signer } from '../../../../signing'
import { T0 } from '../../../../signing/testkit'
import { partiesOf } from '../parties'
import { heldSigner, inboxWithHandle, installationKeys, wallet } from '../compose-testkit'
import { allButMine, buildCleanup } from './cleanup'
import { readSetting, writeSetting } from '../../../model/setting'
import { mapStorage, refusing } from '../../../model/storage-doubles'
import { inboxHealth, spendWarning } from './health'
import { LAST_ENTRIES, LOG_LIMIT_SETTING, parseLogLimit } from './log-limit'

const insts = installationKeys
const inbox = () => inboxWithHandle(insts)

describe('inbox health (issue 15)', () => {
  it('counts entries against the limit and installations against the ceiling, oldest client time first', async () => {
    const s = await inbox()
    const h = inboxHealth(s, { logEntries: 6, logLimit: 256, ceiling: 10 })
    expect(h.entries).toEqual({ used: 6, limit: 256, left: 250 })
    expect(h.installations.count).toBe(4)
    expect(h.installations.atCeiling).toBe(false)
    expect(h.installations.oldestFirst.map((m) => m.id.text)).toEqual(
      [...insts].reverse().map((i) => i.identifier.text),
    )
    expect(h.handles).toEqual({ current: 'nick', others: [], claimCount: 1, claimsLeft: 63 })
    expect(h.recovery).toEqual({ id: wallet.identifier, isMember: true })
    expect(h.buys.join('\n')).toMatch(/250 entries left/)
    expect(h.buys.join('\n')).toMatch(/6 more installations before the ceiling of 10/)
    expect(h.warnings).toEqual([])
    expect(spendWarning(h)).toBeNull()
  })

  it('warns about the last entries, a full log and the ceiling', async () => {
    const s = await inbox()
    const near = inboxHealth(s, { logEntries: 6, logLimit: 6 + LAST_ENTRIES, ceiling: 4 })
    expect(near.warnings[0]).toMatch(/Only 3 log entries left of 9/)
    expect(near.warnings[1]).toMatch(/At the installation ceiling \(4 of 4\)/)
    expect(near.installations.atCeiling).toBe(true)
    expect(spendWarning(near)).toMatch(/one of the last entries: 2 will be left of 9/)
    const last = inboxHealth(s, { logEntries: 8, logLimit: 9, ceiling: 10 })
    expect(spendWarning(last)).toMatch(/0 will be left of 9, and the log is then full for good/)
    const full = inboxHealth(s, { logEntries: 9, logLimit: 9, ceiling: 10 })
    expect(full.entries.left).toBe(0)
    expect(full.warnings[0]).toMatch(/The log is full: 9 entries of 9/)
    expect(full.buys).toEqual([])
    expect(spendWarning(full)).toMatch(/the network would not store this update/)
  })
})

describe('clean up installations (issue 15)', () => {
  it('revokes three installations in one update with one prompt from the recovery identifier', async () => {
    const s = await inbox()
    const parties = partiesOf(s, [heldSigner('wallet', wallet, 'E2E Wallet')])
    const targets = insts.slice(0, 3).map((i) => memberKey(i.identifier))
    const b = buildCleanup(s, parties, targets, T0 + 30n)
    expect(b.problems).toEqual([])
    expect(b.draft!.actions).toHaveLength(3)
    expect(b.confirmation).toMatch(/removes these 3 installations/)
    expect(b.removed.map((m) => m.id.text).sort()).toEqual(
      insts
        .slice(0, 3)
        .map((i) => i.identifier.text)
        .sort(),
    )
    // The core's dry run (never this feature's rules) accepts it and removes exactly those three.
    const dry = await dryRun(s, b.draft!)
    expect(dry.ok).toBe(true)
    if (!dry.ok) return
    expect(dry.diff.membersRemoved.map((m) => m.id.text).sort()).toEqual(
      insts
        .slice(0, 3)
        .map((i) => i.identifier.text)
        .sort(),
    )
    // One prompt: the wallet signs all three slots once.
    let prompts = 0
    const counting: Signer = { ...wallet, sign: async (t) => (prompts++, wallet.sign(t)) }
    const r = await createCollector(b.draft!, []).run([counting])
    expect(r.ok).toBe(true)
    expect(prompts).toBe(1)
  })

  it('"all but this browser’s" keeps the installations this browser holds, and a draft names what it lacks', async () => {
    const s = await inbox()
    const parties = partiesOf(s, [
      heldSigner('wallet', wallet, 'E2E Wallet'),
      heldSigner('installation', insts[1]!, 'this browser'),
    ])
    expect(allButMine(s, parties).sort()).toEqual(
      [insts[0]!, insts[2]!, insts[3]!].map((i) => memberKey(i.identifier)).sort(),
    )
    expect(buildCleanup(s, parties, [], T0).problems).toEqual(['choose at least one installation to revoke'])
  })

  it('locked out at the ceiling: only the recovery wallet is needed, no installation of this browser', async () => {
    const s = await inbox()
    const h = inboxHealth(s, { logEntries: 6, logLimit: 256, ceiling: 4 })
    expect(h.installations.atCeiling).toBe(true)
    const parties = partiesOf(s, [heldSigner('wallet', wallet, 'E2E Wallet')])
    const b = buildCleanup(s, parties, allButMine(s, parties), T0 + 30n)
    expect(b.draft!.actions).toHaveLength(4)
    expect((await dryRun(s, b.draft!)).ok).toBe(true)
  })
})

describe('the log limit setting (issue 15)', () => {
  it('parses a whole number from 1 to 1,000,000 and says why otherwise', () => {
    expect(parseLogLimit(' 256 ')).toEqual({ ok: true, value: 256 })
    expect(parseLogLimit('2x')).toEqual({ ok: false, problem: 'the log limit "2x" is not a whole number' })
    expect(parseLogLimit('0')).toEqual({ ok: false, problem: 'the log limit must be at least 1' })
    expect(parseLogLimit('1000001')).toEqual({ ok: false, problem: 'the log limit must be at most 1000000' })
  })
  it('defaults to 256, keeps a saved value, ignores a damaged one and a throwing storage', () => {
    expect(readSetting(LOG_LIMIT_SETTING, mapStorage([['inspector.logLimit', 'junk']]))).toBe(256)
    const s = mapStorage()
    writeSetting(LOG_LIMIT_SETTING, 40, s)
    expect(readSetting(LOG_LIMIT_SETTING, s)).toBe(40)
    expect(readSetting(LOG_LIMIT_SETTING, refusing)).toBe(256)
  })
})
