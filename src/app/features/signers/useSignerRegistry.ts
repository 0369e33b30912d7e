/**
 * useSignerRegistry: every signer available in this browser as AppSigners (the contract
 * in src/app/model/app-signer.ts), plus what the signers panel needs to manage them.
 *
 *   wallets         wagmi connections (EIP-6963 connectors), personal_sign via walletSigner
 *   passkeys        created here with @simplewebauthn/browser, rpId = location.hostname
 *   local keys      Ethereum (secp256k1) and installation (Ed25519) keys in IndexedDB
 *
 * Call it once (App.tsx) and hand the result down: the vault behind it is one per page,
 * so a second call sees the same keys, but only one place should own the panel's state.
 * Needs WagmiProvider and a QueryClientProvider above it (src/app/main.tsx).
 */
import { browserSupportsWebAuthn, startAuthentication, startRegistration } from '@simplewebauthn/browser'
import { useCallback, useMemo, useRef, useSyncExternalStore } from 'react'
import { useConnect, useConnections, useConnectors, useDisconnect } from 'wagmi'
import type { AppSigner, SignerRegistry } from '../../model/app-signer'
import type { ExportedKey } from '../../../signing/local-keys'
import { orderSigners, walletAppSigners } from './app-signers'
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

export interface WalletsView {
  readonly wallets: readonly WalletEntry[]
  /** The uid of the wallet being connected, if any. */
  readonly connecting: string | null
  /** What went wrong at the last connect or disconnect. */
  readonly error: string | null
  connect(uid: string): void
  disconnect(uid: string): void
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
export function getAppVault(): SignerVault {
  appVault ??= new SignerVault(openSignerStorage(), browserWebAuthn())
  return appVault
}

const messageOf = (e: unknown): string => {
  if (e && typeof e === 'object' && 'shortMessage' in e && typeof e.shortMessage === 'string') return e.shortMessage
  return e instanceof Error ? e.message : String(e)
}

export function useSignerRegistry(): SignerManager {
  const vault = getAppVault()
  const snapshot = useSyncExternalStore(vault.subscribe, vault.getSnapshot)

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
  const connectingUid = connect.isPending ? (connect.variables?.connector as { uid?: string } | undefined)?.uid ?? null : null
  const walletError = connect.error ? `Could not connect: ${messageOf(connect.error)}` : disconnect.error ? `Could not disconnect: ${messageOf(disconnect.error)}` : null

  const wallets = useMemo<WalletsView>(() => {
    const list = connectors.map((c) => ({
      uid: c.uid,
      id: c.id,
      name: c.name,
      icon: c.icon,
      accounts: connections.filter((x) => x.connector.uid === c.uid).flatMap((x) => x.accounts),
    }))
    return { wallets: list, connecting: connectingUid, error: walletError, connect: doConnect, disconnect: doDisconnect }
  }, [connectors, connections, connectingUid, walletError, doConnect, doDisconnect])

  return useMemo<SignerManager>(() => {
    const env = { supported: browserSupportsWebAuthn(), rpId: location.hostname }
    return {
      signers: orderSigners([walletSigners, snapshot.signers]),
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
        format === 'hex' ? vault.exportEthereumKey(appId, 'hex') : vault.exportEthereumKey(appId, 'bytes')) as SignerManager['exportEthereumKey'],
      deleteKey: (appId) => vault.deleteKey(appId),
      forgetPasskey: (id) => vault.forgetPasskey(id),
    }
  }, [walletSigners, snapshot, wallets, vault])
}
