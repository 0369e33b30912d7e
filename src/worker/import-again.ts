/**
 * A lazy chunk's import that can be tried again after it failed (the network dropped, a
 * chunk of an older deploy gone). Browsers that keep a failed module fetch in their module
 * map (Chromium up to at least 150, Safari) answer a second `import()` of the same URL with
 * the same failure and never ask the network again; so a retry imports the module the
 * failure names with a query of its own (`?retry=n`), which is a new fetch. The page and the
 * replay worker both use it (the query layer's chunk, the verification pool's).
 */

/** The module URL a failed dynamic import names (Chromium's and Firefox's messages), else null. */
export function failedModuleUrl(e: unknown): string | null {
  const message = e instanceof Error ? e.message : String(e)
  const m = /dynamically imported module:?\s+(\S+)/i.exec(message)
  if (!m) return null
  try {
    const url = new URL(m[1]!)
    return url.protocol === 'http:' || url.protocol === 'https:' ? url.href : null
  } catch {
    return null
  }
}

/**
 * `load` wrapped: its first call imports as usual; after a failure that names its module's
 * URL, the next call imports that URL with `retry=n` added (a failure naming none, as
 * Safari's, is tried with `load` again). A success resets it.
 */
export function importAgain<M>(
  load: () => Promise<M>,
  importUrl: (url: string) => Promise<M> = byUrl,
): () => Promise<M> {
  let failedUrl: string | null = null
  let tries = 0
  return () => {
    const attempt = failedUrl === null ? load() : importUrl(withRetry(failedUrl, ++tries))
    return attempt.then(
      (m) => {
        failedUrl = null
        return m
      },
      (e: unknown) => {
        // A retry's own failure names the retry's URL: keep the module's.
        failedUrl ??= failedModuleUrl(e)
        throw e
      },
    )
  }
}

function withRetry(href: string, n: number): string {
  const url = new URL(href)
  url.searchParams.set('retry', String(n))
  return url.href
}

const byUrl = <M>(url: string): Promise<M> => import(/* @vite-ignore */ url) as Promise<M>
