/**
 * Opening an audited inbox in the inspector at its first failing update (or its head
 * when it had none): fetched from the node the report names in `source` when that is a
 * URL, or read from the log file the user hands over for a file source (the report
 * names the file by the path the audit was given, which a browser cannot read by
 * itself). Each failure is a sentence saying what to do instead.
 */
import { readLogs } from '../../../core/decode/logs'
import { isDecoded } from '../../../core/decode/entry'
import type { InboxLog } from '../../../core/types'
import type { InspectRequest } from '../../model/inspect-request'
import type { AuditRow } from './report'

/** A row that names an inbox (an unreadable file's row names none: there is nothing to open). */
export type OpenableRow = AuditRow & { readonly inboxId: string }

export function isOpenable(row: AuditRow): row is OpenableRow {
  return row.inboxId !== null
}

export type OpenPlan =
  | { readonly kind: 'node'; readonly url: string }
  | { readonly kind: 'file'; readonly path: string }

/** Where the row's log can be read from. */
export function planOf(row: AuditRow): OpenPlan {
  let u: URL | null = null
  try {
    u = new URL(row.source)
  } catch {
    u = null
  }
  if (u && (u.protocol === 'http:' || u.protocol === 'https:')) return { kind: 'node', url: row.source }
  return { kind: 'file', path: row.source }
}

/** The step to open at: the first failure (its failing action), else the head. */
function stepOf(row: AuditRow): InspectRequest['step'] {
  const seq = row.failure?.sequenceId ?? row.head
  if (seq === null) return undefined
  return { sequenceId: BigInt(seq), action: row.failure?.actionIndex ?? 0 }
}

/** The inbox a log is of: the id its container names, else the one its first decoded update names. */
function inboxOf(log: InboxLog): string | null {
  if (log.inboxId) return log.inboxId
  for (const e of log.entries) if (isDecoded(e.update)) return e.update.inboxId
  return null
}

export class OpenInboxError extends Error {
  override readonly name = 'OpenInboxError'
}

/** The request that opens `row`'s inbox from a log file the user chose. @throws OpenInboxError */
export function requestFromFile(row: OpenableRow, bytes: Uint8Array, fileName: string): InspectRequest {
  let logs: InboxLog[]
  try {
    logs = readLogs(bytes, fileName)
  } catch (e) {
    throw new OpenInboxError(`${fileName} could not be read as a log: ${e instanceof Error ? e.message : String(e)}`)
  }
  const ids = logs.map(inboxOf)
  const index = ids.indexOf(row.inboxId)
  if (index < 0) {
    const held = [...new Set(ids.map((id) => id ?? 'an inbox with no decodable update'))]
    throw new OpenInboxError(
      `${fileName} holds no log of inbox ${row.inboxId}: it holds ${held.slice(0, 3).join(', ')}${held.length > 3 ? ` and ${held.length - 3} more` : ''}`,
    )
  }
  const step = stepOf(row)
  return {
    kind: 'file',
    label: `${fileName}: inbox ${row.inboxId.slice(0, 10)}… (from the audit report)`,
    name: fileName,
    input: bytes,
    logIndex: index,
    ...(step ? { step } : {}),
  }
}

/** The request that opens `row`'s inbox from a node's log bundle. */
export function requestFromNode(row: OpenableRow, url: string, bundle: string): InspectRequest {
  const step = stepOf(row)
  return {
    kind: 'node',
    label: `${url}: inbox ${row.inboxId.slice(0, 10)}… (from the audit report)`,
    name: `audit-${row.inboxId}`,
    input: bundle,
    ...(step ? { step } : {}),
  }
}
