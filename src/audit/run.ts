/**
 * The audit's drivers (design.md "Scale"): the same job (./job.ts) and result rows, two
 * ways to run them.
 *
 *   embedded  worker threads (./pool.ts) and a SQLite store (./sqlite-store.ts): files are
 *             units read by the threads themselves; a node is read once into the store's
 *             snapshot and cut into shards by inbox-id prefix
 *   postgres  the coordinator (`audit --store`) reads every source into a snapshot in
 *             PostgreSQL, enqueues one job per shard (./pg-queue.ts) and prints the rows of
 *             each shard once its job is done; `audit-worker` processes run the jobs
 *
 * Rows are printed once per run: a resumed run prints what the killed one had stored, then
 * the rest as it is done.
 */
import { createHash } from 'node:crypto'
import { readFileSync, statSync } from 'node:fs'
import type { AuditOutcome } from './job'
import { fileWireLogs, listFiles, type WireLog } from './inputs'
import { AuditPool, ThreadFailed } from './pool'
import { type AuditRow, type Summary, Tally } from './row'
import { gapsByInbox, listByInboxes, listD14n, type NodeSource, NodeFailure, readInboxList } from './sources'
import { type AuditStore, type Run, type RunMeta, shardLength } from './store'

export type { Run }
import { type Batch, runBatch } from './work'

export interface Progress {
  /** A phase begins: what is counted and the target (null: unknown). */
  phase(name: string, target: number | null): void
  /** Done so far in the phase. */
  tick(done: number, extra?: string): void
  /** A notice line. */
  note(text: string): void
  end(): void
}

export interface AuditRequest {
  readonly files?: readonly string[]
  readonly node?: NodeSource
  readonly chains: readonly string[]
  readonly jobs: number
  readonly store: AuditStore
  /** Prints a row (`json`: its JSON when already made). */
  readonly emit: (row: AuditRow, json?: string) => void
  readonly progress: Progress
  /** Inboxes per shard (default 256). */
  readonly shardSize?: number
  /** Files per embedded batch (default 16). */
  readonly filesPerBatch?: number
}

/** What identifies a run, so an unfinished one with the same key is resumed. */
function runKey(r: AuditRequest): string {
  const node = r.node
  const inboxes = node?.inboxesFile ? createHash('sha256').update(readFileSync(node.inboxesFile)).digest('hex') : null
  return createHash('sha256')
    .update(
      JSON.stringify({
        files: r.files ?? [],
        node: node ? { url: node.url, api: node.api, transport: node.transport, inboxes } : null,
        chains: r.chains,
        store: r.store.kind,
      }),
    )
    .digest('hex')
}

/** Reads the node (or, for PostgreSQL, the files) into the run's snapshot, once, and cuts it into shard units. */
async function snapshot(r: AuditRequest, run: Run): Promise<void> {
  if (run.meta.snapshotDone) return
  const { store, progress } = r
  await store.clearSnapshot(run)
  let gaps: RunMeta['gaps']
  let cursor: string | undefined
  if (r.node) {
    const node = r.node
    const put = (logs: WireLog[]) => store.putSnapshot(run, logs)
    if (node.api === 'd14n') {
      progress.phase(`listing ${node.url}: identity updates`, null)
      const g = await listD14n(node, put, (n, target) => {
        if (target !== null) progress.phase(`listing ${node.url}: identity updates`, Number(target))
        progress.tick(n)
      })
      gaps = g.gaps
      cursor = g.last.toString()
      if (g.skipped)
        progress.note(`${g.skipped} envelopes of the identity originator are not identity updates; left out`)
    } else {
      if (!node.inboxesFile) throw new NodeFailure('the identity API cannot list inboxes: give --inboxes <file>')
      const inboxes = readInboxList(node.inboxesFile)
      progress.phase(`reading ${node.url}: inboxes`, inboxes.length)
      await listByInboxes(node, inboxes, put, (n) => progress.tick(n))
    }
  } else {
    const files = listFiles(r.files ?? [])
    progress.phase('reading files into the store', files.length)
    let n = 0
    for (const f of files) {
      await store.putSnapshot(run, fileWireLogs(f))
      progress.tick(++n)
    }
  }
  const inboxes = await store.snapshotInboxes(run)
  const length = shardLength(inboxes, r.shardSize ?? 256)
  await store.addUnits(run, await store.shardsOf(run, length))
  await store.setMeta(run, {
    ...run.meta,
    snapshotDone: true,
    shardLength: length,
    ...(gaps ? { gaps } : {}),
    ...(cursor ? { cursor } : {}),
  })
}

/**
 * The request with rows marked by the holes beside their inboxes' updates (a node's run;
 * the holes are known once its listing is read, so every row, stored or new, is marked).
 */
