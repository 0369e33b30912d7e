/**
 * The edit session's pure parts: the open log's updates as editable entries, the edited
 * log as a bundle (the same path as a pasted log) and as the source the session opens, the
 * views builders read, and an edit's failure as one line. Loaded with the first edit
 * (./useEditSession.ts).
 */
import { decodeUpdate } from '../../../core/decode/update'
import { applyEdits, type EditableEntry, EditError, type EditOp, PatchSyntaxError } from '../../../core/encode/edit'
import { encodeBundleJson } from '../../../core/encode/update'
import type { AssociationState, UnverifiedUpdate } from '../../../core/types'
import type { TransferStep } from '../../../worker/transfer'
import type { EditedMark, Loaded, Source } from '../../trace/useInspector'
import type { EditBase, EditStep } from './break-it'

/** The updates of a replayed log, in replay order, with their exact bytes (absent when the input had none). */
export function entriesOf(steps: readonly TransferStep[]): EditableEntry[] {
  return steps.map((s) => {
    const base = { sequenceId: s.sequenceId, bytes: s.bytes ?? undefined, edited: false }
    return s.serverTimestampNs === undefined ? base : { ...base, serverTimestampNs: s.serverTimestampNs }
  })
}

/** The edited log as bundle JSON. An entry with no bytes cannot be carried and is left out (`left` counts them). */
export function editedBundle(
  inboxId: string | null,
  entries: readonly EditableEntry[],
): { readonly bundle: string; readonly left: number } {
  const updates = entries.flatMap((e) => (e.bytes ? [{ sequenceId: e.sequenceId, bytes: e.bytes }] : []))
  return {
    bundle: encodeBundleJson({ ...(inboxId ? { inboxId } : {}), updates }),
    left: entries.length - updates.length,
  }
}

/** An update's bytes decoded, or null when they do not decode (or there are none). */
export function decoded(bytes: Uint8Array | null): UnverifiedUpdate | null {
  if (!bytes) return null
  try {
    return decodeUpdate(bytes)
  } catch {
    return null
  }
}

/** What the break-it builders read of a replayed log: each step decoded again from its bytes, and the head. */
export function editBaseOf(steps: readonly TransferStep[], head: AssociationState | null): EditBase {
  const out: EditStep[] = steps.map((s) => ({
    sequenceId: s.sequenceId,
    status: s.status,
    rule: s.rule,
    update: s.update ? decoded(s.bytes) : null,
    signatures: s.signatures,
  }))
  return { steps: out, head: head ? { members: new Set(head.members.keys()), recovery: head.recovery.id } : null }
}

/**
 * An edit's failure as one specific line: the operation (by what the user did, not its
 * index in the session's patch) and the core's reason.
 */
export function editFailure(what: string, e: unknown): string {
  if (e instanceof EditError || e instanceof PatchSyntaxError)
    return `${what}: ${e.message.replace(/^patch operation \d+: /, '')}`
  return `${what}: ${e instanceof Error ? e.message : String(e)}`
}

function stem(s: Source): string {
  return (s.example ?? s.name).replace(/\.[a-z0-9]+$/i, '').replace(/[^a-zA-Z0-9._-]+/g, '-') || 'log'
}

/**
 * The edited copy of `root` (the original, or the edited copy a link held) with `ops`
 * applied to its updates, as the source to open, marked with its original. Throws the
 * core's reason when an operation cannot be applied.
 */
export function editedSource(root: Loaded, ops: readonly EditOp[]): Source {
  const bundle = editedBundle(root.inboxId, applyEdits(entriesOf(root.model.steps), ops)).bundle
  const rootMark = root.source.edited
  const mark: EditedMark = {
    originalLabel: rootMark?.originalLabel ?? root.source.label,
    ...((rootMark?.originalExample ?? root.source.example)
      ? { originalExample: rootMark?.originalExample ?? root.source.example! }
      : {}),
    ...(rootMark ? (rootMark.original ? { original: rootMark.original } : {}) : { original: root.source }),
    edits: (rootMark?.edits ?? 0) + ops.length,
  }
  return {
    kind: 'paste',
    label: `edited copy of ${mark.originalLabel}`,
    name: `${stem(rootMark?.original ?? root.source).replace(/-edited$/, '')}-edited`,
    input: bundle,
    verifier: root.source.verifier,
    edited: mark,
  }
}
