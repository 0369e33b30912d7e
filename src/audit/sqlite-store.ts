/**
 * The embedded results store (./store.ts) in SQLite (better-sqlite3): `--db <file>`, or a
 * temporary file removed at the end. WAL, and one transaction per committed batch, so a
 * SIGKILL loses at most the batches in flight.
 */
import Database from 'better-sqlite3'
import type { AuditOutcome, PriorHead } from './job'
import type { WireLog } from './inputs'
import type { AuditRow, Summary } from './row'
import {
  type AuditStore,
  pairKey,
  priorOf,
  type Run,
  type RunMeta,
  type SnapshotRow,
  snapshotRows,
  type Unit,
} from './store'

const SCHEMA = `
CREATE TABLE IF NOT EXISTS audit_runs (
  id INTEGER PRIMARY KEY AUTOINCREMENT, key TEXT NOT NULL, meta TEXT NOT NULL,
  started_ms INTEGER NOT NULL, finished_ms INTEGER, summary TEXT);
CREATE INDEX IF NOT EXISTS audit_runs_by_key ON audit_runs (key, finished_ms);
CREATE TABLE IF NOT EXISTS audit_units (
  run_id INTEGER NOT NULL, unit TEXT NOT NULL, done INTEGER NOT NULL DEFAULT 0,
  PRIMARY KEY (run_id, unit)) WITHOUT ROWID;
CREATE TABLE IF NOT EXISTS audit_results (
  run_id INTEGER NOT NULL, source TEXT NOT NULL, key TEXT NOT NULL, unit TEXT NOT NULL, row TEXT NOT NULL,
  PRIMARY KEY (run_id, source, key));
CREATE INDEX IF NOT EXISTS audit_results_by_unit ON audit_results (run_id, unit);
CREATE TABLE IF NOT EXISTS audit_heads (
  source TEXT NOT NULL, key TEXT NOT NULL, last_seq TEXT, log_digest TEXT NOT NULL,
  state_format INTEGER NOT NULL, state BLOB, row TEXT NOT NULL, PRIMARY KEY (source, key));
CREATE TABLE IF NOT EXISTS audit_snapshot (
  run_id INTEGER NOT NULL, shard_key TEXT NOT NULL, source TEXT NOT NULL, key TEXT NOT NULL,
  seq TEXT NOT NULL, inbox_id TEXT, ts TEXT, bytes BLOB, error TEXT, action_index INTEGER, unreadable TEXT,
  PRIMARY KEY (run_id, shard_key, source, key, seq));
`

interface SnapRow {
  shard_key: string
  source: string
  key: string
  seq: string
  inbox_id: string | null
  ts: string | null
  bytes: Buffer | null
  error: string | null
  action_index: number | null
  unreadable: string | null
}

interface HeadRow {
  source: string
  key: string
  last_seq: string | null
  log_digest: string
  state_format: number
  state: Buffer | null
  row: string
}

/** Groups snapshot rows (ordered by shard key, source, key, seq) into wire logs. */
export function groupSnapshot(rows: Iterable<SnapRow>): WireLog[] {
  const out: (WireLog & { entries: WireLog['entries'] & unknown[] })[] = []
  let cur: {
    source: string
    key: string
    inboxId: string | null
    entries: NonNullable<WireLog['entries']>[number][]
    unreadable?: string
  } | null = null
  for (const r of rows) {
    if (!cur || cur.source !== r.source || cur.key !== r.key) {
      cur = { source: r.source, key: r.key, inboxId: r.inbox_id, entries: [] }
      out.push(cur as never)
    }
    if (r.inbox_id && !cur.inboxId) cur.inboxId = r.inbox_id
    if (r.seq === '') {
      if (r.unreadable !== null) cur.unreadable = r.unreadable
      continue
    }
    cur.entries.push({
      seq: BigInt(r.seq),
      ts: r.ts === null ? null : BigInt(r.ts),
      bytes: r.bytes ? new Uint8Array(r.bytes) : null,
      error: r.error,
      actionIndex: r.action_index,
    })
  }
  return out
}

