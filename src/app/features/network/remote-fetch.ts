/**
 * A fetch from a network profile in the browser (connect-web transports, the gateway over
 * fetch), read twice, with what the reader must be told called out (IDENT-071: a node's
 * answer is a claim until the core derived it):
 *
 *   - the node serves the log differently on a second read (updates appear, vanish or
 *     change bytes between two reads moments apart);
 *   - the log did not come from where it says: an update names another inbox than the
 *     one fetched, or a handle or identifier answer that the derived state does not back
 *     (IDENT-085 for handles, section 9 for members);
 *   - d14n envelopes that did not unwrap to an identity update of the inbox, left out.
 */
import { checkHandleAnswer, currentHandles, type HandleCheck, lowercaseAscii } from '../../../core/handles'
import { isDecoded } from '../../../core/decode/entry'
import { replay } from '../../../core/replay'
import type { UpdateVerifyOptions } from '../../../core/verify/update'
import { bundleOf, createRemote, type FetchedLog, inboxLogOf, RemoteError, type Target } from '../../../network/remote'
import { webTransportFor } from '../../../network/transports-web'
import { compareSources, type Comparison, type LogSource } from './compare'
import type { FetchAddress } from './profiles'

interface Callout {
  readonly kind: 'second-read' | 'provenance' | 'skipped'
  readonly message: string
}

export interface RemoteResult {
  readonly address: FetchAddress
  readonly log: FetchedLog
  /** The log bundle (contract input format 1), for the inspector. */
  readonly bundle: string
  /** The highest sequence id: the head step the inspector opens at. */
  readonly headSequenceId: bigint | null
  readonly callouts: readonly Callout[]
  /** The handles of the derived head state, current first (IDENT-086); null when the fetch was by inbox id. */
  readonly handles: { readonly current: string | null; readonly others: readonly string[] } | null
  /** A fetch by handle: whether the derived state backs the node's answer (IDENT-085); null otherwise. */
  readonly handleCheck: HandleCheck | null
}

export function sourceOf(label: string, log: FetchedLog): LogSource {
  return {
    label,
    inboxId: log.inboxId,
    updates: log.updates.map((u) => ({ sequenceId: u.sequenceId, bytes: u.bytes })),
  }
}

function describeSecondRead(c: Comparison): string | null {
  const parts: string[] = []
  if (c.onlyA.length) parts.push(`sequence id(s) ${c.onlyA.join(', ')} vanished`)
  if (c.onlyB.length) parts.push(`sequence id(s) ${c.onlyB.join(', ')} appeared`)
  if (c.differing.length) parts.push(`sequence id(s) ${c.differing.map((d) => d.sequenceId).join(', ')} changed bytes`)
  return parts.length ? `the node served this log differently on a second read: ${parts.join('; ')}` : null
}

export async function fetchRemote(
  address: FetchAddress,
  opts: { signal?: AbortSignal; verify?: UpdateVerifyOptions; fetch?: typeof fetch } = {},
): Promise<RemoteResult> {
  const remote = createRemote({
    node: address.url,
    api: address.api,
    transport: address.transport,
    transportFor: webTransportFor,
    fetch: opts.fetch ?? ((input, init) => globalThis.fetch(input, init)),
    timeoutMs: 30_000,
    ...(opts.signal ? { signal: opts.signal } : {}),
  })
  const first = await remote.fetchLog(address.target)
  // The second read asks for the inbox the first one found (no second lookup).
  const second = await remote.fetchLog({ kind: 'inbox', value: first.inboxId })
  const callouts: Callout[] = []
  const again = await compareSources(sourceOf('first read', first), sourceOf('second read', second), opts.verify)
  const drift = describeSecondRead(again)
  if (drift) callouts.push({ kind: 'second-read', message: drift })

  const inboxLog = inboxLogOf(first)
  const foreign = inboxLog.entries.filter((e) => isDecoded(e.update) && e.update.inboxId !== first.inboxId)
  if (foreign.length) {
    callouts.push({
      kind: 'provenance',
      message: `the node served ${foreign.length} update(s) for inbox ${first.inboxId} that name another inbox (sequence id ${foreign.map((e) => e.sequenceId).join(', ')}; IDENT-003)`,
    })
  }
  let handles: RemoteResult['handles'] = null
  let handleCheck: HandleCheck | null = null
  if (address.target.kind !== 'inbox') {
    const trace = await replay(inboxLog, opts.verify ?? {})
    handles = currentHandles(trace.head)
    const t: Target = address.target
    if (t.kind === 'handle') {
      const check = checkHandleAnswer(trace.head, t.value)
      handleCheck = check
      if (!check.accepted) {
        callouts.push({
          kind: 'provenance',
          message: `the node named inbox ${first.inboxId} for handle ${JSON.stringify(lowercaseAscii(t.value))}, but its log does not back that (IDENT-085): ${check.reason}`,
        })
      }
    } else {
      const want =
        t.kind === 'address'
          ? `ethereum:${t.value.toLowerCase()}`
          : `passkey:${t.value.toLowerCase().replace(/^0x/, '')}`
      if (!trace.head?.members.has(want)) {
        callouts.push({
          kind: 'provenance',
          message: `the node named inbox ${first.inboxId} for ${t.kind} ${t.value}, but that is not a member of the inbox's derived head state (spec section 9)`,
        })
      }
    }
  }
  for (const s of first.skipped) callouts.push({ kind: 'skipped', message: `an envelope was left out: ${s.reason}` })
  const head = first.updates.reduce<bigint | null>((m, u) => (m === null || u.sequenceId > m ? u.sequenceId : m), null)
  return {
    address,
    log: first,
    bundle: JSON.stringify(bundleOf(first)),
    headSequenceId: head,
    callouts,
    handles,
    handleCheck,
  }
}

export function describeRemoteError(e: unknown): string {
  if (e instanceof RemoteError) return e.message
  return e instanceof Error ? e.message : String(e)
}
