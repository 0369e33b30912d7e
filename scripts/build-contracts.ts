/**
 * Compiles the test contracts of contracts/ (OwnedWallet, WalletFactory: an ERC-1271
 * wallet and its idempotent CREATE2 factory, ../shared/notes/chain.md §3) with solc-js
 * (WASM, nothing downloaded) into the committed test/chain/artifacts.json.
 *
 *   tsx scripts/build-contracts.ts           write test/chain/artifacts.json
 *   tsx scripts/build-contracts.ts --check   exit 1 when the artifact is stale
 *
 * The artifact carries a SHA-256 over the solc version, the settings and every source
 * (sourcesHash), so test/chain/artifacts.test.ts can tell a stale artifact without
 * compiling. Settings as chain.md §4: optimizer 200 runs, evmVersion paris (no PUSH0,
 * so the bytecode runs on every node).
 */
import { createHash } from 'node:crypto'
import { readFileSync, readdirSync, writeFileSync } from 'node:fs'
import { dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'
import solc from 'solc'

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..')
export const CONTRACTS_DIR = join(ROOT, 'contracts')
export const ARTIFACT_PATH = join(ROOT, 'test', 'chain', 'artifacts.json')
export const CONTRACT_NAMES = ['OwnedWallet', 'WalletFactory'] as const

export const SOLC_SETTINGS = {
  optimizer: { enabled: true, runs: 200 },
  evmVersion: 'paris',
  outputSelection: { '*': { '*': ['abi', 'evm.bytecode.object'] } },
} as const

export interface ContractArtifact {
  readonly abi: readonly unknown[]
  readonly bytecode: `0x${string}`
}

export interface Artifacts {
  readonly generatedBy: string
  readonly solcVersion: string
  readonly settings: typeof SOLC_SETTINGS
  /** SHA-256 (hex) of the solc version, the settings and every source, in name order. */
  readonly sourcesHash: string
  readonly sources: Readonly<Record<string, string>>
  readonly OwnedWallet: ContractArtifact
  readonly WalletFactory: ContractArtifact
}

/** The .sol files of contracts/, by file name, in name order. */
export function readSources(dir = CONTRACTS_DIR): Record<string, string> {
  const out: Record<string, string> = {}
  for (const f of readdirSync(dir)
    .filter((n) => n.endsWith('.sol'))
    .sort())
    out[f] = readFileSync(join(dir, f), 'utf8')
  return out
}

const sha256 = (s: string): string => createHash('sha256').update(s, 'utf8').digest('hex')

/** What the artifact's sourcesHash commits to. */
export function sourcesHash(sources: Record<string, string>, solcVersion: string = solc.version()): string {
  const parts = [`solc ${solcVersion}`, JSON.stringify(SOLC_SETTINGS)]
  for (const name of Object.keys(sources).sort()) parts.push(`${name}\0${sha256(sources[name]!)}`)
  return sha256(parts.join('\n'))
}

interface SolcOutput {
  errors?: { severity: string; formattedMessage: string }[]
  contracts?: Record<string, Record<string, { abi: unknown[]; evm: { bytecode: { object: string } } }>>
}

/** Compiles the sources (standard JSON); throws on any error-severity diagnostic. */
export function compileContracts(sources: Record<string, string> = readSources()): Artifacts {
  const input = {
    language: 'Solidity',
    sources: Object.fromEntries(Object.entries(sources).map(([name, content]) => [name, { content }])),
    settings: SOLC_SETTINGS,
  }
  const out = JSON.parse(solc.compile(JSON.stringify(input))) as SolcOutput
  const errors = (out.errors ?? []).filter((e) => e.severity === 'error')
  if (errors.length) throw new Error(`solc failed:\n${errors.map((e) => e.formattedMessage).join('\n')}`)
  const pick = (name: (typeof CONTRACT_NAMES)[number]): ContractArtifact => {
    const c = out.contracts?.[`${name}.sol`]?.[name]
    if (!c) throw new Error(`solc output has no ${name}.sol:${name}`)
    return { abi: c.abi, bytecode: `0x${c.evm.bytecode.object}` }
  }
  const version = solc.version()
  return {
    generatedBy: 'scripts/build-contracts.ts (tsx scripts/build-contracts.ts); do not edit by hand',
    solcVersion: version,
    settings: SOLC_SETTINGS,
    sourcesHash: sourcesHash(sources, version),
    sources: Object.fromEntries(
      Object.keys(sources)
        .sort()
        .map((n) => [n, sha256(sources[n]!)]),
    ),
    OwnedWallet: pick('OwnedWallet'),
    WalletFactory: pick('WalletFactory'),
  }
}

export const serializeArtifacts = (a: Artifacts): string => `${JSON.stringify(a, null, 2)}\n`

const isMain = process.argv[1] !== undefined && /scripts[\\/]build-contracts\.ts$/.test(process.argv[1])
if (isMain) {
  const check = process.argv.includes('--check')
  if (check) {
    let committed: Artifacts | null = null
    try {
      committed = JSON.parse(readFileSync(ARTIFACT_PATH, 'utf8')) as Artifacts
    } catch {
      /* missing or unreadable: stale */
    }
    const want = sourcesHash(readSources())
    if (committed?.sourcesHash !== want) {
      process.stderr.write(`${ARTIFACT_PATH} is stale: run tsx scripts/build-contracts.ts\n`)
      process.exitCode = 1
    } else process.stdout.write('test/chain/artifacts.json is up to date\n')
  } else {
    const t0 = Date.now()
    const artifacts = compileContracts()
    writeFileSync(ARTIFACT_PATH, serializeArtifacts(artifacts))
    process.stdout.write(`wrote ${ARTIFACT_PATH} (${artifacts.solcVersion}, ${Date.now() - t0} ms)\n`)
  }
}
