/**
 * An edit operation as one line of the edits list. Apart from ./session.ts (which decodes
 * and encodes updates) so the edit session's hook carries no protobuf code to the first screen.
 */
import type { EditOp } from '../../../core/encode/edit'

const pathText = (p: readonly (string | number)[]): string => p.join('/')

/** One line per operation, as the edits list shows it. */
export function describeOp(op: EditOp): string {
  switch (op.op) {
    case 'drop':
      return `drop sequence id ${op.seq}`
    case 'move':
      return `move sequence id ${op.seq} to ${op.to}`
    case 'duplicate':
      return `duplicate sequence id ${op.seq} as ${op.to}`
    case 'set':
      return `set ${pathText(op.path)} of sequence id ${op.seq} to ${JSON.stringify(op.value)}`
    case 'remove':
      return `remove ${pathText(op.path)} of sequence id ${op.seq}`
    case 'set-bytes':
      return `replace the bytes of sequence id ${op.seq} (${op.bytes.length} bytes)`
    case 'move-action':
      return `move action ${op.from} of sequence id ${op.seq} to position ${op.to}`
    case 'copy-action':
      return `copy action ${op.from} of sequence id ${op.seq} to position ${op.to}`
  }
}
