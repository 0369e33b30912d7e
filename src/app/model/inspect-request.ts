/**
 * What a feature asks the shell to open in the inspector: a log (a bundle, a file's
 * bytes), which of its inbox logs, and the step to select. The live features (audit,
 * node traffic, follow) build these; the shell turns one into an inspector `open`, so
 * no feature reaches into another's state. And the read of one inbox's log from a node
 * they share: the identity API over Connect (the local node's default profile), every
 * update kept with the exact bytes the node served (IDENT-071: a claim the inspector then
 * judges).
 */
import { bundleOf, createRemote, type FetchedLog } from '../../network/remote'
import { webTransportFor } from '../../network/transports-web'

export interface InspectRequest {
  readonly kind: 'node' | 'file' | 'paste'
  /** Shown in the header. */
  readonly label: string
  /** The `file` of the report. */
  readonly name: string
  readonly input: string | Uint8Array
  readonly logIndex?: number
  /** A log read from a node: the query string that fetches it again (`?node=…&inbox=…`, the permalink's). */
  readonly fetch?: string
  /** The step to select; absent: the log's head. */
  readonly step?: { readonly sequenceId: bigint; readonly action: number }
}

export interface NodeLog {
  readonly log: FetchedLog
  /** The log bundle (contract input format 1), with the node's exact bytes. */
  readonly bundle: string
}

/** Reads inbox `inboxId`'s whole log from the node at `url`. @throws RemoteError naming the node and what failed */
export async function fetchNodeLog(url: string, inboxId: string, signal?: AbortSignal): Promise<NodeLog> {
  const remote = createRemote({
    node: url,
    api: 'identity',
    transport: 'connect',
    transportFor: webTransportFor,
    fetch: (input, init) => globalThis.fetch(input, init),
    timeoutMs: 30_000,
    ...(signal ? { signal } : {}),
  })
  const log = await remote.fetchLog({ kind: 'inbox', value: inboxId })
  return { log, bundle: JSON.stringify(bundleOf(log)) }
}
