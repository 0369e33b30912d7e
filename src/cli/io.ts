/**
 * Input and output helpers of the command line: reading files, failing with one line.
 *
 * Issue #14: every input is read with a size bound (DEFAULT_MAX_INPUT, raised with
 * `--max-input <size>` after the subcommand); a FIFO or pipe is read without blocking on a
 * missing writer (a FIFO nobody writes reads as empty) and within the same bound; devices
 * and sockets are refused (`/dev/zero` and `/dev/urandom` would never end). A closed
 * pipe on standard output is a quiet success (EPIPE) and a full disk one line (ENOSPC).
 */
import { closeSync, constants, fstatSync, openSync, readSync, type Stats, statSync } from 'node:fs'
import { LogInputError } from '../core/errors'
import { concatBytes } from '../crypto/bytes'
import { readLogs } from '../core/decode/logs'
import type { InboxLog } from '../core/types'

/** Exit status 1: an input could not be read or parsed as a log at all. */
export class InputError extends Error {
  override readonly name = 'InputError'
}

/** Exit status 2: the command line itself is wrong. */
/** A command line used wrongly (exit status 2): the CLI's and the devnode's. */
export class UsageError extends Error {
  override readonly name = 'UsageError'
}

/** The default bound on one input file: 256 MiB. */
const DEFAULT_MAX_INPUT = 256 * 1024 * 1024

let maxInput = DEFAULT_MAX_INPUT

const SIZE = /^([0-9]+)([kKmMgG]i?[bB]?|[bB])?$/

/** Parses `--max-input`'s value: bytes, or with a K, M or G suffix (powers of 1024). */
function parseSize(v: string): number {
  const m = SIZE.exec(v)
  if (!m) throw new UsageError(`--max-input ${JSON.stringify(v)}: expected a size such as 512M, 2G or 1048576`)
  const unit = (m[2] ?? 'b')[0]!.toLowerCase()
  const n = Number(m[1]) * (unit === 'k' ? 1024 : unit === 'm' ? 1024 ** 2 : unit === 'g' ? 1024 ** 3 : 1)
  if (!Number.isSafeInteger(n) || n <= 0) throw new UsageError(`--max-input ${JSON.stringify(v)}: out of range`)
  return n
}

/**
 * Takes `--max-input <size>` (or `--max-input=<size>`) out of a subcommand's arguments and
 * sets the bound; the rest go to the subcommand.
 */
export function takeInputFlags(argv: readonly string[]): string[] {
  const rest: string[] = []
  maxInput = DEFAULT_MAX_INPUT
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i]!
    if (a === '--') {
      rest.push(...argv.slice(i))
      break
    }
    if (a === '--max-input') {
      const v = argv[++i]
      if (v === undefined) throw new UsageError('--max-input needs a size')
      maxInput = parseSize(v)
    } else if (a.startsWith('--max-input=')) maxInput = parseSize(a.slice('--max-input='.length))
    else rest.push(a)
  }
  return rest
}

function overLimit(path: string, what: string): InputError {
  return new InputError(
    `${path}: ${what} over the input limit of ${maxInput} bytes (raise it with --max-input <size>, e.g. --max-input 1G)`,
  )
}

function kindOf(st: Stats): string | null {
  if (st.isCharacterDevice()) return 'a character device'
  if (st.isBlockDevice()) return 'a block device'
  if (st.isSocket()) return 'a socket'
  return null
}

const sleeper = new Int32Array(new SharedArrayBuffer(4))

/**
 * Reads `fd` to its end, at most `maxInput` bytes; EAGAIN (a pipe with no data yet) waits.
 * `size` (a regular file's stat size) sizes the first read, so a file is read into one
 * array, never into chunks and then a copy of them (issue #14: every copy of the input is
 * one more time its size in memory). One byte more is asked for to see a file that grew.
 */
function readBounded(fd: number, path: string, size: number): Uint8Array {
  const chunks: Uint8Array[] = []
  let total = 0
  for (;;) {
    const want = chunks.length === 0 && size > 0 ? size + 1 : 1 << 20
    const buf = new Uint8Array(Math.min(want, maxInput - total + 1))
    let n: number
    try {
      n = readSync(fd, buf, 0, buf.length, null)
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code === 'EAGAIN') {
        Atomics.wait(sleeper, 0, 0, 10)
        continue
      }
      throw e
    }
    if (n === 0) break
    total += n
    if (total > maxInput) throw overLimit(path, 'holds more than')
    chunks.push(n === buf.length ? buf : buf.subarray(0, n))
  }
  if (chunks.length === 1) {
    const only = chunks[0]!
    // Read into the array it sized (one spare byte), or a short read of a large one: copied,
    // so the unused rest is not kept alive.
    return only.buffer.byteLength - only.byteLength <= 1 << 16 ? only : only.slice()
  }
  return concatBytes(...chunks)
}

