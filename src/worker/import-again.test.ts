import { describe, expect, it } from 'vitest'
import { failedModuleUrl, importAgain } from './import-again'

const CHUNK = 'http://127.0.0.1:4173/assets/query-client-Di_u7uof.js'

const failure = (url: string) => new TypeError(`Failed to fetch dynamically imported module: ${url}`)

/**
 * The network behind the injected importer, which is also the key of the retries' state: a
 * new one per test starts with no retries. Every call is one request (recorded), a new
 * module instance once the network is up, and a failure naming its own URL until then.
 */
function network() {
  const asked: string[] = []
  const net = {
    asked,
    up: false,
    loads: 0,
    /** The chunk's usual import: `import('./query-client')`, whose failure names CHUNK. */
    load: async () => {
      net.loads++
      if (!net.up) throw failure(CHUNK)
      return { url: CHUNK }
    },
    byUrl: async (url: string) => {
      asked.push(url)
      if (!net.up) throw failure(url)
      return { url }
    },
  }
  return net
}

/** Two wrappers over one module (two views of one chunk), each of whose first import failed. */
async function twoFailed() {
  const net = network()
  const a = importAgain(net.load, net.byUrl)
  const b = importAgain(net.load, net.byUrl)
  await expect(a()).rejects.toThrow(CHUNK)
  await expect(b()).rejects.toThrow(CHUNK)
  return { net, a, b }
}

describe('failedModuleUrl', () => {
  it("names the module of Chromium's and Firefox's failed dynamic imports, nothing for others", () => {
    expect(failedModuleUrl(failure(CHUNK))).toBe(CHUNK)
    expect(failedModuleUrl(new TypeError(`error loading dynamically imported module: ${CHUNK}`))).toBe(CHUNK)
    expect(failedModuleUrl(new TypeError('Importing a module script failed.'))).toBeNull()
    expect(failedModuleUrl(new TypeError('Failed to fetch dynamically imported module: not a url'))).toBeNull()
    expect(
      failedModuleUrl(new TypeError('Failed to fetch dynamically imported module: javascript:alert(1)')),
    ).toBeNull()
    expect(failedModuleUrl('nothing')).toBeNull()
  })
})

describe('importAgain', () => {
  it('tries a failed chunk again by its URL with a retry query of its own, and keeps the one that loads', async () => {
    const net = network()
    const get = importAgain(net.load, net.byUrl)
    await expect(get()).rejects.toThrow(CHUNK)
    await expect(get()).rejects.toThrow(`${CHUNK}?retry=1`)
    net.up = true
    const loaded = await get()
    expect(loaded).toEqual({ url: `${CHUNK}?retry=2` })
    expect(net.asked).toEqual([`${CHUNK}?retry=1`, `${CHUNK}?retry=2`])
    // Loaded: the next call is that module, not the usual import (whose failure the module map keeps).
    await expect(get()).resolves.toBe(loaded)
    expect(net.asked).toHaveLength(2)
    expect(net.loads).toBe(1)
  })

  it('makes one retry request for two wrappers over one module, and gives both the same module', async () => {
    const { net, a, b } = await twoFailed()
    net.up = true
    const [ma, mb] = await Promise.all([a(), b()])
    expect(net.asked).toEqual([`${CHUNK}?retry=1`])
    expect(ma).toBe(mb)
  })

  it("counts retries for the page: a wrapper's retry after another's failed one asks for retry=2", async () => {
    const { net, a, b } = await twoFailed()
    await expect(a()).rejects.toThrow(`${CHUNK}?retry=1`)
    // retry=1 is in the module map as a failure now: b asks for the next one.
    net.up = true
    await expect(b()).resolves.toEqual({ url: `${CHUNK}?retry=2` })
    expect(net.asked).toEqual([`${CHUNK}?retry=1`, `${CHUNK}?retry=2`])
  })

  it('shares a failed retry in flight, then asks anew with the next n', async () => {
    const { net, a, b } = await twoFailed()
    const both = await Promise.allSettled([a(), b()])
    expect(both.map((r) => r.status)).toEqual(['rejected', 'rejected'])
    expect(net.asked).toEqual([`${CHUNK}?retry=1`])
    await expect(a()).rejects.toThrow(`${CHUNK}?retry=2`)
    expect(net.asked).toEqual([`${CHUNK}?retry=1`, `${CHUNK}?retry=2`])
  })

  it('gives a retry that loaded to every wrapper that failed on its URL, with no new request', async () => {
    const { net, a, b } = await twoFailed()
    net.up = true
    const loaded = await a()
    expect(net.asked).toEqual([`${CHUNK}?retry=1`])
    await expect(b()).resolves.toBe(loaded)
    await expect(a()).resolves.toBe(loaded)
    expect(net.asked).toEqual([`${CHUNK}?retry=1`])
  })

  it("answers a wrapper's first failure with another's retry of the same URL, with no request of its own", async () => {
    const net = network()
    const a = importAgain(net.load, net.byUrl)
    await expect(a()).rejects.toThrow(CHUNK)
    net.up = true
    const loaded = await a()
    // The module map keeps the usual import's failure, whoever asks for it later.
    const stillFailed = async () => {
      throw failure(CHUNK)
    }
    const b = importAgain(stillFailed, net.byUrl)
    await expect(b()).resolves.toBe(loaded)
    await expect(b()).resolves.toBe(loaded)
    expect(net.asked).toEqual([`${CHUNK}?retry=1`])
    // A failure with no retry of its URL yet is still the caller's to see.
    const other = importAgain(async () => {
      throw failure(`${CHUNK}.other`)
    }, net.byUrl)
    await expect(other()).rejects.toThrow(`${CHUNK}.other`)
  })

  it('tries the usual import again after a failure that names no module (Safari)', async () => {
    let loads = 0
    const asked: string[] = []
    const get = importAgain(
      async () => {
        if (++loads === 1) throw new TypeError('Importing a module script failed.')
        return 'loaded'
      },
      async (url) => {
        asked.push(url)
        return 'by url'
      },
    )
    await expect(get()).rejects.toThrow('Importing a module script failed.')
    await expect(get()).resolves.toBe('loaded')
    expect(loads).toBe(2)
    expect(asked).toEqual([])
  })
})
