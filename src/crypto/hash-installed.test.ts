import { describe, expect, it } from 'vitest'
import { sha256 as nobleSha256, sha512 as nobleSha512 } from './hash'
import { installHashes, sha256, sha512 } from './hash-installed'
import { loadNobleBackend } from './load-noble'

describe('the workers’ installed SHA-2', () => {
  it('refuses to hash before a backend is installed, naming why, then hashes with the installed one', async () => {
    const b = new Uint8Array([1, 2, 3])
    expect(() => sha256(b)).toThrow(/SHA-256 was called before this worker loaded its verification backend/)
    expect(() => sha512(b)).toThrow(/SHA-512 was called before/)
    installHashes(await loadNobleBackend())
    expect(sha256(b)).toEqual(nobleSha256(b))
    expect(sha512(b)).toEqual(nobleSha512(b))
    const calls: string[] = []
    installHashes({
      sha256: (x) => (calls.push('256'), nobleSha256(x)),
      sha512: (x) => (calls.push('512'), nobleSha512(x)),
    })
    sha256(b)
    sha512(b)
    expect(calls).toEqual(['256', '512'])
  })
})