function withGaps<R extends AuditRequest>(r: R, run: Run): R {
  const by = gapsByInbox(run.meta.gaps ?? [])
  if (by.size === 0) return r
  return {
    ...r,
    emit: (row, json) => {
      const gaps = row.inbox_id === null ? undefined : by.get(row.inbox_id)
      if (gaps) r.emit({ ...row, sequence_gaps: gaps })
      else r.emit(row, json)
    },
  }
}

async function printStored(r: AuditRequest, run: Run, tally: Tally): Promise<void> {
  for await (const rows of r.store.rows(run))
    for (const row of rows) {
      tally.add(row, false)
      r.emit(row)
    }
}

function summaryOf(run: Run, tally: Tally, t0: number): Summary {
  const s = tally.summary((performance.now() - t0) / 1000)
  return run.meta.gaps ? { ...s, sequence_gaps: run.meta.gaps } : s
}

/** A batch for a thread, and the units its commit finishes. */
interface Work {
  readonly batch: Batch
  /** The units done once this batch is committed (called when its outcomes are in). */
  finishes(): string[]
  unitOf(o: AuditOutcome): string
}

/** Each shard of a node's snapshot is one batch. */
async function* shardWork(r: AuditRequest, run: Run, pending: readonly string[]): AsyncGenerator<Work> {
  for (const unit of pending) {
    const logs = await r.store.shard(run, unit)
    yield { batch: { kind: 'logs', logs }, finishes: () => [unit], unitOf: () => unit }
  }
}

/**
 * Files this large are read on the main thread and their inboxes cut into batches (a file of
 * a whole network); smaller ones go to a thread together up to this many bytes in all. So a
 * batch, and the memory it takes, is bounded whatever the files hold.
 */
const SPLIT_BYTES = 256 << 10
/** Inboxes per batch of a split file, at most and at least (see splitEnds). */
const SPLIT_INBOXES = 256
const SPLIT_MIN = 32

/**
 * Where the batches of a split file of `n` inboxes end: SPLIT_INBOXES each, then, as the
 * file's end nears, a share of what is left (down to SPLIT_MIN), so the threads finish
 * together instead of one idling while another runs the last full batch (a whole network
 * in one file).
 */
export function splitEnds(n: number, jobs: number): number[] {
  const ends: number[] = []
  for (let at = 0; at < n; ) {
    at = Math.min(n, at + Math.max(SPLIT_MIN, Math.min(SPLIT_INBOXES, Math.ceil((n - at) / (2 * Math.max(1, jobs))))))
    ends.push(at)
  }
  return ends
}

/**
 * Small files go to the threads a few at a time (a thread reads them); a large file is read
 * here once and its inboxes sent in batches, the file done when its last batch is committed.
 */
async function* fileWork(r: AuditRequest, pending: readonly string[]): AsyncGenerator<Work> {
  let small: string[] = []
  let smallBytes = 0
  const smallBatch = async (): Promise<Work> => {
    const paths = small
    small = []
    smallBytes = 0
    return {
      batch: { kind: 'files', paths, priors: await r.store.priorsOfSources(paths) },
      finishes: () => paths,
      unitOf: (o) => o.source,
    }
  }
  for (const path of pending) {
    let size = 0
    try {
      size = statSync(path).size
    } catch {
      size = 0 // unreadable: a thread says why
    }
    if (size < SPLIT_BYTES) {
      small.push(path)
      smallBytes += size
      if (small.length >= (r.filesPerBatch ?? 16) || smallBytes >= SPLIT_BYTES) yield await smallBatch()
      continue
    }
    const logs = fileWireLogs(path)
    const priors = (await r.store.priorsOfSources([path]))[path] ?? {}
    const ends = splitEnds(logs.length, r.jobs)
    let remaining = ends.length
    let start = 0
    for (const end of ends) {
      const part = logs.slice(start, end).map((l) => ({ ...l, prior: priors[l.key] ?? null }))
      start = end
      yield {
        batch: { kind: 'logs', logs: part },
        finishes: () => (--remaining === 0 ? [path] : []),
        unitOf: () => path,
      }
    }
  }
  if (small.length) yield await smallBatch()
}

/** Opens the request's run in its store (a new one, or the unfinished run of the same request resumed). */
const openRun = (r: AuditRequest): Promise<Run> =>
  r.store.openRun(runKey(r), {
    sources: r.files ?? [],
    ...(r.node ? { node: r.node.url } : {}),
    chains: r.chains,
  })

/**
 * The embedded audit: worker threads and the SQLite store. Returns the summary (also
 * stored); rows go to `emit` as their batches are committed.
 */
