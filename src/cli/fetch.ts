/**
 * `fetch` (../shared/contracts/cli.md): reads one inbox's whole log from a node over its
 * own protocol and writes it as a log bundle, validating nothing (IDENT-071: pipe the
 * bundle into `replay`). Only `--handle` replays, to check the answer (IDENT-085).
 *
 *   fetch --node <url> [--api identity|d14n] [--transport gateway|grpc|grpc-web|connect]
 *         (--inbox <id> | --address <0x…> | --passkey <hex> | --handle <handle>) [--out <file>]
 *         [--page-size N] [--max-pages N] [--timeout-ms N] [--chain eip155:<id>=<rpc-url>]...
 *
 * Exit 0 when a bundle was written, 1 when the node could not be reached, refused, or
 * answered with something that is not a well-formed answer of the API (one line on
 * stderr naming the node, the API and transport, and what was wrong), 2 for a usage error.
 * A d14n envelope that does not unwrap to an identity update of the inbox is reported on
 * stderr and left out; the fetch goes on.
 */
import { writeFileSync } from 'node:fs'
import { ChainVerifier } from '../chain/verifier'
import { checkHandleAnswer } from '../core/handles'
import { replay } from '../core/replay'
import { fastContext } from '../core/verify/fast'
import { bundleOf, createRemote, type FetchedLog, inboxLogOf, RemoteError } from '../network/remote'
import { nodeTransportFor } from '../network/transports-node'
import { InputError, jsonLine } from './io'
import { count, type NodeFlagValues, nodeArgs } from './node-args'
import type { Io } from './usage'

export interface FetchFlagValues extends NodeFlagValues {
  readonly out?: string
  readonly 'page-size'?: string
  readonly 'max-pages'?: string
  readonly 'timeout-ms'?: string
}

export async function cmdFetch(values: FetchFlagValues, positionals: readonly string[], io: Io): Promise<void> {
  const { node, api, transport, target, normalized, routes } = nodeArgs('fetch', values, positionals)
  const smartWallets = routes ? new ChainVerifier(routes) : undefined
  const pageSize = count(values['page-size'], '--page-size', 0)
  const maxPages = count(values['max-pages'], '--max-pages', 1)
  const timeoutMs = count(values['timeout-ms'], '--timeout-ms', 1) ?? 60_000

  const remote = createRemote({
    node,
    api,
    transport,
    transportFor: nodeTransportFor,
    fetch: (input, init) => fetch(input, { ...init, signal: init?.signal ?? AbortSignal.timeout(timeoutMs) }),
    timeoutMs,
    ...(pageSize !== undefined ? { pageSize } : {}),
    ...(maxPages !== undefined ? { maxPages } : {}),
  })
  let log: FetchedLog
  try {
    log = await remote.fetchLog(target)
  } catch (e) {
    if (e instanceof RemoteError) throw new InputError(e.message)
    throw e
  }
  const label = `${remote.node} (${api} API over ${transport})`
  for (const s of log.skipped) {
    io.err(
      `warning: ${label}: left out an envelope${s.sequenceId === null ? '' : ` (sequence id ${s.sequenceId})`}: ${s.reason}\n`,
    )
  }

  if (target.kind === 'handle') {
    // IDENT-085: the node's answer names an inbox; it is used only if that inbox's derived
    // state holds the handle.
    const { ctx } = await fastContext()
    const trace = await replay(inboxLogOf(log), { ...ctx, ...(smartWallets ? { smartWallets } : {}) })
    const check = checkHandleAnswer(trace.head, normalized)
    if (!check.accepted) {
      throw new InputError(
        `${label}: the node names inbox ${log.inboxId} for handle ${JSON.stringify(normalized)}, but its log does not back that (IDENT-085): ${check.reason}`,
      )
    }
  }

  const text = `${jsonLine(bundleOf(log))}\n`
  if (values.out !== undefined) {
    try {
      writeFileSync(values.out, text)
    } catch (e) {
      throw new InputError(`cannot write --out ${values.out}: ${(e as Error).message}`)
    }
  } else io.out(text)
}
