/**
 * The Settings dialog, composed from the features that own each setting: the network
 * profiles and the local node (features/network, features/settings), the chain routes
 * (inside the dialog), the log limit and the installation ceiling (features/compose).
 */
import { CeilingSetting } from '../features/compose/flows/CeilingSetting'
import { LogLimitSetting } from '../features/compose/flows/LogLimitSetting'
import { ProfilesSettings } from '../features/network/components/ProfilesSettings'
import { defaultNodeUrl } from '../features/settings/node-url'
import { SettingsDialog } from '../features/settings/SettingsDialog'
import { ErrorBoundary } from '../ui/ErrorBoundary'
import type { LogSession } from './useLogSession'

export function Settings({
  session,
  logLimit,
  onLogLimit,
  onClose,
}: {
  session: LogSession
  logLimit: number
  onLogLimit: (limit: number) => void
  onClose: () => void
}) {
  return (
    <ErrorBoundary label="The settings">
      <SettingsDialog
        onClose={onClose}
        profiles={
          <ProfilesSettings
            net={session.net}
            localUrl={session.nodeUrl}
            defaultLocalUrl={defaultNodeUrl()}
            onLocalUrl={session.setNodeUrl}
          />
        }
        limits={
          <>
            <LogLimitSetting limit={logLimit} onChange={onLogLimit} />
            <CeilingSetting />
          </>
        }
      />
    </ErrorBoundary>
  )
}
