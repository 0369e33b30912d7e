/**
 * The command line of ../shared/contracts/cli.md: `npm run --silent cli -- <subcommand>`.
 * Exit status 0 when the command ran (whatever the verdicts), 1 when an input could
 * not be read or parsed as a log, 2 for a usage error. Errors: one line on stderr.
 */
import { parseArgs, type ParseArgsConfig } from 'node:util'
import { ChainRouteError, parseChainRoute, routeTable } from '../chain/routes'
import { CryptoError } from '../crypto/errors'
import { LogInputError } from '../core/errors'
import { checkHandleAnswer, currentHandles } from '../core/handles'
import { deriveInboxId } from '../core/inbox-id'
import { exportLocalKey, importLocalKey } from '../core/keys'
import { replay, stateAt, sortedEntries } from '../core/replay'
import { reportJsonPieces, toReport, type Report } from '../core/report'
import { resolveIdentifier } from '../core/resolve'
import { signatureText } from '../core/text/signature-text'
import { isEthAddress } from '../core/text/identifier'
import type { InboxLog, MemberKind } from '../core/types'
import type { SmartWalletVerifier } from '../core/verify/port'
import { fastContext } from '../core/verify/fast'
import type { UpdateVerifyOptions } from '../core/verify/update'
import { cmdEdit, EDIT_USAGE } from './edit'
import { InputError, UsageError, guardOutput, jsonLine, readFile, readLogFile, takeInputFlags } from './io'
import { lazyChainVerifier } from './chain-verifier'
import { escapeKeepingLines, escapeLine } from './terminal'
import { fastReplayOptions } from './pool/node-pool'
import { AUDIT_USAGE, AUDIT_WORKER_USAGE, usageLines } from './audit-usage'

/** `fetch`'s lines of the usage (here, so a start that does not fetch never loads ./fetch: Connect-ES and viem). */
const FETCH_USAGE = `  fetch --node <url> [--api identity|d14n] [--transport gateway|grpc|grpc-web|connect]
        (--inbox <inbox-id> | --address <0x…> | --passkey <hex> | --handle <handle>) [--out <file>]
        [--page-size N] [--max-pages N] [--timeout-ms N] [--chain eip155:<id>=<rpc-url>]...`

const USAGE = `usage: npm run --silent cli -- <subcommand> [flags] [files]

  replay [--json] [--chain eip155:<id>=<rpc-url>]... [--at <seq>] FILE...
  signature-text FILE
  inbox-id [--kind ethereum|passkey] <identifier> <nonce>
  handles --json FILE
  check-handle --json --handle <entry> [--at <seq>] FILE
  resolve --json [--kind ethereum|passkey|installation] <identifier> FILE...
  key import <0x-hex | @path-to-32-byte-file>
  key export --format hex|bytes <0x-hex | @path>
${FETCH_USAGE}
${EDIT_USAGE}
${usageLines(AUDIT_USAGE)}
${usageLines(AUDIT_WORKER_USAGE)}

Log files are auto-detected: a log bundle JSON, a GetIdentityUpdatesResponse (binary
protobuf or proto3 JSON), a single update as hex, base64 or binary, or an xmtpd CSV.`

interface Io {
  out(s: string | Uint8Array): void
  err(s: string): void
  /** Standard output is a terminal: signature texts are printed with their controls escaped. */
  readonly tty?: boolean
}

type Options = NonNullable<ParseArgsConfig['options']>

function args<const O extends Options>(argv: string[], options: O) {
  try {
    return parseArgs({ args: argv, options, allowPositionals: true as const, strict: true as const })
  } catch (e) {
    throw new UsageError((e as Error).message)
  }
}

function seqArg(v: string | undefined): bigint | undefined {
  if (v === undefined) return undefined
  if (!/^(0|[1-9][0-9]*)$/.test(v) || BigInt(v) >= 1n << 64n)
    throw new UsageError(`--at ${JSON.stringify(v)} is not a sequence id (a uint64 in decimal)`)
  return BigInt(v)
}

