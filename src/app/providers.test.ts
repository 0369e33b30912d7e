/**
 * The providers layer (issue #12 "The app's structure"): the chain routes and their one
 * verifier come from ChainRoutesProvider, a component reads them through the model's
 * context hooks, and a component outside the providers is told so instead of getting
 * undefined. Rendered with react-dom/server (the unit tests run in Node, without a DOM).
 */
import { useQueryClient } from '@tanstack/react-query'
import { createElement, type ReactNode } from 'react'
import { renderToString } from 'react-dom/server'
import { afterEach, describe, expect, it, vi } from 'vitest'
import { LazyChainVerifier } from '../chain/lazy-verifier'
import { ChainRoutesProvider } from './features/settings/ChainRoutesProvider'
import { useSignerManager } from './features/signers/registry-context'
import { AppProviders, loadQueryClient, QueryGate, SigningGate } from './providers'
import { SigningProviders } from './signing-host'
import {
  type ChainRoutes,
  MissingProviderError,
  useChainRoutesContext,
  useSignerRegistryContext,
} from './model/app-context'

function Probe({ read }: { read: () => void }) {
  read()
  return null
}

const render = (node: ReactNode) => renderToString(node)

afterEach(() => {
  vi.unstubAllGlobals()
})

describe('useChainRoutesContext', () => {
  it('throws MissingProviderError outside ChainRoutesProvider, naming AppProviders', () => {
    expect(() => render(createElement(Probe, { read: () => useChainRoutesContext() }))).toThrow(MissingProviderError)
    expect(() => render(createElement(Probe, { read: () => useChainRoutesContext() }))).toThrow(/AppProviders/)
  })
})

describe('useSignerRegistryContext and useSignerManager', () => {
  it('throw MissingProviderError outside SignerRegistryProvider', () => {
    expect(() => render(createElement(Probe, { read: () => useSignerRegistryContext() }))).toThrow(
      /the signer registry is read outside its provider/,
    )
    expect(() => render(createElement(Probe, { read: () => useSignerManager() }))).toThrow(
      /the signer manager is read outside its provider/,
    )
  })
})

describe('ChainRoutesProvider', () => {
  it('gives the saved routes, one verifier over them, and a setter that refuses a bad list', () => {
    const saved = JSON.stringify([{ chainId: '31337', url: 'http://127.0.0.1:8545' }])
    const store = new Map([['inbox-inspector.chain-routes', saved]])
    vi.stubGlobal('localStorage', {
      getItem: (k: string) => store.get(k) ?? null,
      setItem: (k: string, v: string) => void store.set(k, v),
      removeItem: (k: string) => void store.delete(k),
    })
    let got: ChainRoutes | null = null
    render(
      createElement(
        ChainRoutesProvider,
        null,
        createElement(Probe, {
          read: () => {
            got = useChainRoutesContext()
          },
        }),
      ),
    )
    const v = got as ChainRoutes | null
    expect(v).not.toBeNull()
    expect(v!.routes).toEqual([{ chainId: '31337', url: 'http://127.0.0.1:8545' }])
    expect(v!.verifier).toBeInstanceOf(LazyChainVerifier)
    // Two routes for one chain: refused with the reason, nothing saved.
    const problems = v!.setRoutes([
      { chainId: '1', url: 'https://a.example' },
      { chainId: '1', url: 'https://b.example' },
    ])
    expect(problems).toEqual([expect.stringMatching(/second route for chain eip155:1/)])
    expect(store.get('inbox-inspector.chain-routes')).toBe(saved)
  })
})

describe('AppProviders', () => {
  it('holds no signer registry until a signing view asks for it: SigningGate shows that it is loading', () => {
    const seen: unknown[] = []
    const html = render(
      createElement(
        AppProviders,
        null,
        createElement(SigningGate, null, createElement(Probe, { read: () => seen.push(useSignerRegistryContext()) })),
      ),
    )
    expect(html).toContain('Loading wallets and passkeys')
    expect(seen).toEqual([])
  })

  it('holds no QueryClient until a view that queries asks for it: QueryGate renders nothing until then', async () => {
    const seen: unknown[] = []
    const probe = createElement(Probe, { read: () => seen.push(useQueryClient()) })
    expect(render(createElement(AppProviders, null, createElement(QueryGate, { view: 'a view' }, probe)))).toBe('')
    expect(seen).toEqual([])
    // Outside a gate, TanStack's hooks find no client.
    expect(() => render(createElement(AppProviders, null, probe))).toThrow(/No QueryClient set/)
    // The one client, from its own chunk.
    const client = await loadQueryClient()
    expect(client).toBe((await import('./query-client')).queryClient)
    expect(await loadQueryClient()).toBe(client)
  })
})

describe('SigningProviders (the lazy signing host)', () => {
  it("gives every signing view one signer registry, judging smart wallets with the chain routes' one verifier", () => {
    vi.stubGlobal('location', { hostname: 'localhost', origin: 'http://localhost' })
    const seen: { manager: unknown; registry: unknown; registryVerifier: unknown; routesVerifier: unknown }[] = []
    const read = () => {
      const manager = useSignerManager()
      seen.push({
        manager,
        registry: useSignerRegistryContext(),
        registryVerifier: manager.smartWallets.verifyContext.smartWallets,
        routesVerifier: useChainRoutesContext().verifier,
      })
    }
    const probes = createElement(SigningProviders, null, createElement(Probe, { read }), createElement(Probe, { read }))
    render(createElement(AppProviders, null, probes))
    expect(seen).toHaveLength(2)
    const [a, b] = seen
    expect(a!.registry).toBe(a!.manager)
    expect(b!.manager).toBe(a!.manager)
    expect(a!.registryVerifier).toBe(a!.routesVerifier)
    expect(a!.routesVerifier).toBeInstanceOf(LazyChainVerifier)
  })
})
