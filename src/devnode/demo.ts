/**
 * The demo inboxes `--seed demo` stores in an empty node: deterministic keys (SHA-256 of
 * a public label; demo keys, worthless by design), fixed timestamps, so every seeded node
 * holds the same updates under the same sequence ids.
 *
 *   alice        wallet + installation; claims "ally", adds a passkey, claims "alice"
 *                (display handle alice, older handle ally)
 *   bob          wallet + installation; claims "bob"; adds a second installation and
 *                revokes it (IDENT-044)
 *   alice-work   a second inbox created by alice's wallet (nonce 1): her wallet is live
 *                in two inboxes, and resolution picks this one, the newer association
 *   carol        created by a passkey; claims "carol#2341"
 *
 * And, when a chain is at hand (`npm start` runs anvil: scripts/lib/demo-chain.ts), the
 * smart-wallet inbox (demoSmartWalletUpdates), whose signatures are erc_6492:
 *
 *   smart-wallet created by a deployed OwnedWallet (an ERC-1271 signature, no wrapper),
 *                which adds an installation; then adds a second, counterfactual wallet
 *                (never deployed: its signature is ERC-6492 wrapped with the factory's
 *                deploy calldata)
 *
 * The wallets' owners are demo keys too (SHA-256 of a public label): anyone can sign for
 * these wallets, which is the point of a demo and the reason never to fund them.
 */
import { sha256, utf8 } from '../crypto'
import {
  addMember,
  claimHandle,
  createInbox,
  ethKeySigner,
  inboxIdOf,
  installationKeySigner,
  passkeySigner,
  revokeMember,
  signUpdate,
  type SignedUpdate,
  type Signer,
} from '../signing'

const key = (label: string): Uint8Array => sha256(utf8(`inbox-inspector demo key: ${label}`))

/** 2024-06-01T00:00:00Z, the demo's first client timestamp. */
const T0 = 1_717_200_000_000_000_000n
const MINUTE = 60_000_000_000n

/** 2024-06-01T02:00:00Z: the smart-wallet inbox's first client timestamp (after the other demos). */
const T_SMART = T0 + 120n * MINUTE

export interface DemoInbox {
  readonly name: string
  readonly inboxId: string
  /** The identifier that created it (Ethereum address or passkey key hex). */
  readonly creator: string
  readonly handles: readonly string[]
}

/** The demo's signers, for the app's playground and tests (demo keys only). */
export function demoSigners() {
  return {
    aliceWallet: ethKeySigner(key('alice wallet')),
    aliceInstallation: installationKeySigner(key('alice installation')),
    alicePasskey: passkeySigner(key('alice passkey'), { origin: 'http://localhost:5173' }),
    bobWallet: ethKeySigner(key('bob wallet')),
    bobInstallation: installationKeySigner(key('bob installation')),
    bobOldInstallation: installationKeySigner(key('bob old installation')),
    carolPasskey: passkeySigner(key('carol passkey'), { origin: 'http://localhost:5173' }),
    carolInstallation: installationKeySigner(key('carol installation')),
  }
}

export function demoInboxes(): DemoInbox[] {
  const s = demoSigners()
  const id = (signer: Signer, nonce = 0n) => inboxIdOf(signer, nonce)
  return [
    { name: 'alice', inboxId: id(s.aliceWallet), creator: s.aliceWallet.identifier.text, handles: ['ally', 'alice'] },
    { name: 'bob', inboxId: id(s.bobWallet), creator: s.bobWallet.identifier.text, handles: ['bob'] },
    {
      name: 'alice-work',
      inboxId: id(s.aliceWallet, 1n),
      creator: s.aliceWallet.identifier.text,
      handles: ['alice-work'],
    },
    { name: 'carol', inboxId: id(s.carolPasskey), creator: s.carolPasskey.identifier.text, handles: ['carol#2341'] },
  ]
}

