/**
 * The report of ../shared/contracts/cli.md (`replay --json`): one JSON object per
 * log, built from the Trace. Identifiers use the identifier text of spec section 3;
 * uint64 values are decimal strings; seen replay keys are lowercase hex, sorted.
 */
import { membersInOrder } from './member-order'
import type { Trace } from './trace'
import type { AssociationState, Member, MemberId } from './types'

interface ReportMember {
  kind: MemberId['kind']
  identifier: string
  adder: string | null
  client_timestamp_ns: string
  chain_id: string | null
}

export interface ReportState {
  inbox_id: string
  sequence_id: string
  members: ReportMember[]
  recovery: { kind: MemberId['kind']; identifier: string; chain_id: string | null }
  handles: string[]
  claim_count: number
  seen_replay_keys: string[]
}

interface ReportUpdate {
  sequence_id: string
  status: 'applied' | 'rejected' | 'pending' | 'not_applied'
  rule: string | null
  action_index: number | null
  message: string
}

export interface Report {
  file: string
  inbox_id: string | null
  ok: boolean
  updates: ReportUpdate[]
  state: ReportState | null
  error?: string
}

const chain = (c: bigint | null): string | null => (c === null ? null : c.toString())

function member(m: Member): ReportMember {
  return {
    kind: m.id.kind,
    identifier: m.id.text,
    adder: m.adder ? m.adder.text : null,
    client_timestamp_ns: m.clientTimestampNs.toString(),
    chain_id: chain(m.chainId),
  }
}

export function stateReport(s: AssociationState): ReportState {
  const members = membersInOrder(s).map(member)
  return {
    inbox_id: s.inboxId,
    sequence_id: s.sequenceId.toString(),
    members,
    recovery: { kind: s.recovery.id.kind, identifier: s.recovery.id.text, chain_id: chain(s.recovery.chainId) },
    handles: [...s.handles],
    claim_count: s.claimCount,
    seen_replay_keys: [...s.seen].sort(),
  }
}

/** One update's row of the contract report. */
export function reportRow(s: Trace['steps'][number]): ReportUpdate {
  return {
    sequence_id: s.sequenceId.toString(),
    status: s.status,
    rule: s.rule,
    action_index: s.actionIndex,
    message: s.message,
  }
}

/**
 * `JSON.stringify(reportRow(s))`, written out: no row object per update, and only the
 * rule, action index and message go through JSON.stringify (a sequence id is decimal digits, a status
 * one of four words, an action index an integer). Nearly every row is the same empty
 * applied row but for its sequence id.
 */
function rowJson(s: Trace['steps'][number]): string {
  const rule = s.rule === null ? 'null' : JSON.stringify(s.rule)
  const at = s.actionIndex === null ? 'null' : JSON.stringify(s.actionIndex)
  const message = s.message === '' ? '""' : JSON.stringify(s.message)
  return `{"sequence_id":"${s.sequenceId}","status":"${s.status}","rule":${rule},"action_index":${at},"message":${message}}`
}

/** The contract report; `at` replaces `state` by the state at a sequence id (IDENT-070). */
export function toReport(trace: Trace, file: string, at?: { state: AssociationState | null; error?: string }): Report {
  const report: Report = {
    file,
    inbox_id: trace.inboxId,
    ok: trace.ok,
    updates: trace.steps.map(reportRow),
    state: null,
  }
  const state = at ? at.state : trace.head
  report.state = state ? stateReport(state) : null
  if (at?.error) report.error = at.error
  return report
}

/**
 * The contract report as JSON text in pieces, exactly `JSON.stringify(toReport(…))`
 * (issue #14, finding 8): a log of a million updates is written row by row, never built
 * as a million report rows and one string of 130 MB beside the Trace. Each piece is at
 * most about `chunk` characters, or one row or the state when that is longer.
 */
export function* reportJsonPieces(
  trace: Trace,
  file: string,
  at?: { state: AssociationState | null; error?: string },
  chunk = 1 << 16,
): Generator<string> {
  let buf = `{"file":${JSON.stringify(file)},"inbox_id":${JSON.stringify(trace.inboxId)},"ok":${trace.ok},"updates":[`
  const steps = trace.steps
  for (let i = 0; i < steps.length; i++) {
    buf += (i === 0 ? '' : ',') + rowJson(steps[i]!)
    if (buf.length >= chunk) {
      yield buf
      buf = ''
    }
  }
  const state = at ? at.state : trace.head
  buf += `],"state":${state ? JSON.stringify(stateReport(state)) : 'null'}`
  if (at?.error) buf += `,"error":${JSON.stringify(at.error)}`
  yield `${buf}}`
}
