/**
 * The command line end to end with smart wallet signatures (../shared/contracts/cli.md):
 * a log bundle signed through a deployed OwnedWallet and a counterfactual one, replayed by
 * the real entry point (`tsx src/cli/main.ts replay --json --chain eip155:31337=<anvil>`).
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, describe, expect, it } from 'vitest'
import { addMember, createInbox, ethKeySigner, installationKeySigner, signUpdate } from '../../src/signing'
import { runCli } from '../support/cli'
import type { AnvilNode } from './anvil'
import {
  chainForFile,
  bundleOf,
  counterfactualWallet,
  deployWallet,
  eoa,
  headNumber,
  salt,
  walletSigner,
  type ChainFixture,
} from './fixture'

let node: AnvilNode
let fx: ChainFixture
let dir: string
let file: string
let walletAddr: string
let counterfactualAddr: string

chainForFile(async (run) => {
  ;({ node, fx } = run)
  dir = mkdtempSync(join(tmpdir(), 'chain-cli-'))
  const a = eoa('cli owner A')
  const c = eoa('cli owner C')
  const w = await deployWallet(fx, a, salt(1))
  const cf = counterfactualWallet(fx, c, salt(2))
  walletAddr = w.address.toLowerCase()
  counterfactualAddr = cf.address.toLowerCase()
  const wallet = walletSigner(fx, w, { blockNumber: w.blockNumber, owner: a })
  const u1 = await signUpdate({
    clientTimestampNs: 1_700_000_000_000_000_000n,
    actions: [createInbox(wallet), addMember(wallet, installationKeySigner(new Uint8Array(32).fill(1)))],
  })
  const block = await headNumber(fx)
  const u2 = await signUpdate({
    inboxId: u1.update.inboxId,
    clientTimestampNs: 1_700_000_001_000_000_000n,
    actions: [
      addMember(
        walletSigner(fx, w, { blockNumber: block, owner: a }),
        walletSigner(fx, cf, { blockNumber: block, owner: c, wrap: true }),
      ),
    ],
  })
  const u3 = await signUpdate({
    inboxId: u1.update.inboxId,
    clientTimestampNs: 1_700_000_002_000_000_000n,
    actions: [
      addMember(
        walletSigner(fx, cf, { blockNumber: block, owner: c, wrap: true }),
        ethKeySigner(new Uint8Array(32).fill(2)),
      ),
    ],
  })
  file = join(dir, 'smart-wallets.json')
  writeFileSync(file, bundleOf(u1, u2, u3))
})
afterAll(() => {
  if (dir) rmSync(dir, { recursive: true, force: true })
})

interface Report {
  ok: boolean
  updates: { sequence_id: string; status: string; rule: string | null; message: string }[]
  state: {
    members: { kind: string; identifier: string; chain_id: string | null }[]
    recovery: { identifier: string; chain_id: string | null }
  } | null
}

async function replayCli(...args: string[]): Promise<Report> {
  const r = await runCli(['replay', '--json', ...args, file], { timeoutMs: 60_000 })
  expect(r.code, r.stderr).toBe(0)
  const lines = r.stdout.toString('utf8').trim().split('\n')
  expect(lines).toHaveLength(1)
  return JSON.parse(lines[0]!) as Report
}

describe('replay --chain on the command line (IDENT-060, IDENT-061)', () => {
  // Each run of the entry point costs a few seconds of tsx start-up: two runs here; the
  // other unreachable cases are in unreachable.test.ts, in process.
  it('IDENT-060 and IDENT-061: with --chain every smart wallet update applies; without it the first is pending and the rest not applied', async () => {
    const [withChain, without] = await Promise.all([replayCli('--chain', `eip155:31337=${node.url}`), replayCli()])

    expect(withChain.ok).toBe(true)
    expect(withChain.updates.map((u) => [u.sequence_id, u.status, u.rule])).toEqual([
      ['1', 'applied', null],
      ['2', 'applied', null],
      ['3', 'applied', null],
    ])
    const members = Object.fromEntries(withChain.state!.members.map((m) => [m.identifier, m.chain_id]))
    expect(members[walletAddr]).toBe('31337')
    expect(members[counterfactualAddr]).toBe('31337')
    expect(withChain.state!.members).toHaveLength(4)
    expect(withChain.state!.recovery).toMatchObject({ identifier: walletAddr, chain_id: '31337' })

    expect(without.ok).toBe(false)
    expect(without.updates.map((u) => [u.status, u.rule])).toEqual([
      ['pending', 'IDENT-061'],
      ['not_applied', null],
      ['not_applied', null],
    ])
    expect(without.state).toBeNull()
    expect(without.updates[0]!.message).toMatch(/no route for chain eip155:31337/)
  })
})
