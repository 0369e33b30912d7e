/**
 * The inbox tasks drawer under test: the providers it reads (a QueryClient, the signer
 * registry, the chain routes' verifier, a node service whose answers the test gives and
 * whose calls it counts) around FlowsPanel, on an inbox built with the signing testkit.
 */
import { QueryClient, QueryClientProvider } from '@tanstack/react-query'
import { render } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { useState } from 'react'
import type { ClaimPolicy } from '../../../../network/claim-policy'
import type { AssociationState } from '../../../../core/types'
import type { Signer } from '../../../../signing'
import { ChainRoutesContext, SignerRegistryContext } from '../../../model/app-context'
import {
  type HandleHolderLike,
  type NodeQuery,
  type NodeService,
  NodeServiceContext,
} from '../../../model/node-service'
import { heldSigner, inboxWithHandle, installationKeys, wallet } from '../compose-testkit'
import type { FlowId } from './flow-ids'
import { FlowsPanel } from './FlowsPanel'

export const installations = installationKeys.slice(0, 3)

/** An inbox created by the wallet (the recovery identifier), with three installations and the handle `nick`. */
export const inbox = (): Promise<AssociationState> => inboxWithHandle(installations)

export interface NodeAnswers {
  readonly holders?: Readonly<Record<string, HandleHolderLike>>
  readonly policy?: ClaimPolicy | null
  readonly newest?: bigint | null
}

/** A node service that answers from `answers` and counts what it was asked. */
function fakeNode(answers: NodeAnswers) {
  const asked: string[] = []
  const q = <T,>(name: string, arg: string, value: () => T): NodeQuery<T> => ({
    queryKey: ['fake-node', name, arg],
    queryFn: async () => {
      asked.push(`${name} ${arg}`)
      return value()
    },
  })
  const service: NodeService = {
    url: 'http://127.0.0.1:9',
    newest: (inboxId) => q('newest', inboxId, () => answers.newest ?? null),
    handleOwner: (h) => q('handleOwner', h, () => answers.holders?.[h]?.inboxId ?? null),
    handleHolder: (h) =>
      q('handleHolder', h, () => answers.holders?.[h] ?? { inboxId: null, backed: false, reason: 'names none' }),
    claimPolicy: () => q('claimPolicy', '', () => answers.policy ?? null),
    inboxBundle: (inboxId) => q('inboxBundle', inboxId, () => '{}'),
    publish: {
      mutationKey: ['fake-node', 'publish'],
      mutationFn: async () => ({ kind: 'unreachable', message: 'a test node publishes nothing' }),
    },
  }
  return { service, asked }
}

function Tasks({ state, first }: { state: AssociationState; first: FlowId }) {
  const [flow, setFlow] = useState<FlowId>(first)
  return (
    <FlowsPanel
      state={state}
      blocked={null}
      logEntries={5}
      logLimit={256}
      onSettings={() => undefined}
      flow={flow}
      onFlow={setFlow}
      onAppend={async () => ({ ok: false, message: 'not in this test' })}
      refetch={async () => undefined}
      onClose={() => undefined}
    />
  )
}

/** Renders the drawer on `flow`, this browser holding the wallet (and, given, installations). */
export function renderTasks(state: AssociationState, flow: FlowId, answers: NodeAnswers = {}, mine: Signer[] = []) {
  const node = fakeNode(answers)
  const client = new QueryClient({ defaultOptions: { queries: { retry: false } } })
  const signers = [
    heldSigner('local-ethereum', wallet, 'the wallet'),
    ...mine.map((s) => heldSigner('installation', s, 'this browser')),
  ]
  const registry = {
    signers,
    ready: true,
    newInstallationKey: () => Promise.reject(new Error('not in this test')),
    newEthereumKey: () => Promise.reject(new Error('not in this test')),
    newPasskey: () => Promise.reject(new Error('not in this test')),
  }
  const routes = {
    routes: [],
    setRoutes: () => [],
    verifier: { verify: () => Promise.reject(new Error('no chain in this test')) } as never,
  }
  const user = userEvent.setup()
  render(
    <QueryClientProvider client={client}>
      <ChainRoutesContext.Provider value={routes}>
        <SignerRegistryContext.Provider value={registry}>
          <NodeServiceContext.Provider value={node.service}>
            <Tasks state={state} first={flow} />
          </NodeServiceContext.Provider>
        </SignerRegistryContext.Provider>
      </ChainRoutesContext.Provider>
    </QueryClientProvider>,
  )
  return { user, asked: node.asked }
}
