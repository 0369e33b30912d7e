/**
 * The decoder's two halves. Most updates are read by the one-pass reader of the common
 * form (./direct.ts), which needs no protobuf runtime; the rest (unknown fields, IDENT-001
 * failures, proto3 JSON, a single update's detection) go through the strict wire pass and
 * protobuf-es (./update.ts), about 90 KB of code in a browser bundle. This module is the
 * first half's door to the second: ./update.ts provides it when it is evaluated, and
 * ./record-eager.ts imports ./update.ts wherever the decoder is used, so in Node and in the
 * page nothing changes. The replay worker is built with ./record-eager.ts left out
 * (vite.config.ts `lazyRecordReader`): there a log that needs the second half throws
 * RecordReaderPending, and the worker imports ./update.ts and reads the input again
 * (src/worker/replay.worker.ts), so a log of the common form loads no protobuf runtime.
 */
import type { UnverifiedUpdate } from '../types'
import { decodeDirect } from './direct'
import type { WireProblem } from './wire'

/** What only the protobuf half (./update.ts) can do. */
export interface RecordReader {
  /** ./update.ts decodeUpdateOfRecord: the strict pass, fromBinary, the IDENT-001 checks. */
  decodeUpdateOfRecord(bytes: Uint8Array): UnverifiedUpdate
  /** ./update.ts decodeUpdateFromJson. */
  decodeUpdateFromJson(json: unknown, path: string): UnverifiedUpdate
  /** The strict wire pass of `bytes` as an IdentityUpdate (./wire.ts checkWire). */
  checkUpdateWire(bytes: Uint8Array): WireProblem | null
  /** Whether `bytes`, read as an IdentityUpdate, set none of its listed fields (unknown fields only). */
  holdsNoUpdateField(bytes: Uint8Array): boolean
}

/** Thrown where the protobuf half is needed and not loaded (only in a build that leaves it out). */
export class RecordReaderPending extends Error {
  constructor() {
    super('the protobuf decoder is not loaded yet')
    this.name = 'RecordReaderPending'
  }
}

let reader: RecordReader | null = null

/** Called by ./update.ts when it is evaluated. */
export function provideRecordReader(r: RecordReader): void {
  reader = r
}

/** The protobuf half. @throws RecordReaderPending when it is not loaded */
export function recordReader(): RecordReader {
  if (!reader) throw new RecordReaderPending()
  return reader
}

/**
 * Decodes IdentityUpdate protobuf bytes under IDENT-001. The result keeps `bytes`
 * itself (the same array, not a copy, not a re-encoding).
 * @throws RuleViolation('IDENT-001', actionIndex | null, message)
 */
export function decodeUpdate(bytes: Uint8Array): UnverifiedUpdate {
  return decodeDirect(bytes) ?? recordReader().decodeUpdateOfRecord(bytes)
}