/** Without --json, replay prints a table for a terminal (the JSON report is the contract). */
function humanReport(r: Report): string {
  const lines = [
    `${r.file}: inbox ${r.inbox_id ?? '(unknown)'}: ${r.ok ? 'every update applied' : 'the log does not apply in full'}`,
  ]
  for (const u of r.updates) {
    const where = u.action_index === null ? '' : ` action ${u.action_index}`
    lines.push(
      `  ${u.sequence_id.padStart(6)}  ${u.status.padEnd(11)} ${u.rule ? `${u.rule}${where}: ` : ''}${u.message}`,
    )
  }
  const s = r.state
  if (r.error) lines.push(`  state: ${r.error}`)
  else if (!s) lines.push('  state: none (no update applied)')
  else {
    lines.push(
      `  state at sequence id ${s.sequence_id}: ${s.members.length} members, recovery ${s.recovery.kind} ${s.recovery.identifier}${s.recovery.chain_id ? ` (chain ${s.recovery.chain_id})` : ''}`,
    )
    for (const m of s.members)
      lines.push(
        `    ${m.kind.padEnd(12)} ${m.identifier}${m.adder ? `  added by ${m.adder}` : '  (creator)'}${m.chain_id ? `  chain ${m.chain_id}` : ''}`,
      )
    if (s.handles.length) lines.push(`    handles (display last): ${s.handles.join(', ')}; ${s.claim_count} claims`)
    lines.push(`    ${s.seen_replay_keys.length} replay keys seen`)
  }
  // Issue #14, finding 5: nothing from the input reaches the terminal raw.
  return `${lines.map(escapeLine).join('\n')}\n`
}

function requireJson(json: boolean | undefined, cmd: string): void {
  if (!json) throw new UsageError(`${cmd} prints JSON only: pass --json`)
}

function verifierFor(chains: string[] | undefined): SmartWalletVerifier | undefined {
  if (!chains?.length) return undefined
  try {
    return lazyChainVerifier(routeTable(chains.map(parseChainRoute)))
  } catch (e) {
    if (e instanceof ChainRouteError) throw new UsageError(e.message)
    throw e
  }
}

/** Every file's logs, read before anything is printed so an unreadable file prints nothing. */
function readAll(files: string[]): { file: string; log: InboxLog }[] {
  const all: { file: string; log: InboxLog }[] = []
  for (const file of files) {
    for (const log of readLogFile(file)) {
      try {
        sortedEntries(log)
      } catch (e) {
        if (e instanceof LogInputError) throw new InputError(`${file}: ${e.message}`)
        throw e
      }
      all.push({ file, log })
    }
  }
  return all
}

function oneFile(positionals: string[], cmd: string): string {
  if (positionals.length !== 1) throw new UsageError(`${cmd} takes exactly one FILE, got ${positionals.length}`)
  return positionals[0]!
}

/** A file that holds several inboxes' logs: the commands that take one log use the first and say so. */
function firstLog(file: string, io: Io): InboxLog {
  const [log, ...more] = readAll([file]).map((x) => x.log)
  if (!log) throw new InputError(`${file}: holds no log`)
  if (more.length)
    io.err(
      `${escapeLine(`note: ${file} holds ${more.length + 1} inboxes' logs; using the first (${log.inboxId ?? 'no inbox id'})`)}\n`,
    )
  return log
}

/**
 * Replays logs on the fast path: the fast crypto backend, and for large logs the
 * worker-thread verification pool (./pool/node-pool.ts). Same Trace as a plain replay.
 */
async function replayAll<T>(
  logs: readonly InboxLog[],
  smartWallets: SmartWalletVerifier | undefined,
  each: (trace: Awaited<ReturnType<typeof replay>>, i: number) => T,
): Promise<T[]> {
  const ctx: UpdateVerifyOptions = { ...(await fastContext()).ctx, ...(smartWallets ? { smartWallets } : {}) }
  const fast = fastReplayOptions(logs, ctx)
  try {
    const out: T[] = []
    for (const [i, log] of logs.entries()) out.push(each(await replay(log, fast.replay), i))
    return out
  } finally {
    fast.close()
  }
}

async function cmdReplay(argv: string[], io: Io): Promise<void> {
  const { values, positionals } = args(argv, {
    json: { type: 'boolean' },
    chain: { type: 'string', multiple: true },
    at: { type: 'string' },
  })
  if (positionals.length === 0) throw new UsageError('replay needs at least one FILE')
  const at = seqArg(values.at)
  const smartWallets = verifierFor(values.chain)
  const all = readAll(positionals)
  await replayAll(
    all.map((x) => x.log),
    smartWallets,
    (trace, i) => {
      const state = at === undefined ? undefined : stateAt(trace, at)
      // JSON in pieces (issue #14, finding 8): a million rows are never one string.
      if (values.json) {
        for (const piece of reportJsonPieces(trace, all[i]!.file, state)) io.out(piece)
        io.out('\n')
      } else io.out(humanReport(toReport(trace, all[i]!.file, state)))
    },
  )
}

