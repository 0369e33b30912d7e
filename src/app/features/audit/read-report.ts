/**
 * Reads an audit report (JSON Lines) from a stream of bytes or a string, line by line,
 * without holding the page: the text is split into lines as the chunks arrive, each
 * line is parsed on its own (./report.ts), and the work yields to the event loop every
 * few milliseconds so input, scrolling and the progress bar keep running while a
 * report of 100,000 lines is read. A line longer than the limit is skipped as it
 * streams (only its length is kept), so memory stays bounded by the rows kept.
 */
import { AuditAccumulator, type AuditReport } from './aggregate'
import { LIMITS, parseAuditLine } from './report'

export interface ReadProgress {
  readonly lines: number
  readonly bytes: number
  /** The input's size in bytes when known (a File), else null. */
  readonly total: number | null
}

export interface ReadOptions {
  readonly signal?: AbortSignal
  readonly onProgress?: (p: ReadProgress) => void
  /** The input's size in bytes, for the progress. */
  readonly total?: number
  /** Work this long (ms) between yields to the event loop. */
  readonly sliceMs?: number
  /** How to yield; a macrotask by default (tests pass their own). */
  readonly yieldNow?: () => Promise<void>
}

export class ReadCancelled extends Error {
  override readonly name = 'ReadCancelled'
  constructor() {
    super('reading the report was cancelled')
  }
}

const STRING_CHUNK = 64 * 1024

const macrotask = () =>
  new Promise<void>((resolve) => {
    const ch = new MessageChannel()
    ch.port1.onmessage = () => {
      ch.port1.close()
      resolve()
    }
    ch.port2.postMessage(null)
  })

async function* chunksOf(input: ReadableStream<Uint8Array> | string): AsyncGenerator<string | Uint8Array> {
  if (typeof input === 'string') {
    for (let i = 0; i < input.length; i += STRING_CHUNK) yield input.slice(i, i + STRING_CHUNK)
    return
  }
  const reader = input.getReader()
  try {
    for (;;) {
      const { done, value } = await reader.read()
      if (done) return
      yield value
    }
  } finally {
    reader.releaseLock()
  }
}

/** Reads the whole report. @throws ReadCancelled when `signal` aborts. */
export async function readReport(
  input: ReadableStream<Uint8Array> | string,
  o: ReadOptions = {},
): Promise<AuditReport> {
  const acc = new AuditAccumulator()
  const decoder = new TextDecoder('utf-8')
  const sliceMs = o.sliceMs ?? 12
  const yieldNow = o.yieldNow ?? macrotask
  let partial = ''
  /** The length of a line being skipped because it is over the limit, or -1. */
  let skipping = -1
  let line = 0
  let bytes = 0
  let t0 = performance.now()

  const endLine = (text: string) => {
    line++
    if (skipping >= 0) {
      const length = skipping + text.length
      skipping = -1
      acc.add(
        { kind: 'error', error: { line, message: `the line is ${length} characters long (at most ${LIMITS.line})` } },
        line,
      )
    } else acc.add(parseAuditLine(text, line), line)
  }

  const feed = async (text: string) => {
    let start = 0
    for (;;) {
      const nl = text.indexOf('\n', start)
      if (nl < 0) break
      const piece = text.slice(start, nl)
      endLine(partial === '' ? piece : partial + piece)
      partial = ''
      start = nl + 1
      if (performance.now() - t0 > sliceMs) {
        if (o.signal?.aborted) throw new ReadCancelled()
        o.onProgress?.({ lines: line, bytes, total: o.total ?? null })
        await yieldNow()
        t0 = performance.now()
      }
    }
    const rest = text.slice(start)
    if (skipping >= 0) skipping += rest.length
    else if (partial.length + rest.length > LIMITS.line) {
      skipping = partial.length + rest.length
      partial = ''
    } else partial += rest
  }

  for await (const chunk of chunksOf(input)) {
    if (o.signal?.aborted) throw new ReadCancelled()
    bytes += typeof chunk === 'string' ? chunk.length : chunk.byteLength
    await feed(typeof chunk === 'string' ? chunk : decoder.decode(chunk, { stream: true }))
  }
  await feed(decoder.decode())
  if (partial !== '' || skipping >= 0) endLine(partial)
  o.onProgress?.({ lines: line, bytes, total: o.total ?? null })
  return acc.report()
}
