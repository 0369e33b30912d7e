/**
 * useSignerRegistry: every signer available in this browser as AppSigners (the contract
 * in src/app/model/app-signer.ts), plus what the signers panel needs to manage them.
 *
 *   wallets         wagmi connections (EIP-6963 connectors), personal_sign via walletSigner
 *   passkeys        created here with @simplewebauthn/browser, rpId = location.hostname
 *   local keys      Ethereum (secp256k1) and installation (Ed25519) keys in IndexedDB
 *   smart wallets   ERC-1271/6492 wallets on a chain route (the app's chain routes),
 *                   signed for by a local key or a wallet account (./smart-wallets.ts)
 *
 * Called once, by SignerRegistryProvider (the providers layer, src/app/providers.tsx):
 * the vault behind it is one per page, so a second call sees the same keys, but only one
 * place should own the panel's state. Needs WagmiProvider and a QueryClientProvider above it.
 */
import { browserSupportsWebAuthn, startAuthentication, startRegistration } from '@simplewebauthn/browser'
import { useCallback, useMemo, useRef, useSyncExternalStore } from 'react'
import { useConnect, useConnections, useConnectors, useDisconnect } from 'wagmi'
import type { AppSigner, SignerRegistry } from '../../model/app-signer'
import type { ExportedKey } from '../../../signing/local-keys'
import type { SmartWalletVerifier } from '../../../core/verify/port'
import type { VerifyContext } from '../../../core/verify/signature'
import { ChainClients, classifyChainError } from '../../../chain/client'
import { ChainUnreachableError } from '../../../core/errors'
import { ownedWalletPlan } from '../../../chain/owned-wallet'
import type { ChainRoute } from '../../../chain/routes'
import type { SmartWalletSigning } from '../../../chain/smart-wallet-signer'
import { ChainVerifier } from '../../../chain/verifier'
import { orderSigners, walletAppSigners } from './app-signers'
import { addDemoSmartWallets, type DemoSmartWallets, parseDemoSmartWallets } from './demo-smart-wallets'
import { parseSmartWalletForm, type SmartWalletForm } from './smart-wallet-form'
import { ownerAddress, type SmartWalletRecord, smartWalletId } from './smart-wallet-record'
import { SmartWalletSetupError, smartWalletAppSigner } from './smart-wallets'
import { openSignerStorage } from './storage'
import { SignerVault, type VaultSnapshot, type WebAuthnEnv } from './vault'

/** A wallet found by EIP-6963, connected or not. */
export interface WalletEntry {
  /** wagmi's connector uid (unique per page). */
  readonly uid: string
  /** The wallet's rdns (EIP-6963), e.g. `io.metamask`. */
  readonly id: string
  readonly name: string
  readonly icon: string | undefined
  /** Accounts connected through this wallet (as the wallet gave them). */
  readonly accounts: readonly string[]
}

interface WalletsView {
  readonly wallets: readonly WalletEntry[]
  /** The uid of the wallet being connected, if any. */
  readonly connecting: string | null
  /** What went wrong at the last connect or disconnect. */
  readonly error: string | null
  connect(uid: string): void
  disconnect(uid: string): void
}

/** A chain route as the settings feature keeps it (structurally: its RouteSetting fits). */
interface ChainRouteLike {
  readonly chainId: string
  readonly url: string
}

/** A kept smart wallet with what the panel shows about it now. */
export interface SmartWalletEntry {
  readonly record: SmartWalletRecord
  readonly signer: AppSigner
  /** The route of its chain now, or null (it cannot sign, IDENT-061). */
  readonly routeUrl: string | null
  /** The owner's AppSigner now, or null (disconnected wallet, deleted key). */
  readonly owner: AppSigner | null
  readonly lastSigning: SmartWalletSigning | null
}

