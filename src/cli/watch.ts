/**
 * `watch` (../shared/contracts/cli.md): follows one inbox's log on a node, live, and judges
 * each update as it arrives, in order, as `replay` judges the whole log.
 *
 *   watch --node <url> [--api identity|d14n] [--transport gateway|grpc|grpc-web|connect]
 *         (--inbox <id> | --address <0x…> | --passkey <hex> | --handle <handle>) [--json]
 *         [--chain eip155:<id>=<rpc-url>]... [--poll-ms N] [--timeout-ms N] [--connect-timeout-ms N]
 *
 * The follower (src/network/follow.ts) yields the node's updates once each, ascending,
 * across restarts and dropped connections, and fork events; each update is judged by an
 * IncrementalReplay (./judge.ts) on the state the earlier ones left. Standard output has
 * one line per update or fork (JSON Lines with --json); notices go to standard error.
 * SIGINT and SIGTERM end it with status 0; a node never reached or an inbox that cannot be
 * resolved is status 1 (one line naming the node and why).
 */
import { decodeOrError, entry } from '../core/decode/entry'
import { checkHandleAnswer } from '../core/handles'
import { fastContext } from '../core/verify/fast'
import { formatTimestamp } from '../core/text/timestamp'
import { type FollowEvent, FollowError, followInbox } from '../network/follow'
import { createRemote, RemoteError, type RpcTransportKind } from '../network/remote'
import { nodeTransportFor } from '../network/transports-node'
import { lazyChainVerifier } from './chain-verifier'
import { InputError, jsonLine } from './io'
import { IncrementalReplay, type Verdict } from './judge'
import { count, type NodeFlagValues, nodeArgs } from './node-args'
import { escapeLine } from './terminal'
import type { Io } from './usage'

export interface WatchFlagValues extends NodeFlagValues {
  readonly json?: boolean
  readonly 'poll-ms'?: string
  readonly 'timeout-ms'?: string
  readonly 'connect-timeout-ms'?: string
}

/** How long a stale connection may hang before a check poll or a call gives up. */
const DEFAULT_TIMEOUT_MS = 10_000

/** Retries of a resolution that could not reach the node, within the connect timeout. */
async function withRetry<T>(
  attempt: () => Promise<T>,
  giveUpMs: number,
  signal: AbortSignal,
  notice: (s: string) => void,
): Promise<T> {
  const started = Date.now()
  let delay = 250
  for (;;) {
    try {
      return await attempt()
    } catch (e) {
      if (signal.aborted || !(e instanceof RemoteError) || e.kind !== 'unreachable') throw e
      if (Date.now() - started + delay > giveUpMs) throw e
      notice(`${e.message}; retrying in ${(delay / 1000).toFixed(2)} s`)
      await new Promise((r) => setTimeout(r, delay))
      delay = Math.min(delay * 2, 2000)
    }
  }
}

export async function cmdWatch(values: WatchFlagValues, positionals: readonly string[], io: Io): Promise<void> {
  const args = nodeArgs('watch', values, positionals)
  const pollMs = count(values['poll-ms'], '--poll-ms', 50) ?? 1000
  const timeoutMs = count(values['timeout-ms'], '--timeout-ms', 1) ?? DEFAULT_TIMEOUT_MS
  const giveUpMs = count(values['connect-timeout-ms'], '--connect-timeout-ms', 0) ?? 5000
  const json = values.json === true
  const label = `${args.node} (${args.api} API over ${args.transport})`
  const notice = (s: string) => io.err(`${escapeLine(`watch: ${s}`)}\n`)

  // SIGINT and SIGTERM end the watch cleanly (status 0); so does the caller's signal.
  const stop = new AbortController()
  const onSignal = () => stop.abort()
  if (io.signal) {
    if (io.signal.aborted) stop.abort()
    else io.signal.addEventListener('abort', onSignal)
  } else {
    process.once('SIGINT', onSignal)
    process.once('SIGTERM', onSignal)
  }
  try {
    const remote = createRemote({
      node: args.node,
      api: args.api,
      transport: args.transport,
      transportFor: (kind: RpcTransportKind, baseUrl: string) => nodeTransportFor(kind, baseUrl, { live: true }),
      fetch: (input, init) => {
        const timeout = AbortSignal.timeout(timeoutMs)
        return fetch(input, { ...init, signal: init?.signal ? AbortSignal.any([init.signal, timeout]) : timeout })
      },
      timeoutMs,
    })

    notice(`connecting to ${label}`)
    let inboxId: string
    try {
      inboxId = (await withRetry(() => remote.inboxIdOf(args.target), giveUpMs, stop.signal, notice)).inboxId
    } catch (e) {
      if (stop.signal.aborted) return
      if (e instanceof RemoteError) {
        throw new InputError(
          e.kind === 'unreachable'
            ? `${e.message} (gave up after ${giveUpMs} ms)`
            : `${e.message}; the inbox of ${args.target.kind} ${args.normalized} cannot be resolved`,
        )
      }
      throw e
    }
    if (args.target.kind !== 'inbox')
      notice(`${args.target.kind} ${args.normalized} is inbox ${inboxId} (the node's answer)`)

    const { ctx } = await fastContext()
    const smartWallets = args.routes ? lazyChainVerifier(args.routes) : undefined
    const judge = new IncrementalReplay({ ...ctx, ...(smartWallets ? { smartWallets } : {}) })
    // A handle's answer is used only once the log backs it (IDENT-085): the existing log is
    // held back until it is judged, then checked.
    let live = false
    let held: string[] | null = args.target.kind === 'handle' ? [] : null
    const print = (line: string) => {
      if (held) held.push(line)
      else io.out(line)
    }

    const events = followInbox({
      source: remote,
      inboxId,
      signal: stop.signal,
      pollMs,
      checkMs: timeoutMs,
      giveUpMs,
    })
    try {
      for await (const e of events) {
        if (e.type === 'update') {
          const v = await judge.push(entry(e.sequenceId, decodeOrError(e.bytes), e.serverTimestampNs))
          print(json ? `${jsonLine(updateRow(v, inboxId, e.serverTimestampNs))}\n` : updateLine(v, e.serverTimestampNs))
        } else if (e.type === 'fork') {
          print(json ? `${jsonLine(forkRow(e))}\n` : forkLine(e))
        } else if (e.type === 'skipped') {
          notice(
            `${label}: left out an envelope${e.sequenceId === null ? '' : ` (sequence id ${e.sequenceId})`}: ${e.reason}`,
          )
        } else {
          if (e.state === 'live' && held) {
            const check = checkHandleAnswer(judge.head, args.normalized)
            if (!check.accepted) {
              throw new InputError(
                `${label}: the node names inbox ${inboxId} for handle ${JSON.stringify(args.normalized)}, but its log does not back that (IDENT-085): ${check.reason}`,
              )
            }
            for (const line of held) io.out(line)
            held = null
          }
          if (e.state === 'live') live = true
          const s = stateNotice(e, live)
          if (s) notice(s)
        }
      }
    } catch (e) {
      if (e instanceof FollowError) {
        const cause = e.cause instanceof RemoteError ? e.cause : null
        throw new InputError(
          cause?.kind === 'unreachable' ? `${e.message} (gave up after ${giveUpMs} ms)` : `${label}: ${e.message}`,
        )
      }
      throw e
    }
  } finally {
    io.signal?.removeEventListener('abort', onSignal)
    process.removeListener('SIGINT', onSignal)
    process.removeListener('SIGTERM', onSignal)
  }
}

