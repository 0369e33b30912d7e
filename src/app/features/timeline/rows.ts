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
    status:
      row.i >= 0
        ? model.actionStatus(row.k, row.i)
        : step.status === 'rejected'
          ? 'rejected'
          : step.status === 'pending'
            ? 'pending'
            : step.status === 'applied'
              ? 'applied'
              : 'not_applied',
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

function matches(v: RowView, f: RowFilter): boolean {
  if (f.kind && v.kind !== f.kind) return false
  if (f.status && v.status !== f.status) return false
  const q = f.text.trim().toLowerCase()
  if (q) {
    const hay = [v.subject?.text ?? '', ...v.signers.map((s) => s.text)].map((t) => t.toLowerCase())
    const [pre, suf] = q.split('…') // the short form 0x1234…abcd matches too
    const hit = (h: string) => h.includes(q) || (suf !== undefined && h.startsWith(pre!) && h.endsWith(suf))
    if (!hay.some(hit)) return false
  }
  return true
}

export function filterRows(model: TraceModel, rows: readonly Row[], f: RowFilter): readonly Row[] {
  if (!isFiltering(f)) return rows
  return rows.filter((r) => matches(describeRow(model, r), f))
}