interface SmartWalletsView {
  readonly entries: readonly SmartWalletEntry[]
  /** The configured chain routes (the settings' routes, from the providers layer). */
  readonly routes: readonly ChainRouteLike[]
  /** Who can own a smart wallet here: local Ethereum keys and connected wallet accounts (erc_191). */
  readonly owners: readonly AppSigner[]
  /** The demo wallets `npm start` deployed (VITE_DEMO_SMART_WALLETS), or null. */
  readonly demo: DemoSmartWallets | null
  /** Why VITE_DEMO_SMART_WALLETS was ignored, if it was. */
  readonly demoProblem: string | null
  /** Checks the form, computes a counterfactual address on the chain, keeps the record. */
  add(form: SmartWalletForm): Promise<SmartWalletRecord>
  remove(id: string): Promise<void>
  /** Imports the demo owner keys (public demo keys) and keeps the demo wallets; resolves what was added. */
  addDemo(): Promise<string>
  /** A verifier over the routes, for checking a smart wallet's signature as a validator would. */
  readonly verifyContext: VerifyContext
}

/** The registry with the management the signers panel needs. */
export interface SignerManager extends SignerRegistry {
  readonly vault: VaultSnapshot
  readonly wallets: WalletsView
  /** False when this browser has no WebAuthn. */
  readonly webauthnSupported: boolean
  /** location.hostname, the passkeys' relying party id. */
  readonly rpId: string
  importEthereumKey(input: string | Uint8Array, label?: string): Promise<AppSigner>
  exportEthereumKey(appId: string, format: 'hex'): ExportedKey<'hex'>
  exportEthereumKey(appId: string, format: 'bytes'): ExportedKey<'bytes'>
  deleteKey(appId: string): Promise<void>
  forgetPasskey(id: string): Promise<void>
  readonly smartWallets: SmartWalletsView
}

export interface SignerRegistryOptions {
  /** The chain routes of the settings (eip155 chain id → RPC URL); smart wallets sign through them. */
  readonly chainRoutes?: readonly ChainRouteLike[]
  /** The app's verifier over those routes (the providers layer's); without it the registry builds its own. */
  readonly verifier?: SmartWalletVerifier
}

/** chain id → URL for the well-formed routes (the settings validate them; anything else is left out). */
function routesTable(routes: readonly ChainRouteLike[]): Map<bigint, string> {
  const m = new Map<bigint, string>()
  for (const r of routes)
    if (/^(0|[1-9][0-9]*)$/.test(r.chainId) && r.url && !m.has(BigInt(r.chainId))) m.set(BigInt(r.chainId), r.url)
  return m
}

const DEMO_ENV = import.meta.env.VITE_DEMO_SMART_WALLETS as string | undefined
function readDemo(): { demo: DemoSmartWallets | null; problem: string | null } {
  try {
    return { demo: parseDemoSmartWallets(DEMO_ENV), problem: null }
  } catch (e) {
    return { demo: null, problem: e instanceof Error ? e.message : String(e) }
  }
}
const DEMO = readDemo()

/** The counterfactual address from the factory on the chain, with the reason when it cannot be read. */
async function planOnChain(route: ChainRoute, factory: `0x${string}`, owner: `0x${string}`, salt: `0x${string}`) {
  let client
  try {
    client = await new ChainClients(new Map([[route.chainId, route.url]])).ready(route.chainId)
  } catch (e) {
    const why = e instanceof ChainUnreachableError ? e.reason : e instanceof Error ? e.message : String(e)
    throw new SmartWalletSetupError(
      'unreachable',
      `IDENT-061: chain eip155:${route.chainId} cannot be reached at ${route.url}, so the counterfactual address cannot be computed: ${why}`,
      { cause: e },
    )
  }
  try {
    return await ownedWalletPlan(client, factory, owner, salt)
  } catch (e) {
    const c = classifyChainError(e)
    if (c.kind === 'transport')
      throw new SmartWalletSetupError(
        'unreachable',
        `IDENT-061: chain eip155:${route.chainId} at ${route.url} stopped answering: ${c.reason}`,
        { cause: e },
      )
    throw new SmartWalletSetupError(
      'bad_factory',
      `factory ${factory} on eip155:${route.chainId} did not answer addressOf(owner, salt) (${c.kind}: ${c.reason}): is it a WalletFactory deployed on this chain?`,
      { cause: e },
    )
  }
}

