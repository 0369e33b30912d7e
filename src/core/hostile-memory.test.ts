/**
 * Issue #14, finding 8: the Trace of a huge log keeps what the views need without
 * building, per update it never reaches, a signature text and its unchecked signatures.
 * Counted: every signature text built goes through the wrapped signatureText; the bytes a
 * Trace retains per unreached step are measured on the heap after a full collection (a
 * memory quantity, not a time), and the report's JSON is checked piece by piece.
 */
import { readdirSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import { setFlagsFromString } from 'node:v8'
import { runInNewContext } from 'node:vm'
import { beforeEach, describe, expect, it, vi } from 'vitest'
import { readLogs } from './decode/logs'
import { encodeGetIdentityUpdatesResponse, encodeUpdate } from './encode/update'
import { decodeUpdate } from './decode/update'
import { replay, stateAt } from './replay'
import { reportJsonPieces, toReport } from './report'
import type { LogEntry } from './types'

const built = vi.hoisted(() => ({ texts: 0 }))
vi.mock('./text/signature-text', async (importOriginal) => {
  const real = await importOriginal<typeof import('./text/signature-text')>()
  return {
    ...real,
    signatureText: (u: Parameters<typeof real.signatureText>[0]) => {
      built.texts++
      return real.signatureText(u)
    },
  }
})

beforeEach(() => {
  built.texts = 0
})

/** `n` tiny updates (a claim with a junk signature): the first is refused, the rest are not reached. */
function tinyLog(n: number): LogEntry[] {
  const bytes = encodeUpdate({
    inboxId: 'tiny',
    clientTimestampNs: 1n,
    actions: [{ kind: 'claim_handle', handle: 'tiny', signature: { kind: 'erc_191', bytes: new Uint8Array(8) } }],
  })
  const update = decodeUpdate(bytes)
  return Array.from({ length: n }, (_, i) => ({ sequenceId: BigInt(i + 1), update }))
}

describe('issue #14: Trace memory', () => {
  it('finding 8: a log that stops early builds no signature text for the updates it does not reach', async () => {
    const trace = await replay({ entries: tinyLog(5000), format: 'single-update' })
    expect(trace.steps[0]!.status).toBe('rejected')
    expect(trace.steps.slice(1).every((s) => s.status === 'not_applied')).toBe(true)
    // At most the refused update's own text: not one per unreached update.
    expect(built.texts).toBeLessThanOrEqual(1)
    // A view that reads a step still gets its text and its unchecked signatures, once.
    const s = trace.steps[4999]!
    expect(s.signatureText).toContain('Claim handle')
    expect(s.signatures.map((c) => c.verdict)).toEqual(['unchecked'])
    expect(s.signatureText).toBe(s.signatureText)
    expect(built.texts).toBeLessThanOrEqual(2)
  })
})

/** A full collection (the flag is set at run time; vitest's workers do not start with it). */
function collect(): void {
  setFlagsFromString('--expose-gc')
  ;(runInNewContext('gc') as () => void)()
}

const FIXTURES = join(__dirname, '..', '..', 'test', 'fixtures')

describe('issue #14: Trace and report memory per update', () => {
  it('finding 8: an unreached step retains about 100 bytes of heap, not a 1 kB dictionary-mode object', async () => {
    const n = 200_000
    const log = { entries: tinyLog(n), format: 'single-update' as const }
    collect()
    const before = process.memoryUsage().heapUsed
    const trace = await replay(log)
    collect()
    const perStep = (process.memoryUsage().heapUsed - before) / n
    expect(trace.steps).toHaveLength(n)
    // Before the fix: about 1,080 bytes per step (own getters and a spread in a literal
    // make V8 keep each step as a hash table), and a message string per step.
    expect(perStep).toBeLessThan(300)
    // The step still reads as before, also past the stop.
    const s = trace.steps[n - 1]!
    expect([s.status, s.rule, s.actionIndex, s.message]).toEqual([
      'not_applied',
      null,
      null,
      'log cannot be read past sequence id 1',
    ])
    expect(s.stateAfter).toBe(s.stateBefore)
    expect(s.bytes).toBe(s.update!.bytes)
    expect(s.actions).toEqual([])
    expect(s.signatures.map((c) => c.verdict)).toEqual(['unchecked'])
  })

  it('finding 8: the updates of a log share one copy of their inbox id and handle, not one per update', () => {
    // Heap retained after a full collection (a memory quantity, not a time), for strings of 100 characters.
    const n = 100_000
    const bytes = encodeUpdate({
      inboxId: 'i'.repeat(100),
      clientTimestampNs: 1n,
      actions: [
        { kind: 'claim_handle', handle: 'h'.repeat(100), signature: { kind: 'erc_191', bytes: new Uint8Array(8) } },
      ],
    })
    const file = encodeGetIdentityUpdatesResponse([
      { inboxId: 'a'.repeat(64), updates: Array.from({ length: n }, (_, i) => ({ sequenceId: BigInt(i + 1), bytes })) },
    ])
    collect()
    const before = process.memoryUsage().heapUsed
    const [log] = readLogs(file)
    collect()
    const perUpdate = (process.memoryUsage().heapUsed - before) / n
    expect(log!.entries).toHaveLength(n)
    const u = log!.entries[n - 1]!.update
    expect('inboxId' in u && u.inboxId).toBe('i'.repeat(100))
    // About 430 bytes an update here; a copy of both strings per update was about 670.
    expect(perUpdate).toBeLessThan(550)
  })

  it('finding 8: the report JSON comes in bounded pieces, never one string of the whole report', async () => {
    const n = 50_000
    const trace = await replay({ entries: tinyLog(n), format: 'single-update' })
    const pieces = [...reportJsonPieces(trace, 'tiny.bin', undefined, 4096)]
    const longest = Math.max(...pieces.map((p) => p.length))
    // 50,000 rows are about 6.5 MB of JSON: in pieces of about 4 kB, each under chunk + one row.
    expect(pieces.length).toBeGreaterThan(1000)
    expect(longest).toBeLessThan(4096 + 200)
    expect(pieces.join('')).toBe(JSON.stringify(toReport(trace, 'tiny.bin')))
  })

  it('guard for finding 8: the pieces are exactly the report of every fixture, with and without --at', async () => {
    const files = readdirSync(FIXTURES).filter((f) => f.endsWith('.json') && !f.endsWith('.expected.json'))
    expect(files.length).toBeGreaterThan(20)
    for (const f of files) {
      let logs
      try {
        logs = readLogs(new Uint8Array(readFileSync(join(FIXTURES, f))), f)
      } catch {
        continue
      }
      for (const log of logs) {
        const trace = await replay(log)
        for (const chunk of [7, 1 << 16]) {
          expect([...reportJsonPieces(trace, f, undefined, chunk)].join('')).toBe(JSON.stringify(toReport(trace, f)))
          for (const seq of [1n, 2n, 99n]) {
            const at = stateAt(trace, seq)
            expect([...reportJsonPieces(trace, f, at, chunk)].join('')).toBe(JSON.stringify(toReport(trace, f, at)))
          }
        }
      }
    }
  })
})
