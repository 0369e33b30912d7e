/** Input and output helpers of the command line: reading files, failing with one line. */
import { readFileSync } from 'node:fs'
import { LogInputError } from '../core/errors'
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

export function readFile(path: string): Uint8Array {
  try {
    return new Uint8Array(readFileSync(path))
  } catch (e) {
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
  }
}

/** Reads one file as logs; a file that is not a log is an InputError naming what was tried. */
export function readLogFile(path: string): InboxLog[] {
  const bytes = readFile(path)
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
