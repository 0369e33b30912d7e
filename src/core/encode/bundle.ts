/** The project's log bundle file (contract input format 1), written from exact update bytes. */
import { bytesToBase64, bytesToHex } from '../../crypto/bytes'

/** A log for a bundle file. */
export interface BundleLog {
  readonly inboxId?: string
  readonly updates: readonly { readonly sequenceId: bigint; readonly bytes: Uint8Array }[]
}

/**
 * The project's log bundle JSON (2-space indented, with a final newline): sequence ids
 * as decimal strings, each update's exact bytes as lowercase hex or standard base64.
 */
export function encodeBundleJson(log: BundleLog, encoding: 'hex' | 'base64' = 'hex'): string {
  const updates = log.updates.map((u) =>
    encoding === 'hex'
      ? { sequence_id: u.sequenceId.toString(), update_hex: bytesToHex(u.bytes) }
      : { sequence_id: u.sequenceId.toString(), update_base64: bytesToBase64(u.bytes) },
  )
  const doc = log.inboxId === undefined ? { updates } : { inbox_id: log.inboxId, updates }
  return `${JSON.stringify(doc, null, 2)}\n`
}
