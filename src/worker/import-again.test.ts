import { describe, expect, it } from 'vitest'
import { failedModuleUrl, importAgain } from './import-again'

const CHUNK = 'http://127.0.0.1:4173/assets/query-client-Di_u7uof.js'

describe('failedModuleUrl', () => {
  it("names the module of Chromium's and Firefox's failed dynamic imports, nothing for others", () => {
    expect(failedModuleUrl(new TypeError(`Failed to fetch dynamically imported module: ${CHUNK}`))).toBe(CHUNK)
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
  it('tries a failed chunk again by its URL with a retry query of its own, and as usual once one loads', async () => {
    const asked: string[] = []
    let loads = 0
    let up = false
    const load = async () => {
      loads++
      if (!up) throw new TypeError(`Failed to fetch dynamically imported module: ${CHUNK}`)
      return { ok: 'load' }
    }
    const byUrl = async (url: string) => {
      asked.push(url)
      // The retry's own failure names the retry's URL.
      if (!up) throw new TypeError(`Failed to fetch dynamically imported module: ${url}`)
      return { ok: url }
    }
    const get = importAgain(load, byUrl)
    await expect(get()).rejects.toThrow(CHUNK)
    await expect(get()).rejects.toThrow(`${CHUNK}?retry=1`)
    up = true
    await expect(get()).resolves.toEqual({ ok: `${CHUNK}?retry=2` })
    expect(asked).toEqual([`${CHUNK}?retry=1`, `${CHUNK}?retry=2`])
    // Loaded: the next call is the usual import.
    await expect(get()).resolves.toEqual({ ok: 'load' })
    expect(loads).toBe(2)
  })

  it('tries the usual import again after a failure that names no module (Safari)', async () => {
    let loads = 0
    const get = importAgain(
      async () => {
        if (++loads === 1) throw new TypeError('Importing a module script failed.')
        return 'loaded'
      },
      async () => {
        throw new Error('not asked')
      },
    )
    await expect(get()).rejects.toThrow('Importing a module script failed.')
    await expect(get()).resolves.toBe('loaded')
  })
})