async function cmdSignatureText(argv: string[], io: Io): Promise<void> {
  const { positionals } = args(argv, {})
  const log = firstLog(oneFile(positionals, 'signature-text'), io)
  for (const entry of sortedEntries(log)) {
    const u = entry.update
    // The placeholder's reason is input-derived: escaped, so it cannot forge a `----` line.
    const text = 'error' in u ? `<IDENT-001: ${escapeLine(u.error.replace(/^IDENT-001: /, ''))}>` : signatureText(u)
    io.out(`${io.tty ? escapeKeepingLines(text) : text}\n----\n`)
  }
}

function cmdInboxId(argv: string[], io: Io): void {
  const { values, positionals } = args(argv, { kind: { type: 'string' } })
  const kind = values.kind ?? 'ethereum'
  if (kind !== 'ethereum' && kind !== 'passkey')
    throw new UsageError(`--kind ${JSON.stringify(kind)}: expected ethereum or passkey`)
  if (positionals.length !== 2) throw new UsageError('inbox-id takes <identifier> <nonce>')
  const [identifier, nonceText] = positionals as [string, string]
  if (!/^(0|[1-9][0-9]*)$/.test(nonceText) || BigInt(nonceText) >= 1n << 64n)
    throw new UsageError(`nonce ${JSON.stringify(nonceText)} is not a uint64 in decimal`)
  if (kind === 'ethereum' && !isEthAddress(identifier))
    throw new UsageError(
      `identifier ${JSON.stringify(identifier)} is not 0x followed by 40 lowercase hex characters (IDENT-013): an inbox id is derived from the identifier text exactly as signed`,
    )
  if (kind === 'passkey' && !/^([0-9a-f]{2})+$/.test(identifier))
    throw new UsageError(`passkey identifier ${JSON.stringify(identifier)} is not the lowercase hex of the key`)
  io.out(`${deriveInboxId(identifier, BigInt(nonceText))}\n`)
}

async function cmdHandles(argv: string[], io: Io): Promise<void> {
  const { values, positionals } = args(argv, { json: { type: 'boolean' } })
  requireJson(values.json, 'handles')
  const [trace] = await replayAll([firstLog(oneFile(positionals, 'handles'), io)], undefined, (t) => t)
  io.out(`${jsonLine(currentHandles(trace?.head ?? null))}\n`)
}

async function cmdCheckHandle(argv: string[], io: Io): Promise<void> {
  const { values, positionals } = args(argv, {
    json: { type: 'boolean' },
    handle: { type: 'string' },
    at: { type: 'string' },
  })
  requireJson(values.json, 'check-handle')
  if (values.handle === undefined) throw new UsageError('check-handle needs --handle <entry>')
  const at = seqArg(values.at)
  const [trace] = await replayAll([firstLog(oneFile(positionals, 'check-handle'), io)], undefined, (t) => t)
  if (!trace) throw new InputError('check-handle: no log')
  if (at !== undefined) {
    const s = stateAt(trace, at)
    io.out(`${jsonLine(s.state ? checkHandleAnswer(s.state, values.handle) : { accepted: false, reason: s.error })}\n`)
  } else io.out(`${jsonLine(checkHandleAnswer(trace.head, values.handle))}\n`)
}

async function cmdResolve(argv: string[], io: Io): Promise<void> {
  const { values, positionals } = args(argv, { json: { type: 'boolean' }, kind: { type: 'string' } })
  requireJson(values.json, 'resolve')
  const kind = (values.kind ?? 'ethereum') as MemberKind
  if (!['ethereum', 'passkey', 'installation'].includes(kind))
    throw new UsageError(`--kind ${JSON.stringify(kind)}: expected ethereum, passkey or installation`)
  const [identifier, ...files] = positionals
  if (!identifier || files.length === 0) throw new UsageError('resolve takes <identifier> FILE...')
  const heads = await replayAll(
    readAll(files).map((x) => x.log),
    undefined,
    (t) => t.head,
  )
  const r = resolveIdentifier({ kind, text: identifier }, heads)
  io.out(
    `${jsonLine({ inbox_id: r.inboxId, live: r.live.map((l) => ({ inbox_id: l.inboxId, sequence_id: l.sequenceId })), reason: r.reason })}\n`,
  )
}

function keyInput(arg: string | undefined): string | Uint8Array {
  if (arg === undefined) throw new UsageError('key needs <0x-hex | @path-to-32-byte-file>')
  return arg.startsWith('@') ? readFile(arg.slice(1)) : arg
}

