/**
 * `audit` and `audit-worker` (../shared/contracts/cli.md): flags, the store, progress on
 * stderr (a bar on a terminal, plain lines otherwise), the JSON Lines report with its
 * summary last, `--against` an earlier report. The work itself is src/audit.
 */
import { existsSync, readFileSync } from 'node:fs'
import { availableParallelism } from 'node:os'
import { ChainRouteError, parseChainRoute, routeTable } from '../chain/routes'
import type { AuditRow, Change, Summary } from '../audit/row'
import type { Progress } from '../audit/run'
import type { NodeSource } from '../audit/sources'
import type { AuditStore } from '../audit/store'
import { APIS, type Api, DEFAULT_TRANSPORT, TRANSPORTS, type TransportKind } from '../network/target'
import { InputError, UsageError, jsonLine } from './io'
import { escapeLine } from './terminal'

interface Io {
  out(s: string | Uint8Array): void
  err(s: string): void
}

/** The flags of `audit` and `audit-worker` as the command registry parses them (./commands.ts). */
export interface AuditFlagValues {
  readonly json?: boolean
  readonly db?: string
  readonly store?: string
  readonly jobs?: string
  readonly chain?: string[]
  readonly 'job-timeout'?: string
  readonly node?: string
  readonly api?: string
  readonly transport?: string
  readonly inboxes?: string
  readonly follow?: boolean
  readonly against?: string
  readonly 'page-size'?: string
}

function jobsArg(v: string | undefined): number {
  if (v === undefined) return availableParallelism()
  if (!/^[1-9][0-9]{0,3}$/.test(v)) throw new UsageError(`--jobs ${JSON.stringify(v)}: expected a whole number from 1`)
  return Number(v)
}

function chainsArg(v: string[] | undefined): string[] {
  const chains = v ?? []
  try {
    routeTable(chains.map(parseChainRoute))
  } catch (e) {
    if (e instanceof ChainRouteError) throw new UsageError(e.message)
    throw e
  }
  return chains
}

