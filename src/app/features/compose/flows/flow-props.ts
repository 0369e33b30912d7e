import type { AssociationState } from '../../../../core/types'
import type { SmartWalletVerifier } from '../../../../core/verify/port'
import type { SignerRegistry } from '../../../model/app-signer'
import type { AppendUpdate } from '../useSignDraft'
import type { FlowId } from './flow-ids'
import type { InboxHealth } from './health'

/** What the shell gives the Inbox tasks drawer (the node's calls come from the node service). */
export interface FlowsProps {
  /** The open log's head state; null when no inbox is open. */
  readonly state: AssociationState | null
  /** Why the open log takes no new update (it stops at a rejected or pending update); null when it does. */
  readonly blocked: string | null
  /** Updates in the open log (each one a stored entry on the network). */
  readonly logEntries: number
  /** The deployment's limit of stored updates per inbox (useLogLimit; set in the Settings dialog). */
  readonly logLimit: number
  /** Opens the Settings dialog, where the log limit is set. */
  readonly onSettings: () => void
  readonly flow: FlowId
  readonly onFlow: (flow: FlowId) => void
  readonly onAppend: AppendUpdate
  /** Opens the inbox's log as the node serves it now (replacing the open log). */
  readonly refetch: (inboxId: string) => Promise<void>
  readonly onClose: () => void
}

/** What each task gets: the panel's props, the signers and the verifier, the head state and its health. */

export interface FlowProps extends FlowsProps {
  readonly registry: SignerRegistry
  /** Judges smart contract wallet (erc_6492) signatures on the configured chains (IDENT-060, IDENT-061). */
  readonly smartWallets: SmartWalletVerifier
  readonly state: AssociationState
  readonly health: InboxHealth
  readonly ceiling?: number
}
