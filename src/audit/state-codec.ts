/**
 * A head state as bytes, for the results store (SQLite BLOB, PostgreSQL bytea), so a later
 * run resumes replay from it. The core's state is persistent immutable.js collections; its
 * plain form is the transfer format's StateDelta from no state (src/worker/transfer.ts, the
 * same form the local node saves its heads in, src/devnode/heads.ts), written with V8's
 * serializer (bigint and Uint8Array kept exactly). STATE_FORMAT is stored beside it: a
 * change of the core's rules or of the delta bumps it, and older heads are replayed again.
 */
import { deserialize, serialize } from 'node:v8'
import type { AssociationState } from '../core/types'
import { applyDelta, stateDelta, type StateDelta } from '../worker/transfer'

export const STATE_FORMAT = 1

export function encodeState(state: AssociationState): Uint8Array {
  return new Uint8Array(serialize(stateDelta(null, state)))
}

/** The state, or null when the bytes are not a saved state (the caller replays in full). */
export function decodeState(bytes: Uint8Array): AssociationState | null {
  try {
    return applyDelta(null, deserialize(bytes) as StateDelta)
  } catch {
    return null
  }
}
