/**
 * The Open log… drawer (./drawers.tsx): the Open panel with the gallery's list and From a
 * node. A lazy chunk: the first screen opens its example without it (with no log open it
 * is the page, but not in the first moment of a gallery example the app opens by itself:
 * features/log-input/useAddressOpening.ts), and the idle prefetch loads it once the first
 * log shows (./prefetch.ts).
 */
import { useCallback } from 'react'
import { OpenPanel } from '../features/log-input/components/OpenPanel'
import { FromNode } from '../features/network/components/FromNode'
import type { DrawerContext } from './drawer-context'
import { InputProblem } from './Notices'

export function OpenDrawer({ session, close, openSettings }: DrawerContext) {
  const { loaded } = session.ins
  const a = session.actions
  const userActed = session.userActed
  // Typing or picking a file in the panel (the page itself before a log opens) is the user's intent to open one.
  const onIntent = useCallback(() => userActed('panel'), [userActed])
  return (
    <OpenPanel
      onPaste={a.onPaste}
      onFile={a.onFile}
      onUrl={a.onUrl}
      onExample={a.onExample}
      current={loaded?.source.example}
      onClose={loaded ? close : undefined}
      onIntent={onIntent}
      fromNode={<FromNode net={session.net} fetch={session.userFetch} onSettings={openSettings} />}
      problem={loaded ? <InputProblem ins={session.ins} /> : undefined}
    />
  )
}
