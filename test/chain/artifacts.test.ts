/**
 * The committed contract artifacts (test/chain/artifacts.json) are built from the
 * sources in contracts/ by scripts/build-contracts.ts: the artifact's sourcesHash
 * commits to the solc version, the settings and every source, so a changed source (or
 * solc) without a rebuild fails here. Rebuild: `tsx scripts/build-contracts.ts`.
 */
import { readFileSync } from 'node:fs'
import { describe, expect, it } from 'vitest'
import solc from 'solc'
import { ARTIFACT_PATH, readSources, SOLC_SETTINGS, sourcesHash, type Artifacts } from '../../scripts/build-contracts'

const artifacts = JSON.parse(readFileSync(ARTIFACT_PATH, 'utf8')) as Artifacts

describe('test/chain/artifacts.json', () => {
  it('is up to date with contracts/*.sol, the solc version and the settings (rebuild: tsx scripts/build-contracts.ts)', () => {
    const sources = readSources()
    expect(Object.keys(sources)).toEqual(['OwnedWallet.sol', 'WalletFactory.sol'])
    expect(artifacts.solcVersion).toBe(solc.version())
    expect(artifacts.settings).toEqual(SOLC_SETTINGS)
    expect(
      artifacts.sourcesHash,
      'contracts/ changed since test/chain/artifacts.json was built: run tsx scripts/build-contracts.ts',
    ).toBe(sourcesHash(sources))
  })

  it('holds the ABI and paris bytecode of both contracts', () => {
    expect(artifacts.settings.evmVersion).toBe('paris')
    for (const name of ['OwnedWallet', 'WalletFactory'] as const) {
      expect(artifacts[name].bytecode).toMatch(/^0x(?:[0-9a-f]{2})+$/)
      expect(artifacts[name].abi.length).toBeGreaterThan(0)
    }
    const fns = (name: 'OwnedWallet' | 'WalletFactory') =>
      (artifacts[name].abi as { type: string; name?: string }[])
        .filter((x) => x.type === 'function')
        .map((x) => x.name)
        .sort()
    expect(fns('OwnedWallet')).toEqual(['isValidSignature', 'owner', 'setOwner'])
    expect(fns('WalletFactory')).toEqual(['addressOf', 'deploy'])
  })
})