function browserWebAuthn(): WebAuthnEnv {
  return {
    startRegistration,
    startAuthentication,
    supported: browserSupportsWebAuthn(),
    rpId: location.hostname,
    origin: location.origin,
  }
}

let appVault: SignerVault | null = null

/** The page's one vault (StrictMode mounts twice; the storage opens once). */
function getAppVault(): SignerVault {
  appVault ??= new SignerVault(openSignerStorage(), browserWebAuthn())
  return appVault
}

const messageOf = (e: unknown): string => {
  if (e && typeof e === 'object' && 'shortMessage' in e && typeof e.shortMessage === 'string') return e.shortMessage
  return e instanceof Error ? e.message : String(e)
}

export function useSignerRegistry(options: SignerRegistryOptions = {}): SignerManager {
  const vault = getAppVault()
  const snapshot = useSyncExternalStore(vault.subscribe, vault.getSnapshot, vault.getSnapshot)

  const connectors = useConnectors()
  const connections = useConnections()
  const connect = useConnect()
  const disconnect = useDisconnect()
  const cache = useRef(new Map<string, AppSigner>())
  const walletSigners = useMemo(() => walletAppSigners(connections, cache.current), [connections])

  const connectMutate = connect.mutate
  const disconnectMutate = disconnect.mutate
  const doConnect = useCallback(
    (uid: string) => {
      const connector = connectors.find((c) => c.uid === uid)
      if (connector) connectMutate({ connector })
    },
    [connectors, connectMutate],
  )
  const doDisconnect = useCallback(
    (uid: string) => {
      const connector = connectors.find((c) => c.uid === uid)
      if (connector) disconnectMutate({ connector })
    },
    [connectors, disconnectMutate],
  )
  const connectingUid = connect.isPending
    ? ((connect.variables?.connector as { uid?: string } | undefined)?.uid ?? null)
    : null
  const walletError = connect.error
    ? `Could not connect: ${messageOf(connect.error)}`
    : disconnect.error
      ? `Could not disconnect: ${messageOf(disconnect.error)}`
      : null

  const wallets = useMemo<WalletsView>(() => {
    const list = connectors.map((c) => ({
      uid: c.uid,
      id: c.id,
      name: c.name,
      icon: c.icon,
      accounts: connections.filter((x) => x.connector.uid === c.uid).flatMap((x) => x.accounts),
    }))
    return {
      wallets: list,
      connecting: connectingUid,
      error: walletError,
      connect: doConnect,
      disconnect: doDisconnect,
    }
  }, [connectors, connections, connectingUid, walletError, doConnect, doDisconnect])

  const chainRoutes = options.chainRoutes
  const routeKey = (chainRoutes ?? []).map((r) => `${r.chainId}=${r.url}`).join(' ')
  // Keyed by the routes' text, not the array's identity (the settings hand a new array on each save).
  // biome-ignore lint/correctness/useExhaustiveDependencies: routeKey is chainRoutes' content
  const routes = useMemo(() => routesTable(chainRoutes ?? []), [routeKey])
  const routeList = useMemo(() => [...routes].map(([chainId, url]) => ({ chainId: chainId.toString(), url })), [routes])
  const owners = useMemo(
    () => orderSigners([walletSigners, snapshot.signers.filter((x) => x.source === 'local-ethereum')]),
    [walletSigners, snapshot.signers],
  )
  const swCache = useRef(new Map<string, { owner: AppSigner | null; signer: AppSigner }>())
  const swEntries = useMemo<SmartWalletEntry[]>(
    () =>
      snapshot.smartWallets.map((record) => {
        const url = routes.get(BigInt(record.chainId)) ?? null
        // The owner by its id; else the same address from the other erc_191 source (a key imported after the wallet was connected).
        const owner =
          owners.find((o) => o.id === record.owner) ??
          owners.find((o) => o.identifier.text === ownerAddress(record.owner)) ??
          null
        const key = `${record.id}|${url ?? ''}|${owner?.id ?? ''}`
        let hit = swCache.current.get(key)
        if (!hit || hit.owner !== owner) {
          const signer = smartWalletAppSigner(record, {
            route: url === null ? null : { chainId: BigInt(record.chainId), url },
            owner,
            onSigned: vault.noteSmartWalletSigning,
          })
          hit = { owner, signer }
          swCache.current.set(key, hit)
        }
        return {
          record,
          signer: hit.signer,
          routeUrl: url,
          owner,
          lastSigning: snapshot.smartWalletSignings[record.id] ?? null,
        }
      }),
    [snapshot.smartWallets, snapshot.smartWalletSignings, routes, owners, vault],
  )
  const shared = options.verifier
  const verifyContext = useMemo<VerifyContext>(
    () => ({ smartWallets: shared ?? new ChainVerifier(routes, { cache: false }) }),
    [routes, shared],
  )

  const smartWallets = useMemo<SmartWalletsView>(() => {
    const add = async (form: SmartWalletForm): Promise<SmartWalletRecord> => {
      const p = parseSmartWalletForm(form, { routes, owners, kept: snapshot.smartWallets })
      if (!p.ok) throw new SmartWalletSetupError('bad_form', p.problems.join('; '))
      const base = { chainId: p.chainId, owner: p.owner, label: p.label, createdAt: Date.now() }
      if (p.wallet.mode === 'deployed')
        return vault.addSmartWallet({
          ...base,
          id: smartWalletId(p.chainId, p.wallet.address),
          address: p.wallet.address,
          deployment: null,
        })
      const plan = await planOnChain(p.route, p.wallet.factory, ownerAddress(p.owner) as `0x${string}`, p.wallet.salt)
      return vault.addSmartWallet({
        ...base,
        id: smartWalletId(p.chainId, plan.address),
        address: plan.address,
        deployment: { factory: plan.factory, factoryData: plan.factoryData, salt: plan.salt },
      })
    }
    const addDemo = async (): Promise<string> => {
      if (!DEMO.demo)
        throw new SmartWalletSetupError(
          'demo',
          DEMO.problem ?? 'no demo smart wallets: start the app with npm start (it deploys them on its local chain)',
        )
      return addDemoSmartWallets(DEMO.demo, vault)
    }
    return {
      entries: swEntries,
      routes: routeList,
      owners,
      demo: DEMO.demo,
      demoProblem: DEMO.problem,
      add,
      remove: (id) => vault.removeSmartWallet(id),
      addDemo,
      verifyContext,
    }
  }, [swEntries, routeList, owners, routes, snapshot.smartWallets, vault, verifyContext])

  return useMemo<SignerManager>(() => {
    const env = { supported: browserSupportsWebAuthn(), rpId: location.hostname }
    return {
      signers: orderSigners([walletSigners, snapshot.signers, smartWallets.entries.map((e) => e.signer)]),
      ready: snapshot.ready,
      storageNotice: snapshot.notice,
      vault: snapshot,
      wallets,
      webauthnSupported: env.supported,
      rpId: env.rpId,
      newInstallationKey: (label) => vault.newInstallationKey(label),
      newEthereumKey: (label) => vault.newEthereumKey(label),
      newPasskey: (label) => vault.newPasskey(label),
      importEthereumKey: (input, label) => vault.importEthereumKey(input, label),
      exportEthereumKey: ((appId: string, format: 'hex' | 'bytes') =>
        format === 'hex'
          ? vault.exportEthereumKey(appId, 'hex')
          : vault.exportEthereumKey(appId, 'bytes')) as SignerManager['exportEthereumKey'],
      deleteKey: (appId) => vault.deleteKey(appId),
      forgetPasskey: (id) => vault.forgetPasskey(id),
      smartWallets,
    }
  }, [walletSigners, snapshot, wallets, vault, smartWallets])
}
