/**
 * `npm run bench`: replays synthetic logs of 1,000 and 10,000 updates of mixed
 * signature kinds and prints, for each, updates/s, signatures/s, peak memory, the
 * retained Trace size, and the ratio of replay time to the same signature
 * verifications done bare in a loop with the same primitives (target ≤ 1.3).
 * Times are CPU time (process.cpuUsage), steadier than wall time on a shared machine.
 * Generated logs are cached under tmp/bench/.
 */
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs'
import { readLogs } from '../src/core/decode/logs'
import { replay } from '../src/core/replay'
import { signaturesOf } from '../src/core/verify/update'
import { signatureText } from '../src/core/text/signature-text'
import { base64urlNoPad, concatBytes, utf8 } from '../src/crypto/bytes'
import { recoverEip191 } from '../src/crypto/eip191'
import { IDENTITY_UPDATE_CONTEXT, verifyEd25519ph } from '../src/crypto/ed25519ph'
import { sha256 } from '../src/crypto/hash'
import { verifyP256Der } from '../src/crypto/p256'
import type { UnverifiedUpdate, WireSignature } from '../src/core/types'
import { syntheticBundle, syntheticLog } from './synthetic-log'

const gc = (globalThis as { gc?: () => void }).gc
const cpuMs = () => {
  const u = process.cpuUsage()
  return (u.user + u.system) / 1000
}

/** The bare verification of one signature: the same primitives, no decode, no state. */
function bare(sig: WireSignature, textBytes: Uint8Array): void {
  switch (sig.kind) {
    case 'erc_191':
      recoverEip191(sig.bytes, textBytes)
      return
    case 'installation_key':
      verifyEd25519ph(sig.bytes, textBytes, sig.publicKey, IDENTITY_UPDATE_CONTEXT)
      return
    case 'passkey': {
      const cd = JSON.parse(new TextDecoder().decode(sig.clientDataJson)) as { challenge: string }
      if (cd.challenge !== base64urlNoPad(textBytes)) throw new Error('bench: bad challenge')
      verifyP256Der(sig.signature, concatBytes(sig.authenticatorData, sha256(sig.clientDataJson)), sig.publicKey)
      return
    }
    case 'erc_6492':
      throw new Error('bench logs carry no smart wallet signatures')
  }
}

async function load(n: number): Promise<string> {
  const file = `tmp/bench/log-${n}.json`
  if (existsSync(file)) return readFileSync(file, 'utf8')
  mkdirSync('tmp/bench', { recursive: true })
  const t = Date.now()
  process.stdout.write(`generating a ${n}-update log… `)
  const log = await syntheticLog(n)
  const json = syntheticBundle(log)
  writeFileSync(file, json)
  console.log(`${((Date.now() - t) / 1000).toFixed(1)} s (cached in ${file})`)
  return json
}

function mib(b: number) {
  return `${(b / 2 ** 20).toFixed(1)} MiB`
}

async function measure(n: number) {
  const json = await load(n)
  const [log] = readLogs(json)
  if (!log) throw new Error('no log')
  const updates = log.entries.map((e) => e.update as UnverifiedUpdate)
  const sigs = updates.reduce((k, u) => k + u.actions.reduce((m, a) => m + signaturesOf(a).length, 0), 0)

  // Bare loop and replay, alternated twice; the faster of each is kept, since a shared
  // 2-core machine inflates CPU time while another process runs.
  const texts = updates.map((u) => utf8(signatureText(u)))
  const runBare = () => {
    gc?.()
    const t = cpuMs()
    updates.forEach((u, i) => {
      for (const a of u.actions) for (const [, s] of signaturesOf(a)) bare(s, texts[i]!)
    })
    return cpuMs() - t
  }
  let peak = 0
  let heap0 = 0
  const runReplay = async () => {
    gc?.()
    heap0 = process.memoryUsage().heapUsed
    peak = heap0
    const sample = setInterval(() => (peak = Math.max(peak, process.memoryUsage().heapUsed)), 5)
    const t = cpuMs()
    const [fresh] = readLogs(json) // decode from the file text, verify, apply, fold into a Trace
    const trace = await replay(fresh!, {
      onProgress: () => void (peak = Math.max(peak, process.memoryUsage().heapUsed)),
    })
    const ms = cpuMs() - t
    clearInterval(sample)
    return { ms, trace }
  }
  gc?.()
  const heapBase = process.memoryUsage().heapUsed // before any Trace exists
  const bares: number[] = []
  const replays: number[] = []
  let trace!: Awaited<ReturnType<typeof runReplay>>['trace']
  for (let round = 0; round < 2; round++) {
    bares.push(runBare())
    trace = undefined as never
    const r = await runReplay()
    replays.push(r.ms)
    trace = r.trace
  }
  const bareMs = Math.min(...bares)
  const replayMs = Math.min(...replays)
  if (!trace.ok) throw new Error(`bench log did not apply: ${trace.steps.find((s) => s.status !== 'applied')?.message}`)
  gc?.()
  const retained = process.memoryUsage().heapUsed - heapBase // only the last Trace is alive now
  return { n, sigs, bareMs, replayMs, peak: peak - heap0, retained, trace }
}

const results = []
const sizes = process.argv
  .slice(2)
  .map(Number)
  .filter((x) => Number.isInteger(x) && x > 0)
for (const n of sizes.length ? sizes : [1000, 10000]) {
  const r = await measure(n)
  results.push(r)
  console.log(
    [
      `${n} updates, ${r.sigs} signatures:`,
      `  replay ${(r.replayMs / 1000).toFixed(2)} s CPU → ${Math.round((n / r.replayMs) * 1000)} updates/s, ${Math.round((r.sigs / r.replayMs) * 1000)} signatures/s`,
      `  bare verification ${(r.bareMs / 1000).toFixed(2)} s CPU → ratio replay/bare ${(r.replayMs / r.bareMs).toFixed(3)} (target ≤ 1.3)`,
      `  heap: peak +${mib(r.peak)} during replay, Trace retained ${gc ? mib(r.retained) : 'n/a (run with --expose-gc)'} (${gc ? Math.round(r.retained / n) : '?'} B/update)`,
    ].join('\n'),
  )
}
if (gc && results.length === 2) {
  const [a, b] = results as [(typeof results)[number], (typeof results)[number]]
  console.log(`memory growth 1k → 10k: ×${(b.retained / a.retained).toFixed(2)} for ×10 updates (linear is ×10)`)
}
