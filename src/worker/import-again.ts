/**
 * A lazy chunk's import that can be tried again after it failed (the network dropped, a
 * chunk of an older deploy gone). Browsers that keep a failed module fetch in their module
 * map (Chromium up to at least 150, Safari) answer a second `import()` of the same URL with
 * the same failure and never ask the network again; so a retry imports the module the
 * failure names with a query of its own (`?retry=n`), which is a new fetch. The page and the
 * replay worker both use it (the query layer's chunk, the verification pool's).
 *
 * The retries are the page's, one set per failed URL, not a wrapper's: `?retry=n` is a
 * module map entry of its own too, so two wrappers over one module that each counted their
 * own tries would both ask for `?retry=1`, and the second would get the first's failure
 * back from the module map, with no request.
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

type ImportUrl = (url: string) => Promise<unknown>

/** The retries of one failed module URL. */
interface Retries {
  /** Retry URLs asked for so far: the next one is `retry=tries + 1`. */
  tries: number
  /** The retry in flight, or the one that loaded (kept: its module is the one every wrapper gets); null after a failed one. */
  current: Promise<unknown> | null
}

// Keyed by importer, then by failed URL. The page's importer (byUrl) is one per realm, as the
// module map it fills is, so every wrapper in the realm shares one set; a test's importer
// stands for a module map of its own, and brings fresh retries with it.
const retriesOf = new WeakMap<ImportUrl, Map<string, Retries>>()

/** The retries of `href` through `importUrl` (none yet, the first time). */
function retriesFor(href: string, importUrl: ImportUrl): Retries {
  let byHref = retriesOf.get(importUrl)
  if (!byHref) retriesOf.set(importUrl, (byHref = new Map()))
  let r = byHref.get(href)
  if (!r) byHref.set(href, (r = { tries: 0, current: null }))
  return r
}

/** `href` imported again, once for every caller at a time: the retry in flight or the one that loaded, else a new one. */
function retry(href: string, importUrl: ImportUrl): Promise<unknown> {
  const retries = retriesFor(href, importUrl)
  if (retries.current) return retries.current
  const attempt = importUrl(withRetry(href, ++retries.tries))
  retries.current = attempt
  // A failed retry stays in the module map under its own URL: the next call asks for the next one.
  attempt.catch(() => {
    if (retries.current === attempt) retries.current = null
  })
  return attempt
}

/**
 * `load` wrapped: its first call imports as usual; after a failure that names its module's
 * URL, every later call is that URL's retry for the page (above): a new one with the next
 * `retry=n` after a failed one, else the one in flight or the one that loaded, whichever
 * wrapper asked for it. A first failure whose URL already has such a retry is answered by
 * it, with no failure shown. A failure naming none (Safari's) is tried with `load` again.
 */
export function importAgain<M>(
  load: () => Promise<M>,
  importUrl: (url: string) => Promise<M> = byUrl,
): () => Promise<M> {
  // Kept after a retry loaded: `load` would get the failure from the module map again.
  let failedUrl: string | null = null
  return () => {
    if (failedUrl !== null) return retry(failedUrl, importUrl) as Promise<M>
    return load().catch((e: unknown) => {
      failedUrl = failedModuleUrl(e)
      // Another wrapper's retry of that URL, in flight or loaded, answers this failure: the
      // module map would give this wrapper the same failure, and the retry is the module.
      const joined = failedUrl === null ? null : retriesFor(failedUrl, importUrl).current
      if (joined) return joined as Promise<M>
      throw e
    })
  }
}

function withRetry(href: string, n: number): string {
  const url = new URL(href)
  url.searchParams.set('retry', String(n))
  return url.href
}

const byUrl = <M>(url: string): Promise<M> => import(/* @vite-ignore */ url) as Promise<M>
