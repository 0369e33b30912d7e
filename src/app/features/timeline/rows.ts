/**
 * What the timeline shows for each row (an action of an update), and the filter over
 * rows. Pure: a row's description is computed when it is drawn or searched.
 */
import type { ActionKind } from '../../../core/types'
import type { ActionStatus, Row, TraceModel } from '../../trace/trace-model'
import { KIND_LABEL } from '../../ui/format'

export interface RowView {
  readonly sequenceId: bigint
  readonly kind: ActionKind | 'undecodable'
  readonly kindLabel: string
  readonly subject: { readonly label: string; readonly text: string; readonly kind: string } | null
  readonly signers: readonly { readonly text: string; readonly verdict: string; readonly role: string }[]
  readonly clientTimestampNs: bigint | null
  readonly status: ActionStatus
  /** First action of its update (the sequence id is shown there). */
  readonly first: boolean
  readonly actionCount: number
}

export function describeRow(model: TraceModel, row: Row): RowView {
  const step = model.steps[row.k]!
  const a = row.i >= 0 ? step.update?.actions[row.i] : undefined
  const sigs = model.signaturesOf(row.k, row.i)
  return {
    sequenceId: step.sequenceId,
    kind: a ? a.kind : 'undecodable',
    kindLabel: a ? KIND_LABEL[a.kind] : 'undecodable update',
    subject: a ? a.subject : null,
    signers: sigs.map((s) => ({ text: s.signer?.text ?? '?', verdict: s.verdict, role: s.role })),
    clientTimestampNs: step.update?.clientTimestampNs ?? null,
    status: model.statusOf(row.k, row.i),
    first: row.i <= 0,
    actionCount: step.update?.actions.length ?? 0,
  }
}

export interface RowFilter {
  readonly kind: ActionKind | 'undecodable' | ''
  readonly status: ActionStatus | ''
  /** Matches the member / handle the action names or its signers (full or short text, any case). */
  readonly text: string
}

export const NO_FILTER: RowFilter = { kind: '', status: '', text: '' }

export function isFiltering(f: RowFilter): boolean {
  return f.kind !== '' || f.status !== '' || f.text.trim() !== ''
}

/**
 * What the filter reads of each row, built once per log (a WeakMap per row list): kind,
 * status and the lowercased texts it searches. Filtering a 10,000-update log per keystroke
 * then scans flat arrays instead of describing every row again.
 */
interface RowIndex {
  readonly kind: readonly (ActionKind | 'undecodable')[]
  readonly status: readonly ActionStatus[]
  readonly hay: readonly (readonly string[])[]
}
const INDEX = new WeakMap<readonly Row[], { model: TraceModel; index: RowIndex }>()

function rowIndex(model: TraceModel, rows: readonly Row[]): RowIndex {
  const hit = INDEX.get(rows)
  if (hit && hit.model === model) return hit.index
  const kind: (ActionKind | 'undecodable')[] = new Array(rows.length)
  const status: ActionStatus[] = new Array(rows.length)
  const hay: string[][] = new Array(rows.length)
  for (let j = 0; j < rows.length; j++) {
    const v = describeRow(model, rows[j]!)
    kind[j] = v.kind
    status[j] = v.status
    hay[j] = [v.subject?.text ?? '', ...v.signers.map((s) => s.text)].map((t) => t.toLowerCase())
  }
  const index = { kind, status, hay }
  INDEX.set(rows, { model, index })
  return index
}

export function filterRows(model: TraceModel, rows: readonly Row[], f: RowFilter): readonly Row[] {
  if (!isFiltering(f)) return rows
  const { kind, status, hay } = rowIndex(model, rows)
  const q = f.text.trim().toLowerCase()
  const [pre, suf] = q.split('…') // the short form 0x1234…abcd matches too
  const hit = (h: string) => h.includes(q) || (suf !== undefined && h.startsWith(pre!) && h.endsWith(suf))
  const out: Row[] = []
  for (let j = 0; j < rows.length; j++) {
    if (f.kind && kind[j] !== f.kind) continue
    if (f.status && status[j] !== f.status) continue
    if (q && !hay[j]!.some(hit)) continue
    out.push(rows[j]!)
  }
  return out
}
