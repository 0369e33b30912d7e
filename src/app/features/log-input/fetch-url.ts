/** Opening a log from a URL (`?url=` in the address bar): the bytes, or why there are none. */
export class FetchLogError extends Error {
  override readonly name = 'FetchLogError'
}

const MAX_BYTES = 64 * 1024 * 1024

export async function fetchLog(url: string, signal?: AbortSignal): Promise<Uint8Array> {
  let u: URL
  try {
    u = new URL(url, location.href)
  } catch {
    throw new FetchLogError(`${JSON.stringify(url)} is not a URL`)
  }
  if (u.protocol !== 'http:' && u.protocol !== 'https:')
    throw new FetchLogError(`${u.protocol} URLs cannot be opened; use http or https`)
  let res: Response
  try {
    res = await fetch(u, { signal: signal ?? null, credentials: 'omit', redirect: 'follow' })
  } catch (e) {
    const why = e instanceof Error ? e.message : String(e)
    throw new FetchLogError(
      `could not fetch ${u.href}: ${why}. The server is unreachable, or it does not allow this page to read it (CORS) or this page's content security policy does not allow the host.`,
    )
  }
  if (!res.ok) throw new FetchLogError(`${u.href} answered ${res.status} ${res.statusText || ''}`.trim())
  const declared = Number(res.headers.get('content-length') ?? '0')
  if (declared > MAX_BYTES)
    throw new FetchLogError(`${u.href} is ${declared} bytes; the inspector opens logs up to ${MAX_BYTES} bytes`)
  const bytes = new Uint8Array(await res.arrayBuffer())
  if (bytes.length === 0) throw new FetchLogError(`${u.href} answered with an empty body`)
  return bytes
}