function stateNotice(e: Extract<FollowEvent, { type: 'state' }>, contacted: boolean): string | null {
  switch (e.state) {
    case 'connecting':
      return null
    case 'live': {
      const how = e.mode === 'stream' ? 'following the node’s stream' : `polling (${e.detail ?? 'no stream'})`
      return e.resumedAfter !== undefined ? `resumed after sequence id ${e.resumedAfter}; ${how}` : `live: ${how}`
    }
    case 'reconnecting':
      if (!contacted)
        return `cannot reach the node yet (${e.detail ?? 'unknown'}); retrying in ${((e.retryInMs ?? 0) / 1000).toFixed(2)} s`
      return `connection lost (${e.detail ?? 'unknown'}); reconnecting in ${((e.retryInMs ?? 0) / 1000).toFixed(2)} s`
    case 'stopped':
      return 'stopped'
  }
}

/** A row of `replay`'s `updates` plus the inbox id and the server timestamp (the contract's --json line). */
function updateRow(v: Verdict, inboxId: string, serverTimestampNs: bigint) {
  return {
    sequence_id: v.sequenceId.toString(),
    status: v.status,
    rule: v.rule,
    action_index: v.actionIndex,
    message: v.message,
    inbox_id: inboxId,
    server_timestamp_ns: serverTimestampNs.toString(),
  }
}

const CHANGE = { gone: 'gone', 'different-bytes': 'different bytes', inserted: 'inserted' } as const

function forkRow(e: Extract<FollowEvent, { type: 'fork' }>) {
  return {
    event: 'fork',
    inbox_id: e.inboxId,
    sequence_id: e.sequenceId.toString(),
    change: CHANGE[e.reason],
    printed_digest: e.printedDigest,
    served_digest: e.servedDigest,
  }
}

/** One readable line per update: sequence id, server time, verdict; every input string escaped. */
function updateLine(v: Verdict, serverTimestampNs: bigint): string {
  const where = v.actionIndex === null ? '' : ` action ${v.actionIndex}`
  const verdict = `${v.status.padEnd(11)} ${v.rule ? `${v.rule}${where}: ` : ''}${v.message}`
  return `${escapeLine(`${v.sequenceId.toString().padStart(6)}  ${formatTimestamp(serverTimestampNs)}  ${verdict}`.trimEnd())}\n`
}

function forkLine(e: Extract<FollowEvent, { type: 'fork' }>): string {
  const what =
    e.reason === 'gone'
      ? `the node no longer serves the update printed (sha256 ${e.printedDigest})`
      : e.reason === 'different-bytes'
        ? `the node serves different bytes (sha256 ${e.servedDigest}) than printed (sha256 ${e.printedDigest})`
        : `the node serves an update never printed (sha256 ${e.servedDigest}) below the last printed sequence id`
  return `${escapeLine(`${e.sequenceId.toString().padStart(6)}  fork: ${what}`)}\n`
}
