/**
 * The signature text (spec section 3, IDENT-020): built by the validator from the
 * update's own inbox_id, client_timestamp_ns and actions, never taken from the
 * update. UTF-8, single line feeds, no line feed after the last line.
 */
import type { WireAction } from '../types'
import { memberIdentifierText } from './identifier'
import { formatTimestamp } from './timestamp'

interface ActionLines {
  /** The text after "- " on the first line. */
  readonly firstLine: string
  readonly label: 'Owner' | 'ID' | 'Address' | 'Passkey' | 'Handle'
  /** The identifier text or handle as carried. */
  readonly text: string
}

const ADD_LINES = {
  installation: ['Grant messaging access to app', 'ID'],
  ethereum: ['Link address to inbox', 'Address'],
  passkey: ['Link passkey to inbox', 'Passkey'],
} as const

const REVOKE_LINES = {
  installation: ['Revoke messaging access from app', 'ID'],
  ethereum: ['Unlink address from inbox', 'Address'],
  passkey: ['Unlink passkey from inbox', 'Passkey'],
} as const

/** The first line and label of an action, from the section 3 action table. */
function actionLines(action: WireAction): ActionLines {
  switch (action.kind) {
    case 'create_inbox':
      return { firstLine: 'Create inbox', label: 'Owner', text: action.initialIdentifier }
    case 'add': {
      const [firstLine, label] = ADD_LINES[action.newMemberIdentifier.kind]
      return { firstLine, label, text: memberIdentifierText(action.newMemberIdentifier) }
    }
    case 'revoke': {
      const [firstLine, label] = REVOKE_LINES[action.memberToRevoke.kind]
      return { firstLine, label, text: memberIdentifierText(action.memberToRevoke) }
    }
    case 'change_recovery_address':
      return { firstLine: 'Change inbox recovery address', label: 'Address', text: action.newRecoveryIdentifier }
    case 'claim_handle':
      return { firstLine: 'Claim handle', label: 'Handle', text: action.handle }
  }
}

/** The two lines an action contributes. */
export function actionText(action: WireAction): string {
  const { firstLine, label, text } = actionLines(action)
  return `- ${firstLine}\n  (${label}: ${text})`
}

export interface SignatureTextInput {
  readonly inboxId: string
  readonly clientTimestampNs: bigint
  readonly actions: readonly WireAction[]
}

const SIGNATURE_TEXT_HEADER = 'XMTP : Authenticate to inbox'
const SIGNATURE_TEXT_FOOTER = 'For more info: https://xmtp.org/signatures'

export function signatureText(update: SignatureTextInput): string {
  const lines = update.actions.map(actionText).join('\n')
  return (
    `${SIGNATURE_TEXT_HEADER}\n\n` +
    `Inbox ID: ${update.inboxId}\n` +
    `Current time: ${formatTimestamp(update.clientTimestampNs)}\n\n` +
    `${lines}\n\n` +
    SIGNATURE_TEXT_FOOTER
  )
}

/**
 * Line ranges (0-based, inclusive) of each action's two lines in the text, for
 * highlighting: the header takes lines 0..4, so action i is at 5+2i and 6+2i.
 */
export function actionLineRange(actionIndex: number): readonly [number, number] {
  return [5 + 2 * actionIndex, 6 + 2 * actionIndex]
}