export function openSqliteStore(file: string): AuditStore {
  const db = new Database(file)
  db.pragma('journal_mode = WAL')
  // No fsync at all: a killed process loses nothing SQLite had written (the WAL is in the
  // page cache), and a crash of the machine itself costs at most the run (started again).
  db.pragma('synchronous = OFF')
  db.pragma('busy_timeout = 5000')
  // A large page cache (64 MiB, a bound like the batches'): the results' and heads' b-trees
  // grow with the network, and with SQLite's default 2 MiB every insert read pages back.
  db.pragma('cache_size = -65536')
  db.exec(SCHEMA)
  const q = {
    findRun: db.prepare<[string], { id: number; meta: string }>(
      'SELECT id, meta FROM audit_runs WHERE key = ? AND finished_ms IS NULL ORDER BY id DESC LIMIT 1',
    ),
    newRun: db.prepare<[string, string, number]>('INSERT INTO audit_runs (key, meta, started_ms) VALUES (?, ?, ?)'),
    setMeta: db.prepare<[string, number]>('UPDATE audit_runs SET meta = ? WHERE id = ?'),
    addUnit: db.prepare<[number, string]>('INSERT OR IGNORE INTO audit_units (run_id, unit) VALUES (?, ?)'),
    units: db.prepare<[number], { unit: string; done: number }>(
      'SELECT unit, done FROM audit_units WHERE run_id = ? ORDER BY unit',
    ),
    done: db.prepare<[number, string]>('UPDATE audit_units SET done = 1 WHERE run_id = ? AND unit = ?'),
    putRow: db.prepare<[number, string, string, string, string]>(
      'INSERT INTO audit_results (run_id, source, key, unit, row) VALUES (?, ?, ?, ?, ?) ON CONFLICT (run_id, source, key) DO UPDATE SET row = excluded.row, unit = excluded.unit',
    ),
    putHead: db.prepare<[string, string, string | null, string, number, Uint8Array | null, string]>(
      'INSERT INTO audit_heads (source, key, last_seq, log_digest, state_format, state, row) VALUES (?, ?, ?, ?, ?, ?, ?) ON CONFLICT (source, key) DO UPDATE SET last_seq = excluded.last_seq, log_digest = excluded.log_digest, state_format = excluded.state_format, state = excluded.state, row = excluded.row',
    ),
    head: db.prepare<[string, string], HeadRow>('SELECT * FROM audit_heads WHERE source = ? AND key = ?'),
    headsOf: db.prepare<[string], HeadRow>('SELECT * FROM audit_heads WHERE source = ?'),
    rowsOfRun: db.prepare<[number], { row: string }>(
      'SELECT r.row FROM audit_results r JOIN audit_units u ON u.run_id = r.run_id AND u.unit = r.unit WHERE r.run_id = ? AND u.done = 1 ORDER BY r.unit, r.source, r.key',
    ),
    rowsOfUnit: db.prepare<[number, string], { row: string }>(
      'SELECT row FROM audit_results WHERE run_id = ? AND unit = ? ORDER BY source, key',
    ),
    putSnap: db.prepare<[number, ...SnapshotRow]>(
      'INSERT OR IGNORE INTO audit_snapshot (run_id, shard_key, source, key, seq, inbox_id, ts, bytes, error, action_index, unreadable) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)',
    ),
    clearSnap: db.prepare<[number]>('DELETE FROM audit_snapshot WHERE run_id = ?'),
    shards: db.prepare<[number, number], { p: string }>(
      'SELECT DISTINCT substr(shard_key, 1, ?) AS p FROM audit_snapshot WHERE run_id = ? ORDER BY p',
    ),
    count: db.prepare<[number], { n: number }>(
      "SELECT count(*) AS n FROM audit_snapshot WHERE run_id = ? AND seq = ''",
    ),
    shard: db.prepare<[number, string, string], SnapRow>(
      'SELECT shard_key, source, key, seq, inbox_id, ts, bytes, error, action_index, unreadable FROM audit_snapshot WHERE run_id = ? AND shard_key >= ? AND shard_key < ? ORDER BY shard_key, source, key, seq',
    ),
    finish: db.prepare<[number, string, number]>('UPDATE audit_runs SET finished_ms = ?, summary = ? WHERE id = ?'),
    // Earlier finished runs of the same inputs: their rows are superseded (the heads stay; a
    // snapshot is kept, since a run still following its node reads it).
    pruneResults: db.prepare<[number, number]>(
      'DELETE FROM audit_results WHERE run_id IN (SELECT id FROM audit_runs WHERE key = (SELECT key FROM audit_runs WHERE id = ?) AND id <> ? AND finished_ms IS NOT NULL)',
    ),
  }
  const commit = db.transaction(
    (run: Run, units: readonly string[], outcomes: readonly { unit: string; outcome: AuditOutcome }[]) => {
      for (const { unit, outcome: o } of outcomes) {
        const row = o.json ?? JSON.stringify(o.row)
        q.putRow.run(run.id, o.source, o.key, unit, row)
        const h = o.head
        q.putHead.run(
          o.source,
          o.key,
          h.lastSeq,
          h.logDigest,
          h.stateFormat,
          // The view itself: better-sqlite3 binds any Uint8Array as a BLOB of its own bytes
          // (a Buffer made over it per row cost more than the insert's binding).
          h.state,
          row,
        )
      }
      for (const u of units) q.done.run(run.id, u)
    },
  )
  const putSnapshot = db.transaction((run: Run, logs: readonly WireLog[]) => {
    for (const row of snapshotRows(logs)) q.putSnap.run(run.id, ...row)
  })
  const priors = (pairs: readonly { source: string; key: string }[]): Map<string, PriorHead> => {
    const m = new Map<string, PriorHead>()
    for (const p of pairs) {
      const r = q.head.get(p.source, p.key)
      if (r) m.set(pairKey(p.source, p.key), priorOf(r))
    }
    return m
  }
  return {
    kind: 'sqlite',
    async openRun(key: string, meta: RunMeta): Promise<Run> {
      const found = q.findRun.get(key)
      if (found) return { id: found.id, resumed: true, meta: JSON.parse(found.meta) as RunMeta }
      const id = Number(q.newRun.run(key, JSON.stringify(meta), Date.now()).lastInsertRowid)
      return { id, resumed: false, meta }
    },
    async setMeta(run, meta) {
      run.meta = meta
      q.setMeta.run(JSON.stringify(meta), run.id)
    },
    async addUnits(run, units) {
      db.transaction(() => {
        for (const u of units) q.addUnit.run(run.id, u)
      })()
    },
    async units(run): Promise<Unit[]> {
      return q.units.all(run.id).map((u) => ({ unit: u.unit, done: u.done === 1 }))
    },
    async *rows(run, units) {
      if (units) {
        for (const u of units) yield q.rowsOfUnit.all(run.id, u).map((r) => JSON.parse(r.row) as AuditRow)
        return
      }
      let batch: AuditRow[] = []
      for (const r of q.rowsOfRun.iterate(run.id)) {
        batch.push(JSON.parse(r.row) as AuditRow)
        if (batch.length >= 1000) {
          yield batch
          batch = []
        }
      }
      if (batch.length) yield batch
    },
    async priors(pairs) {
      return priors(pairs)
    },
    async priorsOfSources(sources) {
      const out: Record<string, Record<string, PriorHead>> = {}
      for (const s of sources) {
        const rows = q.headsOf.all(s)
        if (!rows.length) continue
        const m: Record<string, PriorHead> = {}
        for (const r of rows) m[r.key] = priorOf(r)
        out[s] = m
      }
      return out
    },
    async commit(run, units, outcomes) {
      commit(run, units, outcomes)
    },
    async putSnapshot(run, logs) {
      putSnapshot(run, logs)
    },
    async clearSnapshot(run) {
      q.clearSnap.run(run.id)
    },
    async shardsOf(run, length) {
      return q.shards.all(length, run.id).map((r) => r.p)
    },
    async snapshotInboxes(run) {
      return q.count.get(run.id)?.n ?? 0
    },
    async shard(run, prefix) {
      const logs = groupSnapshot(q.shard.iterate(run.id, prefix, `${prefix}\u{10ffff}`))
      const ps = priors(logs)
      return logs.map((l) => ({ ...l, prior: ps.get(pairKey(l.source, l.key)) ?? null }))
    },
    async finish(run, summary: Summary) {
      db.transaction(() => {
        q.finish.run(Date.now(), JSON.stringify(summary), run.id)
        q.pruneResults.run(run.id, run.id)
      })()
    },
    async close() {
      db.close()
    },
  }
}
