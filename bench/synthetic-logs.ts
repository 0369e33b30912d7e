/**
 * Writes the synthetic logs the benchmarks read (e2e/synthetic-log.ts: mixed erc_191,
 * passkey and installation_key signatures) to node_modules/.cache/inspector-e2e/synthetic-N.json.
 *   node --import tsx bench/synthetic-logs.ts 256 1024
 */
import { existsSync, mkdirSync, writeFileSync } from 'node:fs'
import { syntheticBundle } from '../e2e/synthetic-log'

const DIR = 'node_modules/.cache/inspector-e2e/'
mkdirSync(DIR, { recursive: true })
for (const n of process.argv.slice(2).map(Number)) {
  const file = `${DIR}synthetic-${n}.json`
  if (!existsSync(file)) writeFileSync(file, await syntheticBundle(n))
}
