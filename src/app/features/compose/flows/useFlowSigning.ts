import type { ComposeBuild } from '../compose-model'
import type { partiesOf } from '../parties'
import { useSignDraft } from '../useSignDraft'
import type { FlowProps } from './flow-props'

/** A task's signing: the composer's useSignDraft over the task's draft. */

export function useFlowSigning(
  p: FlowProps,
  build: ComposeBuild,
  parties: ReturnType<typeof partiesOf>,
  claim: string | null,
  onSigned: () => void,
) {
  return useSignDraft({
    state: p.state,
    registry: p.registry,
    parties,
    build,
    onAppend: p.onAppend,
    smartWallets: p.smartWallets,
    claimHandle: claim,
    onSigned,
  })
}
