/**
 * Interoperability with the real XMTP client library (@xmtp/node-sdk 6.0.0, libxmtp 1.10,
 * a pinned dev dependency) through the local node: the library registers wallet A, adds
 * wallet B, registers a second installation, revokes the first installation and wallet B,
 * all over gRPC against the real node process. Then this project's own `fetch` and `replay`
 * (the real CLI, through test/support/cli.ts) read that inbox from the node, over the
 * identity API and the d14n API, and must agree with libxmtp's own inbox state: the log is
 * valid, with the same recovery identifier, identifiers and installations. The node's
 * traffic log must show the client's calls, key package uploads included.
 *
 * When the library cannot run here (another platform, no C compiler for the glibc shim),
 * the test is skipped with the reason, never passed (./support/native.ts).
 */
import { spawn } from 'node:child_process'
import { writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { runCli, nodeArgs } from '../support/cli'
import { ROOT, type RunningNode, startNode, stopAll, tempDir } from '../devnode/harness'
import { prepareNativeClient } from './support/native'

const tmp = tempDir('xmtp-interop-')
const native = prepareNativeClient(join(ROOT, 'node_modules', '.cache', 'inbox-inspector-xmtp'))
const skipReason = 'skip' in native ? native.skip : null

interface PeerState {
  readonly inboxId: string
  readonly recovery: string
  readonly identifiers: string[]
  readonly installations: string[]
  readonly revoked: string
  readonly walletA: string
  readonly walletB: string
}

let node: RunningNode
let steps: Record<string, unknown>[] = []
let state: PeerState

/** Runs the peer script with the native set-up's environment; its JSON lines, or why it failed. */
function runPeer(url: string, env: Record<string, string>): Promise<Record<string, unknown>[]> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['--import', 'tsx', 'test/interop/support/xmtp-peer.ts', url, tmp.dir], {
      cwd: ROOT,
      env: { ...process.env, ...env, NODE_NO_WARNINGS: '1' },
      stdio: ['ignore', 'pipe', 'pipe'],
      timeout: 170_000,
    })
    let out = ''
    let err = ''
    child.stdout.setEncoding('utf8').on('data', (d: string) => (out += d))
    child.stderr.setEncoding('utf8').on('data', (d: string) => (err += d))
    child.on('error', reject)
    child.on('close', (code, signal) => {
      const lines = out
        .split('\n')
        .filter((l) => l.startsWith('{'))
        .map((l) => JSON.parse(l) as Record<string, unknown>)
      if (code === 0) resolve(lines)
      else
        reject(
          new Error(
            `the XMTP client exited ${code ?? signal}: ${JSON.stringify(lines.at(-1) ?? null)}\nstderr: ${err.slice(-2000)}`,
          ),
        )
    })
  })
}

describe.skipIf(skipReason !== null)(
  `the real XMTP client library through the local node${skipReason ? ` (skipped: ${skipReason})` : ''}`,
  () => {
    beforeAll(async () => {
      node = await startNode({ db: tmp.path('node.db') })
      steps = await runPeer(node.url, 'env' in native ? native.env : {})
      state = steps.at(-1)!.state as PeerState
    }, 180_000)

    afterAll(async () => {
      await stopAll()
      tmp.remove()
    })

    it('registers, adds a wallet and an installation, revokes both through the node (libxmtp state as expected)', () => {
      expect(steps.map((s) => s.step ?? 'state')).toEqual([
        'register wallet A (installation 1)',
        'add wallet B',
        'register installation 2',
        'revoke installation 1',
        'remove wallet B',
        'state',
      ])
      expect(state.recovery).toBe(state.walletA)
      expect(state.identifiers).toEqual([state.walletA])
      expect(state.installations).toHaveLength(1)
      expect(state.installations).not.toContain(state.revoked)
    })

    describe.each([
      ['identity', 'grpc'],
      ['d14n', 'connect'],
    ] as const)('fetch --api %s --transport %s, then replay', (api, transport) => {
      it("agrees with libxmtp's own inbox state", async () => {
        const fetched = await runCli(['fetch', ...nodeArgs(node.url, api, transport), '--address', state.walletA])
        expect(fetched.stderr).toBe('')
        expect(fetched.code).toBe(0)
        const bundle = JSON.parse(fetched.stdout.toString('utf8')) as { inbox_id: string; updates: unknown[] }
        expect(bundle.inbox_id).toBe(state.inboxId)
        expect(bundle.updates).toHaveLength(5)
        const file = tmp.path(`${api}.json`)
        writeFileSync(file, fetched.stdout)
        const replayed = await runCli(['replay', '--json', file])
        expect(replayed.code).toBe(0)
        const report = JSON.parse(replayed.stdout.toString('utf8')) as {
          ok: boolean
          inbox_id: string
          state: {
            members: { kind: string; identifier: string }[]
            recovery: { identifier: string }
          }
        }
        expect(report.ok).toBe(true)
        expect(report.inbox_id).toBe(state.inboxId)
        expect(report.state.recovery.identifier).toBe(state.recovery)
        const ids = (kind: string) =>
          report.state.members
            .filter((m) => m.kind === kind)
            .map((m) => m.identifier)
            .sort()
        expect(ids('ethereum')).toEqual(state.identifiers)
        expect(ids('installation')).toEqual(state.installations)
      })
    })

    it('the traffic log shows the calls: two key package uploads, five stored publishes with their bytes', async () => {
      const page = (await (await fetch(`${node.url}/inspector/v1/traffic?after=0`)).json()) as {
        calls: { method: string; transport: string; outcome: string; update: { sequence_id: string | null } | null }[]
      }
      const uploads = page.calls.filter((c) => c.method === 'xmtp.mls.api.v1.MlsApi/UploadKeyPackage')
      expect(uploads.map((c) => [c.transport, c.outcome])).toEqual([
        ['grpc', 'ok'],
        ['grpc', 'ok'],
      ])
      const publishes = page.calls.filter((c) => c.method === 'xmtp.identity.api.v1.IdentityApi/PublishIdentityUpdate')
      expect(publishes.map((c) => c.update?.sequence_id)).toEqual(['1', '2', '3', '4', '5'])
      expect(page.calls.filter((c) => c.outcome !== 'ok')).toEqual([])
    })

    it('serves the installations key packages back, but no longer the revoked one', async () => {
      const { createClient } = await import('@connectrpc/connect')
      const { MlsApi } = await import('../../src/gen/mls/api/v1/mls_pb')
      const { nodeTransportFor } = await import('../../src/network/transports-node')
      const { hexToBytes } = await import('../../src/crypto/bytes')
      const mls = createClient(MlsApi, nodeTransportFor('grpc', node.url))
      const r = await mls.fetchKeyPackages({
        installationKeys: [hexToBytes(state.installations[0]!), hexToBytes(state.revoked)],
      })
      expect(r.keyPackages).toHaveLength(2)
      expect(r.keyPackages[0]!.keyPackageTlsSerialized.length).toBeGreaterThan(100)
      expect(r.keyPackages[1]!.keyPackageTlsSerialized.length).toBe(0)
    })
  },
)
