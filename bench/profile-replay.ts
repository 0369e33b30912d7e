/**
 * `node dist-cli/bench-profile.mjs FILE [--pool]`: one replay of FILE on the command line's fast
 * path, for `node --cpu-prof` (bench/README in the speed section): the fast backend on this
 * thread, or with --pool the worker-thread pool forced on. Prints the wall and CPU time.
 */
import { readFileSync } from 'node:fs'
import { readLogs } from '../src/core/decode/logs'
import { replay } from '../src/core/replay'
import { fastContext } from '../src/core/verify/fast'
import { fastReplayOptions } from '../src/cli/pool/node-pool'

const file = process.argv[2]
if (!file) throw new Error('usage: bench-profile FILE [--pool]')
const t0 = performance.now()
const c0 = process.cpuUsage()
const logs = readLogs(readFileSync(file), file)
const { ctx } = await fastContext()
const fast = fastReplayOptions(logs, ctx, { threshold: process.argv.includes('--pool') ? 0 : Number.POSITIVE_INFINITY })
for (const log of logs) await replay(log, fast.replay)
fast.close()
const c = process.cpuUsage(c0)
console.log(`${(performance.now() - t0).toFixed(0)} ms wall, ${((c.user + c.system) / 1000).toFixed(0)} ms CPU`)
