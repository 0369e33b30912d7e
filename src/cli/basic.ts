/**
 * The subcommands that read log files (../shared/contracts/cli.md): replay,
 * signature-text, inbox-id, handles, check-handle, resolve, and key. Each takes its flags
 * parsed by the dispatcher from its entry in ./commands.ts.
 */
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
import { InputError, UsageError, jsonLine, readFile, readLogFile } from './io'
import { lazyChainVerifier } from './chain-verifier'
import { escapeKeepingLines, escapeLine } from './terminal'
import { fastReplayOptions } from './pool/node-pool'
import type { Io } from './usage'

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

export async function cmdReplay(
  values: { json?: boolean; chain?: string[]; at?: string },
  positionals: string[],
  io: Io,
): Promise<void> {
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

export function cmdSignatureText(positionals: string[], io: Io): void {
  const log = firstLog(oneFile(positionals, 'signature-text'), io)
  for (const entry of sortedEntries(log)) {
    const u = entry.update
    // The placeholder's reason is input-derived: escaped, so it cannot forge a `----` line.
    const text = 'error' in u ? `<IDENT-001: ${escapeLine(u.error.replace(/^IDENT-001: /, ''))}>` : signatureText(u)
    io.out(`${io.tty ? escapeKeepingLines(text) : text}\n----\n`)
  }
}

export function cmdInboxId(values: { kind?: string }, positionals: string[], io: Io): void {
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

export async function cmdHandles(values: { json?: boolean }, positionals: string[], io: Io): Promise<void> {
  requireJson(values.json, 'handles')
  const [trace] = await replayAll([firstLog(oneFile(positionals, 'handles'), io)], undefined, (t) => t)
  io.out(`${jsonLine(currentHandles(trace?.head ?? null))}\n`)
}

export async function cmdCheckHandle(
  values: { json?: boolean; handle?: string; at?: string },
  positionals: string[],
  io: Io,
): Promise<void> {
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

export async function cmdResolve(
  values: { json?: boolean; kind?: string },
  positionals: string[],
  io: Io,
): Promise<void> {
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

export function cmdKey(values: { format?: string }, all: string[], io: Io): void {
  const [action, ...positionals] = all
  try {
    if (action === 'import') {
      if (values.format !== undefined) throw new UsageError('key import takes no --format (key export does)')
      if (positionals.length !== 1) throw new UsageError('key import takes exactly one key')
      io.out(`${importLocalKey(keyInput(positionals[0])).identifier}\n`)
    } else if (action === 'export') {
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