export async function auditEmbedded(r: AuditRequest): Promise<{ summary: Summary; run: Run }> {
  const t0 = performance.now()
  const { store, progress } = r
  const run = await openRun(r)
  if (run.resumed) progress.note(`resuming run ${run.id}: redoing only what it had not finished`)
  const tally = new Tally()
  if (r.node) await snapshot(r, run)
  else if (!run.resumed) await store.addUnits(run, listFiles(r.files ?? []))
  r = withGaps(r, run)
  await printStored(r, run, tally)
  const pending = (await store.units(run)).filter((u) => !u.done).map((u) => u.unit)
  const total = (await store.units(run)).length
  progress.phase(r.node ? 'auditing shards' : 'auditing files', total)
  let done = total - pending.length
  progress.tick(done, `${tally.inboxes} inboxes, ${tally.updates} updates`)
  const pool = new AuditPool(Math.max(1, r.jobs), r.chains)
  try {
    const work = r.node ? shardWork(r, run, pending) : fileWork(r, pending)
    const lane = async (): Promise<void> => {
      for (;;) {
        const next = await work.next()
        if (next.done) return
        const w = next.value
        let outcomes: AuditOutcome[]
        try {
          outcomes = await pool.run(w.batch)
        } catch (e) {
          if (!(e instanceof ThreadFailed)) throw e
          progress.note(`${e.message}; running its batch on the main thread`)
          outcomes = await runBatch(w.batch, r.chains)
        }
        const units = w.finishes()
        await store.commit(
          run,
          units,
          outcomes.map((o) => ({ unit: w.unitOf(o), outcome: o })),
        )
        for (const o of outcomes) {
          tally.add(o.row)
          r.emit(o.row, o.json)
        }
        done += units.length
        progress.tick(done, `${tally.inboxes} inboxes, ${tally.updates} updates`)
      }
    }
    // One batch in flight per thread, and one more ready, so no thread waits for the store.
    await Promise.all(Array.from({ length: Math.max(1, r.jobs) + 1 }, lane))
  } finally {
    pool.close()
  }
  const summary = summaryOf(run, tally, t0)
  await store.finish(run, summary)
  progress.end()
  return { summary, run }
}

export interface Queue {
  /** Enqueues a job per unit. */
  enqueue(run: Run, units: readonly string[]): Promise<void>
  /** Jobs of the queue not finished (queued, waiting for a retry, or running), of any run. */
  live(): Promise<number>
  close(): Promise<void>
}

/**
 * The PostgreSQL coordinator: snapshot, enqueue the shards not done, then print each
 * shard's rows once its job is done, until every shard is.
 */
export async function auditDistributed(
  r: AuditRequest & { queue: Queue; pollMs?: number; requeueMs?: number },
): Promise<Summary> {
  const t0 = performance.now()
  const { store, progress } = r
  const run = await openRun(r)
  if (run.resumed) progress.note(`resuming run ${run.id}: only the shards not done are queued again`)
  await snapshot(r, run)
  r = withGaps(r, run)
  const tally = new Tally()
  const printed = new Set<string>()
  const units = await store.units(run)
  const pendingUnits = (list: readonly { unit: string; done: boolean }[]) =>
    list.filter((u) => !u.done).map((u) => u.unit)
  // A resumed coordinator leaves jobs still in the queue to the workers.
  if (!run.resumed || (await r.queue.live()) === 0) await r.queue.enqueue(run, pendingUnits(units))
  progress.phase('shards done by audit-worker processes', units.length)
  let waitedNote = false
  const started = performance.now()
  let lastChange = performance.now()
  for (;;) {
    const now = await store.units(run)
    const fresh = now.filter((u) => u.done && !printed.has(u.unit)).map((u) => u.unit)
    if (!fresh.length && performance.now() - lastChange > (r.requeueMs ?? 10_000)) {
      // Nothing moved: when no job is left in the queue (a shard's retries ran out, or its
      // jobs were deleted), the shards not done are queued again.
      lastChange = performance.now()
      const pending = pendingUnits(now)
      if (pending.length && (await r.queue.live()) === 0) {
        progress.note(`no job left in the queue for ${pending.length} shards not done: queued again`)
        await r.queue.enqueue(run, pending)
      }
    }
    if (fresh.length) {
      lastChange = performance.now()
      for await (const rows of store.rows(run, fresh))
        for (const row of rows) {
          tally.add(row)
          r.emit(row)
        }
      for (const u of fresh) printed.add(u)
      progress.tick(printed.size, `${tally.inboxes} inboxes, ${tally.updates} updates`)
    }
    if (printed.size === now.length) break
    if (!waitedNote && printed.size === 0 && performance.now() - started > 10_000) {
      waitedNote = true
      progress.note('no shard is done yet: are audit-worker processes running against this store?')
    }
    await new Promise((res) => setTimeout(res, r.pollMs ?? 250))
  }
  const summary = summaryOf(run, tally, t0)
  await store.finish(run, summary)
  progress.end()
  return summary
}