/** The demo's updates in publish order (the order fixes their sequence ids). */
export async function demoUpdates(): Promise<Uint8Array[]> {
  const s = demoSigners()
  const alice = inboxIdOf(s.aliceWallet)
  const bob = inboxIdOf(s.bobWallet)
  const work = inboxIdOf(s.aliceWallet, 1n)
  const carol = inboxIdOf(s.carolPasskey)
  let t = T0
  const at = () => (t += MINUTE)
  const updates = [
    await signUpdate({
      clientTimestampNs: at(),
      actions: [createInbox(s.aliceWallet), addMember(s.aliceWallet, s.aliceInstallation)],
    }),
    await signUpdate({
      clientTimestampNs: at(),
      actions: [createInbox(s.bobWallet), addMember(s.bobWallet, s.bobInstallation)],
    }),
    await signUpdate({ inboxId: alice, clientTimestampNs: at(), actions: [claimHandle('ally', s.aliceInstallation)] }),
    await signUpdate({ inboxId: bob, clientTimestampNs: at(), actions: [claimHandle('bob', s.bobInstallation)] }),
    await signUpdate({ inboxId: alice, clientTimestampNs: at(), actions: [addMember(s.aliceWallet, s.alicePasskey)] }),
    await signUpdate({ inboxId: alice, clientTimestampNs: at(), actions: [claimHandle('alice', s.aliceWallet)] }),
    await signUpdate({
      inboxId: bob,
      clientTimestampNs: at(),
      actions: [addMember(s.bobWallet, s.bobOldInstallation)],
    }),
    await signUpdate({
      inboxId: bob,
      clientTimestampNs: at(),
      actions: [revokeMember(s.bobOldInstallation, s.bobWallet)],
    }),
    await signUpdate({ clientTimestampNs: at(), actions: [createInbox(s.aliceWallet, { nonce: 1n })] }),
    await signUpdate({ inboxId: work, clientTimestampNs: at(), actions: [claimHandle('alice-work', s.aliceWallet)] }),
    await signUpdate({
      clientTimestampNs: at(),
      actions: [createInbox(s.carolPasskey), addMember(s.carolPasskey, s.carolInstallation)],
    }),
    await signUpdate({
      inboxId: carol,
      clientTimestampNs: at(),
      actions: [claimHandle('carol#2341', s.carolInstallation)],
    }),
  ]
  return updates.map((u) => u.bytes)
}

/**
 * The demo smart wallets' owner keys: demo keys, SHA-256 of a public label, so anyone can
 * derive them (the playground imports them to sign for the demo wallets); never fund
 * these wallets.
 */
export function demoWalletOwnerKeys(): { readonly deployed: Uint8Array; readonly counterfactual: Uint8Array } {
  return { deployed: key('smart wallet owner'), counterfactual: key('counterfactual wallet owner') }
}

/** The demo smart wallets' owners as signers (demo keys; see demoWalletOwnerKeys). */
export function demoWalletOwners() {
  const k = demoWalletOwnerKeys()
  return { deployed: ethKeySigner(k.deployed), counterfactual: ethKeySigner(k.counterfactual) }
}

/** CREATE2 salts of the demo wallets under the demo factory. */
export const DEMO_WALLET_SALTS = { deployed: 1n, counterfactual: 2n } as const

/** The installation the smart-wallet inbox adds. */
const demoSmartWalletInstallation = (): Signer => installationKeySigner(key('smart wallet installation'))

/**
 * The smart-wallet demo inbox, in publish order: (1) CreateInbox by the deployed wallet
 * and AddAssociation of an installation, (2) AddAssociation of the counterfactual wallet,
 * signed by the deployed wallet (existing member) and the counterfactual one (new
 * member). The wallet signers are erc_6492 signers on a chain (src/chain/
 * smart-wallet-signer.ts): they pick the block and the wrapper.
 */
export async function demoSmartWalletUpdates(wallets: {
  readonly deployed: Signer
  readonly counterfactual: Signer
}): Promise<SignedUpdate[]> {
  const installation = demoSmartWalletInstallation()
  const inboxId = inboxIdOf(wallets.deployed)
  return [
    await signUpdate({
      clientTimestampNs: T_SMART,
      actions: [createInbox(wallets.deployed), addMember(wallets.deployed, installation)],
    }),
    await signUpdate({
      inboxId,
      clientTimestampNs: T_SMART + MINUTE,
      actions: [addMember(wallets.deployed, wallets.counterfactual)],
    }),
  ]
}
