/**
 * The plain reference as a whole process (`npm run bench`, bench/cli.bench.mjs): the same
 * `replay --json` output as the command line for one file, from today's plain replay — one
 * thread, noble, no pool, no cache. Bundled like the command line (scripts/build-cli.mjs),
 * so both processes start from one esbuild file and the comparison is of the work, not of
 * TypeScript compilation.
 */
import { readFileSync } from 'node:fs'
import { readLogs } from '../src/core/decode/logs'
import { replay } from '../src/core/replay'
import { toReport } from '../src/core/report'
import { jsonLine } from '../src/cli/io'

const file = process.argv[2]
if (!file) throw new Error('usage: plain-replay FILE')
for (const log of readLogs(readFileSync(file), file)) {
  process.stdout.write(`${jsonLine(toReport(await replay(log), file))}\n`)
}
