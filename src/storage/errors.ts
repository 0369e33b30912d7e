/**
 * The one error of the browser's storage (src/storage/idb.ts and the stores over it).
 * Kept apart from idb.ts and free of DOM types, so code that Node typechecks (record
 * checkers, their tests) can name it without pulling in the IndexedDB library's types.
 */
import { CodedError } from '../crypto/errors'

export type StorageErrorCode =
  /** No IndexedDB here (private mode in some browsers, a sandboxed frame, a blocked origin). */
  | 'unavailable'
  /** The database could not be opened in time (another tab holds an older version open). */
  | 'blocked'
  /** A read or write failed (quota, a closed database, a browser error). */
  | 'failed'
  /** A stored record does not have the shape this app writes. */
  | 'bad_record'

export class StorageError extends CodedError<StorageErrorCode> {
  override readonly name = 'StorageError'
}

/** `Name: message` of a DOMException or Error, for the messages above; never throws. */
export function errorText(e: unknown): string {
  if (e && typeof e === 'object' && 'message' in e) {
    const { name, message } = e as { name?: unknown; message?: unknown }
    return typeof name === 'string' && name ? `${name}: ${String(message)}` : String(message)
  }
  return e === null || e === undefined ? 'unknown error' : String(e)
}
