/**
 * The one Settings dialog: the network profiles (with the local node's URL), the chain
 * routes (read from the providers layer) and the deployment's limits (log entries per
 * inbox, installations). Features do not import each other, so the shell passes the
 * network profiles and the limits in as rendered sections.
 */
import type { ReactNode } from 'react'
import { QueryGate } from '../../providers'
import { Dialog } from '../../ui/Dialog'
import { ChainRoutesField } from './ChainRoutesField'

export interface SettingsDialogProps {
  readonly onClose: () => void
  /** The network profiles section (features/network). */
  readonly profiles: ReactNode
  /** The deployment's limits (features/compose: the log limit, the installation ceiling). */
  readonly limits: ReactNode
}

export function SettingsDialog({ onClose, profiles, limits }: SettingsDialogProps) {
  return (
    <Dialog title="Settings" onClose={onClose} className="settings-dialog">
      {/* The node status and the chain routes' checks are queries: a failed load of their layer shows in the dialog. */}
      <QueryGate view="Settings">
        <section aria-labelledby="settings-profiles">
          <h3 id="settings-profiles">Network profiles</h3>
          {profiles}
        </section>
        <section aria-labelledby="settings-routes">
          <h3 id="settings-routes">Chain routes</h3>
          <ChainRoutesField />
        </section>
        <section aria-labelledby="settings-limits">
          <h3 id="settings-limits">Limits of the deployment</h3>
          {limits}
        </section>
      </QueryGate>
    </Dialog>
  )
}
