/**
 * A CDP virtual WebAuthn authenticator for e2e tests (browser.md §5): CTAP2, internal
 * transport, resident keys, user verification that always succeeds, and presence
 * simulated, so `navigator.credentials.create/get` answer with no prompt.
 *
 * It belongs to one page (CDP target): it and its credentials survive navigation and
 * reload of that page, but a second page has none. Pages must be opened as
 * http://localhost:PORT: WebAuthn refuses IP origins.
 */
import type { CDPSession, Page } from '@playwright/test'

interface VirtualCredential {
  credentialId: string
  isResidentCredential: boolean
  rpId?: string
  privateKey: string
  userHandle?: string
  signCount: number
}

export interface VirtualAuthenticator {
  readonly authenticatorId: string
  readonly cdp: CDPSession
  /** WebAuthn.getCredentials: what the authenticator holds now. */
  credentials(): Promise<VirtualCredential[]>
  /** Removes the authenticator (and its credentials) and detaches the CDP session. */
  remove(): Promise<void>
}

export async function addVirtualAuthenticator(page: Page): Promise<VirtualAuthenticator> {
  const cdp = await page.context().newCDPSession(page)
  await cdp.send('WebAuthn.enable', { enableUI: false })
  const { authenticatorId } = await cdp.send('WebAuthn.addVirtualAuthenticator', {
    options: {
      protocol: 'ctap2',
      transport: 'internal',
      hasResidentKey: true,
      hasUserVerification: true,
      isUserVerified: true,
      automaticPresenceSimulation: true,
    },
  })
  return {
    authenticatorId,
    cdp,
    async credentials() {
      const { credentials } = await cdp.send('WebAuthn.getCredentials', { authenticatorId })
      return credentials as VirtualCredential[]
    },
    async remove() {
      await cdp.send('WebAuthn.removeVirtualAuthenticator', { authenticatorId })
      await cdp.detach()
    },
  }
}
