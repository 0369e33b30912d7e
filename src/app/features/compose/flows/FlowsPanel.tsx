/**
 * Guided flows for inbox owners: the inbox's health, and task-shaped flows on top of the
 * composer's signing (useSignDraft): clean up installations in one update, claim a
 * handle, rotate the recovery identifier. Each says in plain words what will change
 * before any prompt, shows the core's dry run (never rules of its own), refuses with the
 * rule when the core says no, and ends with the signed update appended to the open log
 * and published to the node (kept and exportable when the node refuses or cannot be
 * reached). Reachable by URL: `?flow=health|cleanup|claim|recovery`.
 */
import { useId, useMemo } from 'react'
import { useChainRoutesContext, useSignerRegistryContext } from '../../../model/app-context'
import { Tabs } from '../../../ui/Tabs'
import { useCeiling } from '../useCeiling'
import { ClaimFlow } from './ClaimFlow'
import { CleanupFlow } from './CleanupFlow'
import { FLOW_TITLE, FLOWS } from './flow-ids'
import type { FlowsProps } from './flow-props'
import { HealthView } from './HealthView'
import { inboxHealth } from './health'
import { RecoveryFlow } from './RecoveryFlow'

const TABS = FLOWS.map((id) => ({ id, label: FLOW_TITLE[id] }))

export function FlowsPanel(props: FlowsProps) {
  const headId = useId()
  const tabsId = useId().replace(/:/g, '')
  const { state, logLimit, onSettings } = props
  // The installation ceiling the registration uses (a setting, CONF-044).
  const ceiling = useCeiling()
  // The signers and the chain routes' verifier, from the providers layer.
  const registry = useSignerRegistryContext()
  const smartWallets = useChainRoutesContext().verifier
  const shared = { ...props, registry, smartWallets }
  const health = useMemo(
    () => (state ? inboxHealth(state, { logEntries: props.logEntries, logLimit, ceiling }) : null),
    [state, props.logEntries, logLimit, ceiling],
  )
  return (
    <section className="compose panel flows" aria-labelledby={headId}>
      <div className="compose-head">
        <h2 id={headId}>Inbox tasks</h2>
        <div className="spacer" />
        <button type="button" onClick={props.onClose} aria-label="Close the inbox tasks">
          Close
        </button>
      </div>
      <Tabs tabs={TABS} active={props.flow} onChange={props.onFlow} label="Inbox task" idPrefix={`flows${tabsId}`}>
        {!state || !health ? (
          <p className="note">Open an inbox's log first: the tasks work on the state replayed from it.</p>
        ) : props.flow === 'health' ? (
          <HealthView health={health} state={state} onFlow={props.onFlow} onSettings={onSettings} />
        ) : props.blocked ? (
          <p className="note warn">
            {props.blocked} A task signs an update on top of the head state, so it needs a log whose every update
            applies.
          </p>
        ) : props.flow === 'cleanup' ? (
          <CleanupFlow {...shared} state={state} health={health} ceiling={ceiling} />
        ) : props.flow === 'claim' ? (
          <ClaimFlow {...shared} state={state} health={health} />
        ) : (
          <RecoveryFlow {...shared} state={state} health={health} />
        )}
      </Tabs>
    </section>
  )
}
