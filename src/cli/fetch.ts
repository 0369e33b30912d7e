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
import { parseArgs } from 'node:util'
import { ChainRouteError, parseChainRoute, routeTable } from '../chain/routes'
import { ChainVerifier } from '../chain/verifier'
import { checkHandleAnswer } from '../core/handles'
import { replay } from '../core/replay'
import { fastContext } from '../core/verify/fast'
import {
  APIS,
  type Api,
  type FetchedLog,
  bundleOf,
  createRemote,
  DEFAULT_TRANSPORT,
  inboxLogOf,
  normalizeTarget,
  RemoteError,
  type Target,
  type TargetKind,
  TRANSPORTS,
  type TransportKind,
} from '../network/remote'
import { nodeTransportFor } from '../network/transports-node'
import { InputError, jsonLine, UsageError } from './io'

interface Io {
  out(s: string | Uint8Array): void
  err(s: string): void
}

const TARGETS: readonly TargetKind[] = ['inbox', 'address', 'passkey', 'handle']

function count(v: string | undefined, flag: string, min: number): number | undefined {
  if (v === undefined) return undefined
  if (!/^[0-9]+$/.test(v) || Number(v) < min || Number(v) > 2 ** 31) {
    throw new UsageError(`${flag} ${JSON.stringify(v)} is not a whole number of at least ${min}`)
  }
  return Number(v)
}

export async function cmdFetch(argv: string[], io: Io): Promise<void> {
  const parse = () =>
    parseArgs({
      args: argv,
      options: {
        node: { type: 'string' },
        api: { type: 'string' },
        transport: { type: 'string' },
        inbox: { type: 'string' },
        address: { type: 'string' },
        passkey: { type: 'string' },
        handle: { type: 'string' },
        out: { type: 'string' },
        'page-size': { type: 'string' },
        'max-pages': { type: 'string' },
        'timeout-ms': { type: 'string' },
        chain: { type: 'string', multiple: true },
      },
      allowPositionals: true,
      strict: true,
    })
  let parsed: ReturnType<typeof parse>
  try {
    parsed = parse()
  } catch (e) {
    throw new UsageError(`fetch: ${(e as Error).message}`)
  }
  const { values, positionals } = parsed
  if (positionals.length) throw new UsageError(`fetch takes no FILE (got ${JSON.stringify(positionals[0])})`)
  if (values.node === undefined) throw new UsageError('fetch needs --node <url>')
  let url: URL
  try {
    url = new URL(values.node)
  } catch {
    throw new UsageError(`--node ${JSON.stringify(values.node)} is not a URL`)
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    throw new UsageError(`--node ${JSON.stringify(values.node)} is not an http:// or https:// URL`)
  }
  const api = (values.api ?? 'identity') as Api
  if (!APIS.includes(api)) throw new UsageError(`--api ${JSON.stringify(values.api)} is not one of ${APIS.join(', ')}`)
  const transport = (values.transport ?? DEFAULT_TRANSPORT[api]) as TransportKind
  if (!TRANSPORTS.includes(transport)) {
    throw new UsageError(`--transport ${JSON.stringify(values.transport)} is not one of ${TRANSPORTS.join(', ')}`)
  }
  if (api === 'd14n' && transport === 'gateway') {
    throw new UsageError('--transport gateway serves the identity API only; d14n speaks grpc, grpc-web or connect')
  }
  const given = TARGETS.filter((k) => values[k] !== undefined)
  if (given.length !== 1) {
    throw new UsageError(
      given.length === 0
        ? 'fetch needs one of --inbox, --address, --passkey or --handle'
        : `fetch takes one of --inbox, --address, --passkey or --handle, not ${given.map((k) => `--${k}`).join(' and ')}`,
    )
  }
  const target: Target = { kind: given[0]!, value: values[given[0]!]! }
  const norm = normalizeTarget(target)
  if ('error' in norm) throw new UsageError(norm.error)
  let smartWallets: ChainVerifier | undefined
  try {
    smartWallets = values.chain?.length ? new ChainVerifier(routeTable(values.chain.map(parseChainRoute))) : undefined
  } catch (e) {
    if (e instanceof ChainRouteError) throw new UsageError(e.message)
    throw e
  }
  const pageSize = count(values['page-size'], '--page-size', 0)
  const maxPages = count(values['max-pages'], '--max-pages', 1)
  const timeoutMs = count(values['timeout-ms'], '--timeout-ms', 1) ?? 60_000

  const remote = createRemote({
    node: values.node,
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
    const check = checkHandleAnswer(trace.head, norm.value)
    if (!check.accepted) {
      throw new InputError(
        `${label}: the node names inbox ${log.inboxId} for handle ${JSON.stringify(norm.value)}, but its log does not back that (IDENT-085): ${check.reason}`,
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