export function readFile(path: string): Uint8Array {
  let fd: number | null = null
  try {
    // stat first: opening a FIFO for reading would wait for a writer.
    const st = statSync(path)
    if (st.isDirectory()) throw new InputError(`${path}: cannot read: is a directory`)
    const kind = kindOf(st)
    if (kind) throw new InputError(`${path}: cannot read: ${kind}, not a file (give a regular file or a pipe)`)
    if (st.isFile() && st.size > maxInput) throw overLimit(path, `is ${st.size} bytes,`)
    // O_NONBLOCK: a FIFO with no writer opens at once and reads as empty.
    fd = openSync(path, constants.O_RDONLY | (st.isFIFO() ? constants.O_NONBLOCK : 0))
    const kindNow = kindOf(fstatSync(fd))
    if (kindNow) throw new InputError(`${path}: cannot read: ${kindNow}, not a file`)
    return readBounded(fd, path, st.isFile() ? st.size : 0)
  } catch (e) {
    if (e instanceof InputError) throw e
    const code = (e as NodeJS.ErrnoException).code
    const why =
      code === 'ENOENT'
        ? 'no such file'
        : code === 'EISDIR'
          ? 'is a directory'
          : code === 'EACCES'
            ? 'permission denied'
            : (e as Error).message
    throw new InputError(`${path}: cannot read: ${why}`)
  } finally {
    if (fd !== null) closeSync(fd)
  }
}

/** Puts a pipe stream's handle in blocking mode (Node does so for stdio pipes on Windows only). */
function setBlocking(stream: NodeJS.WritableStream): void {
  const s = stream as { _type?: string; _handle?: { setBlocking?: (on: boolean) => number } }
  if (s._type === 'pipe') s._handle?.setBlocking?.(true)
}

/**
 * Standard output and error errors (issue #14, finding 6): a reader that closed the pipe
 * (`| head`) ends the command quietly with status 0; any other write error (ENOSPC on
 * `> /dev/full`) is one line on stderr and status 1, never a stack trace.
 */
export function guardOutput(
  stdout: NodeJS.WritableStream,
  stderr: NodeJS.WritableStream,
  exit: (status: number) => never,
): void {
  // A pipe is written as a file is, synchronously (issue #14, finding 8): replay writes its
  // report in pieces in one synchronous loop, and on a non-blocking pipe Node queued every
  // piece (130 MB for a million updates, then as much again in GC slack) until the loop
  // ended. A blocked reader now blocks the writer, as with any Unix filter.
  setBlocking(stdout)
  let failed = false
  stdout.on('error', (e: NodeJS.ErrnoException) => {
    if (failed) return
    failed = true
    if (e.code === 'EPIPE') exit(0)
    const why = e.code === 'ENOSPC' ? 'no space left on the device' : e.message
    try {
      stderr.write(`error: cannot write the output: ${why}\n`)
    } catch {
      // stderr is gone too: the status still says it.
    }
    exit(1)
  })
  stderr.on('error', () => undefined)
}

/** Reads one file as logs; a file that is not a log is an InputError naming what was tried. */
export function readLogFile(path: string): InboxLog[] {
  return readLogBytes(readFile(path), path)
}

/** Reads a file's bytes (./readFile) as logs; bytes that are not a log are an InputError naming what was tried. */
export function readLogBytes(bytes: Uint8Array, path: string): InboxLog[] {
  try {
    return readLogs(bytes, path)
  } catch (e) {
    if (e instanceof LogInputError) {
      const tried = e.attempts.length
        ? `; tried ${e.attempts.map((a) => `${a.format} (${a.detail}${a.where ? ` at ${a.where}` : ''})`).join(', ')}`
        : ''
      throw new InputError(`${path}: not a log: ${e.message}${tried}`)
    }
    throw e
  }
}

/** JSON with bigint written as decimal strings. */
export function jsonLine(value: unknown): string {
  return JSON.stringify(value, (_k, v: unknown) => (typeof v === 'bigint' ? v.toString() : v))
}
