/**
 * Work put off to an idle moment of the page: the permalink's compression, a step's
 * address write, the chunks prefetched after the first log shows.
 */

/** The longest `whenIdle` waits for an idle moment by default (a busy page still gets its work done). */
const IDLE_TIMEOUT_MS = 1000

/** Runs `f` in an idle period after the next frame (a timer where requestIdleCallback is missing); returns a cancel. */
export function whenIdle(f: () => void, timeoutMs = IDLE_TIMEOUT_MS): () => void {
  if (typeof requestIdleCallback === 'function') {
    const h = requestIdleCallback(f, { timeout: timeoutMs })
    return () => cancelIdleCallback(h)
  }
  const t = setTimeout(f, 0)
  return () => clearTimeout(t)
}
