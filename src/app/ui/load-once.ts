/**
 * A loader run once and shared by every caller (a lazy chunk, the QueryClient): a failed
 * load (the network dropped, a chunk of an older deploy gone) is forgotten, so the next
 * call loads again.
 */
export function loadOnce<T>(load: () => Promise<T>): () => Promise<T> {
  let pending: Promise<T> | undefined
  return () =>
    (pending ??= load().catch((e: unknown) => {
      pending = undefined
      throw e
    }))
}