function cmdKey(argv: string[], io: Io): void {
  const [action, ...rest] = argv
  try {
    if (action === 'import') {
      const { positionals } = args(rest, {})
      if (positionals.length !== 1) throw new UsageError('key import takes exactly one key')
      io.out(`${importLocalKey(keyInput(positionals[0])).identifier}\n`)
    } else if (action === 'export') {
      const { values, positionals } = args(rest, { format: { type: 'string' } })
      if (values.format !== 'hex' && values.format !== 'bytes')
        throw new UsageError('key export needs --format hex|bytes')
      if (positionals.length !== 1) throw new UsageError('key export takes exactly one key')
      const key = importLocalKey(keyInput(positionals[0]))
      if (values.format === 'hex') io.out(`${exportLocalKey(key, 'hex')}\n`)
      else io.out(exportLocalKey(key, 'bytes'))
    } else throw new UsageError(`key ${JSON.stringify(action ?? '')}: expected import or export`)
  } catch (e) {
    if (e instanceof CryptoError) throw new InputError(`malformed key: ${e.message}`)
    throw e
  }
}

const COMMANDS: Record<string, (argv: string[], io: Io) => void | Promise<void>> = {
  replay: cmdReplay,
  'signature-text': cmdSignatureText,
  'inbox-id': cmdInboxId,
  handles: cmdHandles,
  'check-handle': cmdCheckHandle,
  resolve: cmdResolve,
  key: cmdKey,
  // Loaded on use: ./fetch brings Connect-ES and viem (the --handle check's chain verifier).
  fetch: async (argv, io) => (await import('./fetch')).cmdFetch(argv, io),
  edit: cmdEdit,
  // Loaded on use: src/audit brings worker threads, SQLite and PostgreSQL.
  audit: async (argv, io) => (await import('./audit')).cmdAudit(argv, io),
  'audit-worker': async (argv, io) => (await import('./audit')).cmdAuditWorker(argv, io),
}

/** Runs one command line; returns the exit status. */
export async function run(argv: string[], io: Io): Promise<number> {
  const [cmd, ...rest] = argv
  if (cmd === undefined || cmd === '--help' || cmd === '-h' || cmd === 'help') {
    ;(cmd === undefined ? io.err : io.out)(`${USAGE}\n`)
    return cmd === undefined ? 2 : 0
  }
  const handler = COMMANDS[cmd]
  try {
    if (!handler) throw new UsageError(`unknown subcommand ${JSON.stringify(cmd)}`)
    await handler(takeInputFlags(rest), io)
    return 0
  } catch (e) {
    if (e instanceof UsageError) {
      io.err(`error: ${escapeLine(e.message)} (usage: npm run --silent cli -- --help)\n`)
      return 2
    }
    if (e instanceof InputError) {
      io.err(`error: ${escapeLine(e.message)}\n`)
      return 1
    }
    io.err(`error: internal failure: ${escapeLine(e instanceof Error ? e.message : String(e))}\n`)
    return 1
  }
}

/**
 * The command line as a process, for both entry points (./bin.ts in the bundle that
 * `npm run cli` runs, and this file under tsx): output errors guarded (issue #14, finding
 * 6: `| head` is a quiet success), `tty` from standard output (finding 5: a signature
 * text is escaped only on a terminal), and the exit status set.
 */
export async function runProcess(): Promise<void> {
  guardOutput(process.stdout, process.stderr, (s) => process.exit(s))
  process.exitCode = await run(process.argv.slice(2), {
    out: (s) => process.stdout.write(s),
    err: (s) => process.stderr.write(s),
    tty: process.stdout.isTTY === true,
  })
  // Every command has finished its work here; once both streams have written what they
  // hold, exit instead of letting Node drain V8's leftover background work (concurrent
  // compiles, incremental marking), which kept a finished replay alive about 12 ms more
  // (issue #13; a write's callback runs once everything before it is written).
  await Promise.all([flushed(process.stdout), flushed(process.stderr)])
  process.exit()
}

function flushed(stream: NodeJS.WritableStream): Promise<void> {
  return new Promise((resolve) => {
    try {
      stream.write('', () => resolve())
    } catch {
      resolve() // a closed stream holds nothing more
    }
  })
}

const isMain = process.argv[1] !== undefined && /src[\\/]cli[\\/]main\.ts$/.test(process.argv[1])
if (isMain) void runProcess()
