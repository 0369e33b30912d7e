/**
 * The reference backend (./noble-backend, @noble/curves), loaded by dynamic import: for a
 * realm whose fast backend failed its known-answer round, and a verification given no
 * backend. Its own module: ./noble-backend imports ./backend's types, so ./backend cannot
 * import it back.
 */
import type { VerifyBackend } from './backend'

export async function loadNobleBackend(): Promise<VerifyBackend> {
  return (await import('./noble-backend')).nobleBackend
}
