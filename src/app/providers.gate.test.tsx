// @vitest-environment happy-dom
/**
 * The lazy layers' gates (./providers.tsx) when a chunk fails to load (the network dropped,
 * a chunk of an older deploy gone): the gate shows what failed to load and a Try again in
 * place of its view, no rejection goes unhandled, and Try again loads the chunk again.
 * The chunks fail through vi.mock: its factory throws while `failing` says so.
 */
import { useQueryClient } from '@tanstack/react-query'
import { cleanup, render, screen } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { afterEach, describe, expect, it, vi } from 'vitest'
import { AppProviders, QueryGate, SigningGate } from './providers'

const failing = vi.hoisted(() => ({ query: 0, signing: 0 }))

vi.mock('./query-client', async (importOriginal) => {
  if (failing.query > 0) {
    failing.query--
    throw new TypeError('Failed to fetch dynamically imported module: /assets/query-client.js')
  }
  return importOriginal()
})
vi.mock('./signing-host', async () => {
  if (failing.signing > 0) {
    failing.signing--
    throw new TypeError('Failed to fetch dynamically imported module: /assets/signing-host.js')
  }
  // The host as a stand-in: the real one mounts wagmi, which needs a browser's wallets.
  const { useEffect } = await import('react')
  return {
    default: ({ onManager }: { onManager: (m: unknown) => void }) => {
      useEffect(() => onManager({ stand: 'in' }), [onManager])
      return null
    },
  }
})

afterEach(cleanup)

function ClientProbe() {
  useQueryClient()
  return <p>the settings</p>
}

/** Unhandled rejections while `run` runs (and a few tasks after it). */
async function unhandledDuring(run: () => Promise<void>): Promise<unknown[]> {
  const seen: unknown[] = []
  const onRejection = (e: unknown) => void seen.push(e)
  process.on('unhandledRejection', onRejection)
  try {
    await run()
    await new Promise((r) => setTimeout(r, 20))
  } finally {
    process.off('unhandledRejection', onRejection)
  }
  return seen
}

describe('QueryGate', () => {
  it('shows what failed to load in place of its view, with a Try again that loads the QueryClient again', async () => {
    const user = userEvent.setup()
    const unhandled = await unhandledDuring(async () => {
      failing.query = 1
      render(
        <AppProviders>
          <p>the rest of the app</p>
          <QueryGate view="Settings">
            <ClientProbe />
          </QueryGate>
        </AppProviders>,
      )
      const alert = await screen.findByRole('alert')
      expect(alert.textContent).toMatch(
        /^Settings could not be loaded\. The query layer \(TanStack Query\) did not load: /,
      )
      expect(screen.queryByText('the settings')).toBeNull()
      expect(screen.getByText('the rest of the app')).toBeTruthy()
      await user.click(screen.getByRole('button', { name: 'Try again' }))
      expect(await screen.findByText('the settings')).toBeTruthy()
      expect(screen.queryByRole('alert')).toBeNull()
    })
    expect(unhandled).toEqual([])
  })
})

describe('SigningGate', () => {
  it("shows the signing chunk's failure in place of its view, and Try again mounts the host", async () => {
    const user = userEvent.setup()
    const unhandled = await unhandledDuring(async () => {
      failing.signing = 1
      render(
        <AppProviders>
          <SigningGate>
            <p>the signers</p>
          </SigningGate>
        </AppProviders>,
      )
      const alert = await screen.findByRole('alert')
      expect(alert.textContent).toMatch(
        /^Wallets and passkeys could not be loaded\. The signing code .* did not load: /,
      )
      await user.click(screen.getByRole('button', { name: 'Try again' }))
      expect(await screen.findByText('the signers')).toBeTruthy()
    })
    expect(unhandled).toEqual([])
  })
})