function storeUrl(v: string | undefined): string | undefined {
  if (v === undefined) return undefined
  if (!/^postgres(ql)?:\/\//.test(v)) throw new UsageError(`--store ${JSON.stringify(v)}: expected postgres://…`)
  return v
}

function secondsArg(v: string | undefined, flag: string, dflt: number): number {
  if (v === undefined) return dflt
  if (!/^[1-9][0-9]{0,5}$/.test(v)) throw new UsageError(`${flag} ${JSON.stringify(v)}: expected whole seconds from 1`)
  return Number(v)
}

/** Progress on stderr: a bar redrawn in place on a terminal, else a plain line every few seconds. */
export function stderrProgress(err: (s: string) => void, tty: boolean): Progress {
  let name = ''
  let target: number | null = null
  let done = 0
  let extra = ''
  let last = 0
  let drawn = false
  const t0 = performance.now()
  const line = (): string => {
    const secs = ((performance.now() - t0) / 1000).toFixed(1)
    if (target === null || target <= 0) return `${name}: ${done}${extra ? ` · ${extra}` : ''} · ${secs}s`
    const frac = Math.min(1, done / target)
    const bar = tty ? `[${'#'.repeat(Math.round(frac * 24)).padEnd(24, '.')}] ` : ''
    return `${bar}${name}: ${done}/${target} (${Math.floor(frac * 100)}%)${extra ? ` · ${extra}` : ''} · ${secs}s`
  }
  const draw = (force: boolean): void => {
    const now = performance.now()
    if (!force && now - last < (tty ? 100 : 5000)) return
    last = now
    if (tty) {
      err(`\r\u001b[2K${escapeLine(line())}`)
      drawn = true
    } else err(`audit: ${escapeLine(line())}\n`)
  }
  const clear = (): void => {
    if (tty && drawn) err('\r\u001b[2K')
    drawn = false
  }
  return {
    phase(n, t) {
      if (n !== name) {
        if (name && !tty) draw(true)
        name = n
        done = 0
        extra = ''
      }
      target = t
      draw(!tty)
    },
    tick(d, x) {
      done = d
      if (x !== undefined) extra = x
      draw(false)
    },
    note(text) {
      clear()
      err(`audit: ${escapeLine(text)}\n`)
    },
    end() {
      if (tty) {
        draw(true)
        err('\n')
      } else draw(true)
    },
  }
}

/** An earlier report's rows (`--against`), by source and inbox, and by inbox alone when unique. */
class Earlier {
  private readonly bySource = new Map<string, AuditRow>()
  private readonly byInbox = new Map<string, AuditRow | null>()
  private readonly matched = new Set<AuditRow>()
  readonly counts: Record<Change | 'gone', number> = { new: 0, verdict: 0, state: 0, log: 0, gone: 0 }

  constructor(file: string) {
    let text: string
    try {
      text = readFileSync(file, 'utf8')
    } catch (e) {
      throw new InputError(`--against ${file}: cannot read: ${(e as Error).message}`)
    }
    for (const [i, line] of text.split('\n').entries()) {
      if (line.trim() === '') continue
      let v: unknown
      try {
        v = JSON.parse(line)
      } catch {
        throw new InputError(`--against ${file}: line ${i + 1} is not JSON: an audit report is JSON Lines`)
      }
      if (typeof v !== 'object' || v === null || 'summary' in v) continue
      const row = v as AuditRow
      if (typeof row.source !== 'string' || typeof row.state_digest !== 'string')
        throw new InputError(`--against ${file}: line ${i + 1} is not an audit row (no source or state_digest)`)
      this.bySource.set(`${row.source}\u0000${row.inbox_id}`, row)
      if (row.inbox_id !== null) this.byInbox.set(row.inbox_id, this.byInbox.has(row.inbox_id) ? null : row)
    }
  }

  mark(row: AuditRow): AuditRow {
    const before =
      this.bySource.get(`${row.source}\u0000${row.inbox_id}`) ??
      (row.inbox_id !== null ? (this.byInbox.get(row.inbox_id) ?? undefined) : undefined)
    const changed: Change[] = []
    if (!before) changed.push('new')
    else {
      this.matched.add(before)
      if (before.ok !== row.ok || JSON.stringify(before.first_failure) !== JSON.stringify(row.first_failure))
        changed.push('verdict')
      if (before.state_digest !== row.state_digest) changed.push('state')
      if (before.log_digest !== undefined && before.log_digest !== row.log_digest) changed.push('log')
    }
    for (const c of changed) this.counts[c]++
    return { ...row, changed }
  }

  finish(): Record<Change | 'gone', number> {
    const gone = [...this.bySource.values()].filter((r) => !this.matched.has(r)).length
    return { ...this.counts, gone }
  }
}

async function openStore(db: string | undefined, pg: string | undefined, follow: boolean): Promise<AuditStore> {
  if (pg) {
    const { openPgStore } = await import('../audit/pg-store')
    return openPgStore(pg)
  }
  if (db) {
    const { openSqliteStore } = await import('../audit/sqlite-store')
    try {
      return openSqliteStore(db)
    } catch (e) {
      throw new InputError(`--db ${db}: cannot open: ${(e as Error).message}`)
    }
  }
  // Without --db the results are kept in memory (the contract): heads only when --follow reads them.
  const { openMemoryStore } = await import('../audit/memory-store')
  return openMemoryStore({ keepHeads: follow })
}

/** A node or store that could not be reached or used: exit status 1, one line. */
function reachFailure(e: unknown): unknown {
  return e instanceof Error && (e.name === 'NodeFailure' || e.name === 'StoreUnreachable')
    ? new InputError(e.message)
    : e
}

export async function cmdAudit(values: AuditFlagValues, positionals: readonly string[], io: Io): Promise<void> {
  if (!values.json) throw new UsageError('audit prints JSON only: pass --json')
  if (values.db !== undefined && values.store !== undefined) throw new UsageError('give --db or --store, not both')
  const pg = storeUrl(values.store)
  const jobs = jobsArg(values.jobs)
  const chains = chainsArg(values.chain)
  const jobTimeout = secondsArg(values['job-timeout'], '--job-timeout', 300)
  let node: NodeSource | undefined
  if (values.node !== undefined) {
    if (positionals.length) throw new UsageError('give FILE|DIR arguments or --node, not both')
    if (!/^https?:\/\/[^\s]+$/.test(values.node))
      throw new UsageError(`--node ${JSON.stringify(values.node)}: expected an http(s) URL`)
    const api = (values.api ?? (values.inboxes !== undefined ? 'identity' : 'd14n')) as Api
    if (!APIS.includes(api)) throw new UsageError(`--api ${JSON.stringify(values.api)}: expected identity or d14n`)
    const transport = (values.transport ?? DEFAULT_TRANSPORT[api]) as TransportKind
    if (!TRANSPORTS.includes(transport))
      throw new UsageError(`--transport ${JSON.stringify(values.transport)}: expected ${TRANSPORTS.join(', ')}`)
    if (api === 'd14n' && transport === 'gateway')
      throw new UsageError('the d14n API has no HTTP gateway: use grpc, grpc-web or connect')
    if (api === 'identity' && values.inboxes === undefined)
      throw new UsageError(
        'the identity API cannot list inboxes: give --inboxes <file> (one inbox id a line), or use --api d14n',
      )
    if (values.inboxes !== undefined && !existsSync(values.inboxes))
      throw new InputError(`--inboxes ${values.inboxes}: no such file`)
    const pageSize = values['page-size'] === undefined ? undefined : Number(values['page-size'])
    if (pageSize !== undefined && !(Number.isInteger(pageSize) && pageSize >= 1 && pageSize <= 1000))
      throw new UsageError('--page-size: expected 1 to 1000')
    node = {
      url: values.node,
      api,
      transport,
      ...(values.inboxes !== undefined ? { inboxesFile: values.inboxes } : {}),
      ...(pageSize ? { pageSize } : {}),
    }
  } else {
    for (const f of ['api', 'transport', 'inboxes', 'follow'] as const)
      if (values[f] !== undefined) throw new UsageError(`--${f} goes with --node`)
    if (positionals.length === 0) throw new UsageError('audit needs FILE or DIR arguments, or --node <url>')
  }
  if (values.follow && (node?.api !== 'd14n' || values.inboxes !== undefined))
    throw new UsageError('--follow follows a node over d14n (--node <url> --api d14n, without --inboxes)')
  if (values.follow && pg) throw new UsageError('--follow runs embedded (with --db or none), not with --store')
  const against = values.against !== undefined ? new Earlier(values.against) : null

  const progress = stderrProgress(io.err, process.stderr.isTTY === true)
  const store = await openStore(values.db, pg, values.follow === true).catch((e: unknown) => {
    throw reachFailure(e)
  })
  // Rows hold no bigint: plain JSON.stringify (jsonLine's replacer cost a third of the printing).
  // A batch's rows are emitted in one synchronous loop: they go out in one write after it.
  let pending = ''
  const flush = (): void => {
    const text = pending
    pending = ''
    if (text) io.out(text)
  }
  const emit = (row: AuditRow, json?: string): void => {
    if (!pending) queueMicrotask(flush)
    pending += `${against ? JSON.stringify(against.mark(row)) : (json ?? JSON.stringify(row))}\n`
  }
  const summaryOut = (s: Summary): Summary => (against ? { ...s, changed: against.finish() } : s)
  const run = await import('../audit/run')
  let queue: import('../audit/run').Queue | null = null
  try {
    const request = {
      ...(positionals.length ? { files: [...positionals] } : {}),
      ...(node ? { node } : {}),
      chains,
      jobs,
      store,
      emit,
      progress,
    }
    let summary: Summary
    let embedded: Awaited<ReturnType<typeof run.auditEmbedded>> | null = null
    if (pg) {
      const { pgQueue } = await import('../audit/pg-queue')
      queue = await pgQueue(pg, { jobTimeoutSeconds: jobTimeout })
      summary = await run.auditDistributed({ ...request, queue })
    } else {
      embedded = await run.auditEmbedded(request)
      summary = embedded.summary
    }
    flush()
    io.out(`${jsonLine({ summary: summaryOut(summary) })}\n`)
    if (values.follow && node && embedded) {
      const { follow } = await import('../audit/follow')
      const stop = new AbortController()
      const onSignal = () => stop.abort()
      process.once('SIGINT', onSignal)
      process.once('SIGTERM', onSignal)
      try {
        await follow({ ...request, node, run: embedded.run, signal: stop.signal })
      } finally {
        process.off('SIGINT', onSignal)
        process.off('SIGTERM', onSignal)
      }
    }
    if (summary.inboxes > 0 && summary.unreadable === summary.inboxes && !node)
      throw new InputError('no input could be read as a log')
  } catch (e) {
    throw reachFailure(e)
  } finally {
    await queue?.close()
    await store.close()
  }
}

export async function cmdAuditWorker(values: AuditFlagValues, positionals: readonly string[], io: Io): Promise<void> {
  if (positionals.length)
    throw new UsageError('audit-worker takes no FILE: the coordinator (audit --store) names the work')
  const pg = storeUrl(values.store)
  if (!pg) throw new UsageError('audit-worker needs --store postgres://…')
  const jobs = jobsArg(values.jobs)
  const chains = chainsArg(values.chain)
  const { runWorker } = await import('../audit/pg-queue')
  const { openPgStore } = await import('../audit/pg-store')
  const store = await openPgStore(pg).catch((e: unknown) => {
    throw reachFailure(e)
  })
  const stop = new AbortController()
  const onSignal = () => stop.abort()
  process.once('SIGINT', onSignal)
  process.once('SIGTERM', onSignal)
  try {
    await runWorker({
      url: pg,
      store,
      jobs,
      chains,
      signal: stop.signal,
      log: (s) => io.err(`audit-worker: ${escapeLine(s)}\n`),
    })
  } finally {
    process.off('SIGINT', onSignal)
    process.off('SIGTERM', onSignal)
    await store.close()
  }
}
