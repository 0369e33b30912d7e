/**
 * The compact "what changed" of a presented step: a few lines read from the state diff
 * the inspector's Diff tab shows (model/state-diff.ts, passed in by the shell; this
 * feature reads only part of it: PresentedDiff). Pure.
 */
import type { MemberId } from '../../../core/types'
import type { RowMark as Mark, StateDiff } from '../../model/state-diff'
import { MEMBER_KIND_LABEL, shortId } from '../../ui/format'

/** The part of model/state-diff.ts's StateDiff that presenter mode reads (of a member: its id only). */
export interface PresentedDiff
  extends Pick<
    StateDiff,
    'created' | 'recovery' | 'handlesAdded' | 'displayHandle' | 'claimCount' | 'replayKeysAdded'
  > {
  readonly members: readonly {
    readonly mark: Mark
    readonly before: { readonly id: MemberId } | null
    readonly after: { readonly id: MemberId } | null
    readonly fields: readonly string[]
  }[]
}

export interface ChangeLine {
  readonly mark: Mark
  readonly text: string
}

/** Member lines shown before "… and N more". */
const MEMBERS_SHOWN = 6

const party = (id: MemberId): string => `${MEMBER_KIND_LABEL[id.kind]} ${shortId(id.text)}`
const bounded = (s: string): string => (s.length > 40 ? `${s.slice(0, 39)}…` : s)

/** The diff as short lines, members first; empty when the step changed nothing. */
export function changeLines(d: PresentedDiff): ChangeLine[] {
  const out: ChangeLine[] = []
  if (d.created) out.push({ mark: 'added', text: 'the inbox is created' })
  const members = d.members.slice(0, MEMBERS_SHOWN)
  for (const m of members) {
    const id = (m.after ?? m.before)!.id
    if (m.mark === 'added') out.push({ mark: 'added', text: `member ${party(id)}` })
    else if (m.mark === 'removed') out.push({ mark: 'removed', text: `member ${party(id)}` })
    else out.push({ mark: 'changed', text: `member ${party(id)}: ${m.fields.join(', ')}` })
  }
  if (d.members.length > members.length)
    out.push({ mark: 'changed', text: `… and ${d.members.length - members.length} more members` })
  if (d.recovery) {
    const from = d.recovery.before ? party(d.recovery.before.id) : 'none'
    const to = d.recovery.after ? party(d.recovery.after.id) : 'none'
    out.push({ mark: 'changed', text: `recovery identifier: ${from} → ${to}` })
  }
  for (const h of d.handlesAdded) out.push({ mark: 'added', text: `handle ${JSON.stringify(bounded(h))}` })
  if (d.displayHandle)
    out.push({
      mark: 'changed',
      text: `display handle: ${d.displayHandle.before === null ? 'none' : JSON.stringify(bounded(d.displayHandle.before))} → ${d.displayHandle.after === null ? 'none' : JSON.stringify(bounded(d.displayHandle.after))}`,
    })
  if (d.claimCount)
    out.push({ mark: 'changed', text: `claims made: ${d.claimCount.before} → ${d.claimCount.after} of 64` })
  if (d.replayKeysAdded > 0)
    out.push({
      mark: 'added',
      text: `${d.replayKeysAdded} replay key${d.replayKeysAdded === 1 ? '' : 's'} marked used (IDENT-050)`,
    })
  return out
}
