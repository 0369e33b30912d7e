/**
 * Admission against the real node process (IDENT-005): an update that fails a rule is
 * 409 with its rule id; a smart wallet signature that cannot be judged is 503
 * (IDENT-061); the claim policy is 422 with `rule` null and a code per policy; a stricter
 * policy after a restart never un-applies a stored claim (IDENT-084).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { bytesToHex } from '../../src/crypto'
import { replay } from '../../src/core/replay'
import { NODE_PATHS, frameField1 } from '../../src/network/client'
import { addMember, claimHandle, createInbox, inboxIdOf, revokeMember } from '../../src/signing'
import { startNode, stopAll, tempDir, type RunningNode } from './harness'
import { add, claim, installation, newInbox, passkey, smartWallet, update, wallet, type Built } from './updates'

const tmp = tempDir()
let node: RunningNode

const W = wallet('adm A')
const I = installation('adm A')
const stranger = wallet('adm stranger')
const strangerInstall = installation('adm stranger')
let A: Built
let B: Built
const WB = wallet('adm B')
const IB = installation('adm B')

async function publish(bytes: Uint8Array) {
  return node.post(NODE_PATHS.publish, frameField1(bytes))
}

async function newest(inboxId: string) {
  return (await node.client().queryNewest([inboxId]))[0]?.sequenceId ?? null
}

beforeAll(async () => {
  node = await startNode({ db: tmp.path('adm.db') })
  A = await newInbox(W, { install: I })
  B = await newInbox(WB, { install: IB })
  expect((await publish(A.bytes)).status).toBe(200)
  expect((await publish(B.bytes)).status).toBe(200)
})

afterAll(async () => {
  await stopAll()
  tmp.remove()
})

describe('IDENT-005: an update is stored only if it applies to the inbox head; otherwise 409 with its rule', () => {
  const corrupt = {
    transform: (s: { kind: string; bytes?: Uint8Array }) => ({
      ...s,
      bytes: Uint8Array.from(s.bytes!, (b, i) => (i === 5 ? b ^ 1 : b)),
    }),
  } as never
  const cases: [string, string, () => Promise<Uint8Array>][] = [
    [
      'IDENT-011',
      'an update to an inbox with no log that does not start with CreateInbox',
      async () => (await claim(inboxIdOf(wallet('adm nobody')), 'ghost', wallet('adm nobody'))).bytes,
    ],
    [
      'IDENT-011',
      'a second CreateInbox for an inbox that exists',
      async () => (await update(A.inboxId, createInbox(W))).bytes,
    ],
    [
      'IDENT-003',
      'an update naming another inbox than its actions produce',
      async () => (await update('ff'.repeat(32), createInbox(wallet('adm three')))).bytes,
    ],
    [
      'IDENT-040',
      'an add signed by a wallet that is neither a member nor the recovery identifier',
      async () => (await add(A.inboxId, stranger, strangerInstall)).bytes,
    ],
    [
      'IDENT-043',
      'a revoke not signed by the recovery identifier',
      async () => (await update(A.inboxId, revokeMember(I, stranger))).bytes,
    ],
    [
      'IDENT-030',
      'a claim whose installation signature does not verify',
      async () => (await update(A.inboxId, claimHandle('adm-corrupt', I, { signature: corrupt }))).bytes,
    ],
    [
      'IDENT-013',
      'an add of a checksummed (uppercase) Ethereum identifier',
      async () =>
        (
          await update(
            A.inboxId,
            addMember(W, wallet('adm upper'), {
              newMemberIdentifier: {
                kind: 'ethereum',
                address: `0x${wallet('adm upper').identifier.text.slice(2).toUpperCase()}`,
              },
            }),
          )
        ).bytes,
    ],
    [
      'IDENT-078',
      'a claim of a handle outside the grammar (uppercase)',
      async () => (await claim(A.inboxId, 'Adm-Upper', I)).bytes,
    ],
    [
      'IDENT-079',
      'a claim together with another action',
      async () => (await update(A.inboxId, claimHandle('adm-two', W), addMember(W, installation('adm two')))).bytes,
    ],
    [
      'IDENT-081',
      'a claim signed by an installation that is not a member',
      async () => (await claim(A.inboxId, 'adm-nonmember', strangerInstall)).bytes,
    ],
    [
      'IDENT-060',
      'an erc_6492 signature whose account id is not eip155 (rejected before any chain access)',
      async () =>
        (
          await update(
            undefined,
            createInbox(smartWallet(`0x${'12'.repeat(20)}`, 5n), {
              signature: {
                raw: {
                  kind: 'erc_6492',
                  accountId: `cosmos:1:0x${'12'.repeat(20)}`,
                  blockNumber: 5n,
                  signature: new Uint8Array(65),
                },
              },
            }),
          )
        ).bytes,
    ],
  ]
  for (const [rule, what, build] of cases) {
    it(`${rule}: ${what} is 409 with rule ${rule}, and nothing is stored`, async () => {
      const before = await newest(A.inboxId)
      const r = await publish(await build())
      expect(r.status).toBe(409)
      expect(r.json()).toMatchObject({ code: 'rule_violation', rule })
      expect(r.json().message.length).toBeGreaterThan(10)
      expect(await newest(A.inboxId)).toBe(before)
    })
  }

  it('IDENT-050: publishing a stored update again is 409 IDENT-050 (its signatures were used)', async () => {
    const c = await claim(A.inboxId, 'adm-once', I)
    expect((await publish(c.bytes)).status).toBe(200)
    const again = await publish(c.bytes)
    expect(again.status).toBe(409)
    expect(again.json()).toMatchObject({ code: 'rule_violation', rule: 'IDENT-050' })
  })

  it('IDENT-061: a smart contract wallet signature that no chain can judge is 503 chain_unreachable with Retry-After, and stored later is still possible', async () => {
    const sw = smartWallet(`0x${'34'.repeat(20)}`, 7n)
    const created = await update(undefined, createInbox(sw))
    const r = await publish(created.bytes)
    expect(r.status).toBe(503)
    expect(r.json()).toMatchObject({ code: 'chain_unreachable', rule: 'IDENT-061' })
    expect(r.headers.get('retry-after')).toBeTruthy()
    expect(await newest(created.inboxId)).toBeNull()
  })

  it('a rule beats the policy: a reserved name in uppercase is 409 IDENT-078, not 422', async () => {
    const r = await publish((await claim(A.inboxId, 'ADMIN', I)).bytes)
    expect(r.status).toBe(409)
    expect(r.json().rule).toBe('IDENT-078')
  })

  it('the stored log replays with the core and every refused update is absent', async () => {
    const log = await node.client().getInboxLog(A.inboxId)
    const trace = await replay(log)
    expect(trace.ok).toBe(true)
    expect(trace.head!.handles).toEqual(['adm-once'])
  })
})

describe('the claim policy, at admission only: 422 with rule null and a code naming the policy', () => {
  it("handle_taken: a handle another inbox's log claimed; the holder itself may claim it again", async () => {
    expect((await publish((await claim(A.inboxId, 'adm-shared', I)).bytes)).status).toBe(200)
    const r = await publish((await claim(B.inboxId, 'adm-shared', IB)).bytes)
    expect(r.status).toBe(422)
    expect(r.json()).toMatchObject({ code: 'handle_taken', rule: null })
    expect(r.json().message).toContain(A.inboxId)
    // an old handle of A is still A's
    const old = await publish((await claim(B.inboxId, 'adm-once', IB)).bytes)
    expect(old.json()).toMatchObject({ code: 'handle_taken' })
    // A moves back to an older handle of its own (IDENT-082): not "taken"
    expect((await publish((await claim(A.inboxId, 'adm-once', W)).bytes)).status).toBe(200)
  })

  it('handle_reserved: a reserved name part, with or without a code', async () => {
    for (const h of ['admin', 'support#1234', 'xmtp']) {
      const r = await publish((await claim(B.inboxId, h, IB)).bytes)
      expect(r.status, h).toBe(422)
      expect(r.json()).toMatchObject({ code: 'handle_reserved', rule: null })
    }
  })

  it('handle_too_short: a name part shorter than the minimum (default 3); the code does not count', async () => {
    const r = await publish((await claim(B.inboxId, 'ab#1234', IB)).bytes)
    expect(r.status).toBe(422)
    expect(r.json()).toMatchObject({ code: 'handle_too_short', rule: null })
    expect((await publish((await claim(B.inboxId, 'abc', IB)).bytes)).status).toBe(200)
  })
})

describe('IDENT-084: the claim policy is admission only', () => {
  it('after a restart with a stricter policy, stored claims still replay and resolve and their inboxes keep admitting updates; new claims meet the new policy, claim_too_soon included', async () => {
    // The node above stored A's claims adm-once and adm-shared and B's claim abc.
    expect(await node.stop()).toBe(0)
    node = await startNode({
      db: tmp.path('adm.db'),
      args: ['--min-handle-length', '5', '--reserved', 'abc,adm-once,root', '--claim-interval-s', '60'],
    })
    const s = node.client()
    // Claims of names now too short and now reserved still resolve and replay.
    const found = await s.getInboxIds([
      { identifier: 'ABC', kind: 'handle' },
      { identifier: 'adm-once', kind: 'handle' },
    ])
    expect(found.map((f) => f.inboxId)).toEqual([B.inboxId, A.inboxId])
    const traceA = await replay(await s.getInboxLog(A.inboxId))
    expect(traceA.ok).toBe(true)
    expect(traceA.head!.handles).toEqual(['adm-shared', 'adm-once'])
    const traceB = await replay(await s.getInboxLog(B.inboxId))
    expect(traceB.head!.handles).toEqual(['abc'])
    // The heads are rebuilt from the stored logs with no policy, so an add applies.
    expect((await publish((await add(B.inboxId, WB, passkey('adm 84'))).bytes)).status).toBe(200)
    // New claims meet the new policy.
    const C = await newInbox(wallet('adm 84 C'))
    expect((await publish(C.bytes)).status).toBe(200)
    expect((await publish((await claim(C.inboxId, 'abcd', wallet('adm 84 C'))).bytes)).json()).toMatchObject({
      code: 'handle_too_short',
      rule: null,
    })
    expect((await publish((await claim(C.inboxId, 'adm-once#0001', wallet('adm 84 C'))).bytes)).json()).toMatchObject({
      code: 'handle_reserved',
      rule: null,
    })
    // The interval counts from the stored claims: A claimed moments ago.
    const soon = await publish((await claim(A.inboxId, 'abcdef', W)).bytes)
    expect(soon.status).toBe(422)
    expect(soon.json()).toMatchObject({ code: 'claim_too_soon', rule: null })
    expect(soon.json().message).toMatch(/retry in \d+ ms/)
    // C never claimed: admitted once, then too soon.
    expect((await publish((await claim(C.inboxId, 'carla', wallet('adm 84 C'))).bytes)).status).toBe(200)
    expect((await publish((await claim(C.inboxId, 'carla2', wallet('adm 84 C'))).bytes)).json()).toMatchObject({
      code: 'claim_too_soon',
    })
    // The stored bytes are served unchanged after the restart.
    const served = (await s.getInboxLog(A.inboxId)).entries[0]!.update
    expect('bytes' in served && bytesToHex(served.bytes!)).toBe(bytesToHex(A.bytes))
  })
})
