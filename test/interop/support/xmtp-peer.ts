/**
 * The real XMTP client library driven through a node, in its own process (it needs the
 * environment of ./native.ts from the start):
 *
 *   node --import tsx test/interop/support/xmtp-peer.ts <node-url> <work-dir>
 *
 * Wallet A registers an inbox (installation 1), adds wallet B, registers a second
 * installation, which revokes installation 1 and removes wallet B. Each step prints one
 * JSON line `{"step": …}` on stdout; the last line is `{"state": …}`: libxmtp's own
 * inbox state read back from the node (recovery identifier, identifiers, installations).
 * A failure prints `{"error": …, "step": …}` and exits 1.
 */
import { randomBytes } from 'node:crypto'
import { join } from 'node:path'
import { Client, type Identifier, type Signer } from '@xmtp/node-sdk'
import { hexToBytes } from 'viem'
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts'

/** libxmtp's ETHEREUM (an ambient const enum in the bindings' types). */
const ETHEREUM = 0 as Identifier['identifierKind']

const [url, dir] = process.argv.slice(2)
if (!url || !dir) {
  process.stderr.write('usage: xmtp-peer.ts <node-url> <work-dir>\n')
  process.exit(2)
}

function walletSigner(): { signer: Signer; address: string } {
  const account = privateKeyToAccount(generatePrivateKey())
  const address = account.address.toLowerCase()
  return {
    address,
    signer: {
      type: 'EOA',
      getIdentifier: () => ({ identifier: address, identifierKind: ETHEREUM }),
      signMessage: async (message: string) => hexToBytes(await account.signMessage({ message })),
    },
  }
}

const emit = (o: unknown) =>
  process.stdout.write(`${JSON.stringify(o, (_k, v) => (typeof v === 'bigint' ? v.toString() : v))}\n`)

let step = 'start'
async function run(): Promise<void> {
  const a = walletSigner()
  const b = walletSigner()
  const options = (name: string) => ({
    env: 'local' as const,
    apiUrl: url,
    disableDeviceSync: true,
    dbPath: join(dir!, `${name}.db3`),
    dbEncryptionKey: new Uint8Array(randomBytes(32)),
    loggingLevel: undefined,
  })

  step = 'register wallet A (installation 1)'
  const one = await Client.create(a.signer, options('one'))
  emit({ step, inboxId: one.inboxId, installation: one.installationId, address: a.address })

  step = 'add wallet B'
  await one.unsafe_addAccount(b.signer, true)
  emit({ step, address: b.address })

  step = 'register installation 2'
  const two = await Client.create(a.signer, options('two'))
  if (two.inboxId !== one.inboxId) throw new Error(`installation 2 joined inbox ${two.inboxId}, not ${one.inboxId}`)
  emit({ step, installation: two.installationId })

  step = 'revoke installation 1'
  await two.revokeInstallations([one.installationIdBytes])
  emit({ step, installation: one.installationId })

  step = 'remove wallet B'
  await two.removeAccount({ identifier: b.address, identifierKind: ETHEREUM })
  emit({ step, address: b.address })

  step = 'read the inbox state'
  const state = await two.preferences.fetchInboxState()
  emit({
    state: {
      inboxId: state.inboxId,
      recovery: state.recoveryIdentifier.identifier.toLowerCase(),
      identifiers: state.identifiers.map((i) => i.identifier.toLowerCase()).sort(),
      installations: state.installations.map((i) => i.id.toLowerCase()).sort(),
      revoked: one.installationId.toLowerCase(),
      walletA: a.address,
      walletB: b.address,
    },
  })
}

run().then(
  () => process.exit(0),
  (e: unknown) => {
    emit({ error: e instanceof Error ? `${e.name}: ${e.message}` : String(e), step })
    process.exit(1)
  },
)
