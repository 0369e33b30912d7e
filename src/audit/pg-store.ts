/**
 * The distributed results store (./store.ts) in PostgreSQL (node-postgres): the same
 * tables as the SQLite store, in the schema `inbox_audit`. A job's rows are upserted by
 * (run, source, inbox) and its shard marked done in one transaction, so a job done twice
 * (at-least-once delivery) writes its rows once.
 */
import pg from 'pg'
import type { PriorHead } from './job'
import type { WireLog } from './inputs'
import type { AuditRow, Summary } from './row'
import { groupSnapshot } from './sqlite-store'
import { type AuditStore, pairKey, priorOf, type Run, type RunMeta, snapshotRows, type Unit } from './store'

const SCHEMA = `
CREATE SCHEMA IF NOT EXISTS inbox_audit;
CREATE TABLE IF NOT EXISTS inbox_audit.audit_runs (
  id BIGSERIAL PRIMARY KEY, key TEXT NOT NULL, meta JSONB NOT NULL,
  started_at TIMESTAMPTZ NOT NULL DEFAULT now(), finished_at TIMESTAMPTZ, summary JSONB);
CREATE INDEX IF NOT EXISTS audit_runs_by_key ON inbox_audit.audit_runs (key, finished_at);
CREATE TABLE IF NOT EXISTS inbox_audit.audit_units (
  run_id BIGINT NOT NULL, unit TEXT NOT NULL, done BOOLEAN NOT NULL DEFAULT false,
  PRIMARY KEY (run_id, unit));
CREATE TABLE IF NOT EXISTS inbox_audit.audit_results (
  run_id BIGINT NOT NULL, source TEXT NOT NULL, key TEXT NOT NULL, unit TEXT NOT NULL, row JSONB NOT NULL,
  PRIMARY KEY (run_id, source, key));
CREATE INDEX IF NOT EXISTS audit_results_by_unit ON inbox_audit.audit_results (run_id, unit);
CREATE TABLE IF NOT EXISTS inbox_audit.audit_heads (
  source TEXT NOT NULL, key TEXT NOT NULL, last_seq TEXT, log_digest TEXT NOT NULL,
  state_format INTEGER NOT NULL, state BYTEA, row JSONB NOT NULL, PRIMARY KEY (source, key));
CREATE TABLE IF NOT EXISTS inbox_audit.audit_snapshot (
  run_id BIGINT NOT NULL, shard_key TEXT NOT NULL COLLATE "C", source TEXT NOT NULL COLLATE "C", key TEXT NOT NULL COLLATE "C",
  seq TEXT NOT NULL COLLATE "C", inbox_id TEXT, ts TEXT, bytes BYTEA, error TEXT, action_index INTEGER, unreadable TEXT,
  PRIMARY KEY (run_id, shard_key, source, key, seq));
`

/** One advisory lock for the schema's creation: two processes starting at once do not race on CREATE. */
const SCHEMA_LOCK = 0x1b0a_0d17

export class StoreUnreachable extends Error {
  override readonly name = 'StoreUnreachable'
}

/** The URL without its password, for messages. */
export const redact = (url: string): string => url.replace(/\/\/([^:/@]+):[^@]*@/, '//$1:***@')

export async function openPgStore(url: string): Promise<AuditStore> {
  const pool = new pg.Pool({ connectionString: url, max: 4 })
  pool.on('error', () => undefined) // an idle client's error surfaces on the next query
  try {
    const c = await pool.connect()
    try {
      await c.query('SELECT pg_advisory_lock($1)', [SCHEMA_LOCK])
      await c.query(SCHEMA)
      await c.query('SELECT pg_advisory_unlock($1)', [SCHEMA_LOCK])
    } finally {
      c.release()
    }
  } catch (e) {
    await pool.end().catch(() => undefined)
    throw new StoreUnreachable(`--store ${redact(url)}: cannot use the store: ${(e as Error).message}`)
  }
  const tx = async <T>(f: (c: pg.PoolClient) => Promise<T>): Promise<T> => {
    const c = await pool.connect()
    try {
      await c.query('BEGIN')
      const r = await f(c)
      await c.query('COMMIT')
      return r
    } catch (e) {
      await c.query('ROLLBACK').catch(() => undefined)
      throw e
    } finally {
      c.release()
    }
  }
  const priors = async (pairs: readonly { source: string; key: string }[]): Promise<Map<string, PriorHead>> => {
    const m = new Map<string, PriorHead>()
    if (!pairs.length) return m
    const { rows } = await pool.query(
      'SELECT h.source, h.key, h.last_seq, h.log_digest, h.state_format, h.state, h.row::text AS row FROM inbox_audit.audit_heads h JOIN unnest($1::text[], $2::text[]) AS p(source, key) ON h.source = p.source AND h.key = p.key',
      [pairs.map((p) => p.source), pairs.map((p) => p.key)],
    )
    for (const r of rows) m.set(pairKey(r.source as string, r.key as string), priorOf(r))
    return m
  }
  const listUnits = async (run: Run): Promise<Unit[]> => {
    const { rows } = await pool.query(
      'SELECT unit, done FROM inbox_audit.audit_units WHERE run_id = $1 ORDER BY unit COLLATE "C"',
      [run.id],
    )
    return rows.map((r) => ({ unit: r.unit as string, done: r.done as boolean }))
  }
  return {
    kind: 'postgres',
    async openRun(key: string, meta: RunMeta): Promise<Run> {
      const found = await pool.query(
        'SELECT id, meta FROM inbox_audit.audit_runs WHERE key = $1 AND finished_at IS NULL ORDER BY id DESC LIMIT 1',
        [key],
      )
      if (found.rows.length) return { id: Number(found.rows[0].id), resumed: true, meta: found.rows[0].meta as RunMeta }
      const r = await pool.query('INSERT INTO inbox_audit.audit_runs (key, meta) VALUES ($1, $2) RETURNING id', [
        key,
        meta,
      ])
      return { id: Number(r.rows[0].id), resumed: false, meta }
    },
    async setMeta(run, meta) {
      run.meta = meta
      await pool.query('UPDATE inbox_audit.audit_runs SET meta = $1 WHERE id = $2', [meta, run.id])
    },
    async addUnits(run, units) {
      for (let i = 0; i < units.length; i += 5000)
        await pool.query(
          'INSERT INTO inbox_audit.audit_units (run_id, unit) SELECT $1, u FROM unnest($2::text[]) AS u ON CONFLICT DO NOTHING',
          [run.id, units.slice(i, i + 5000)],
        )
    },
    units: listUnits,
    async *rows(run, units) {
      const list = units ?? (await listUnits(run)).filter((u) => u.done).map((u) => u.unit)
      for (let i = 0; i < list.length; i += 64) {
        const { rows } = await pool.query(
          'SELECT row::text AS row FROM inbox_audit.audit_results WHERE run_id = $1 AND unit = ANY($2::text[]) ORDER BY unit COLLATE "C", source COLLATE "C", key COLLATE "C"',
          [run.id, list.slice(i, i + 64)],
        )
        yield rows.map((r) => JSON.parse(r.row as string) as AuditRow)
      }
    },
    priors,
    async priorsOfSources(sources) {
      const out: Record<string, Record<string, PriorHead>> = {}
      const { rows } = await pool.query(
        'SELECT source, key, last_seq, log_digest, state_format, state, row::text AS row FROM inbox_audit.audit_heads WHERE source = ANY($1::text[])',
        [sources],
      )
      for (const r of rows) (out[r.source as string] ??= {})[r.key as string] = priorOf(r)
      return out
    },
    async commit(run, units, outcomes) {
      await tx(async (c) => {
        for (let i = 0; i < outcomes.length; i += 500) {
          const part = outcomes.slice(i, i + 500)
          const rowsText = part.map((o) => o.outcome.json ?? JSON.stringify(o.outcome.row))
          await c.query(
            `INSERT INTO inbox_audit.audit_results (run_id, source, key, unit, row)
             SELECT $1, s, k, u, r::jsonb FROM unnest($2::text[], $3::text[], $4::text[], $5::text[]) AS t(s, k, u, r)
             ON CONFLICT (run_id, source, key) DO UPDATE SET row = excluded.row, unit = excluded.unit`,
            [
              run.id,
              part.map((o) => o.outcome.source),
              part.map((o) => o.outcome.key),
              part.map((o) => o.unit),
              rowsText,
            ],
          )
          await c.query(
            `INSERT INTO inbox_audit.audit_heads (source, key, last_seq, log_digest, state_format, state, row)
             SELECT s, k, l, d, f, st, r::jsonb FROM unnest($1::text[], $2::text[], $3::text[], $4::text[], $5::int[], $6::bytea[], $7::text[]) AS t(s, k, l, d, f, st, r)
             ON CONFLICT (source, key) DO UPDATE SET last_seq = excluded.last_seq, log_digest = excluded.log_digest,
               state_format = excluded.state_format, state = excluded.state, row = excluded.row`,
            [
              part.map((o) => o.outcome.source),
              part.map((o) => o.outcome.key),
              part.map((o) => o.outcome.head.lastSeq),
              part.map((o) => o.outcome.head.logDigest),
              part.map((o) => o.outcome.head.stateFormat),
              part.map((o) => (o.outcome.head.state ? Buffer.from(o.outcome.head.state) : null)),
              rowsText,
            ],
          )
        }
        await c.query('UPDATE inbox_audit.audit_units SET done = true WHERE run_id = $1 AND unit = ANY($2::text[])', [
          run.id,
          units,
        ])
      })
    },
    async putSnapshot(run, logs: readonly WireLog[]) {
      const cols: (string | null | Uint8Array | number)[][] = [[], [], [], [], [], [], [], [], [], []]
      for (const row of snapshotRows(logs))
        for (const [i, x] of row.entries()) cols[i]!.push(x instanceof Uint8Array ? Buffer.from(x) : x)
      if (!cols[0]!.length) return
      await pool.query(
        `INSERT INTO inbox_audit.audit_snapshot (run_id, shard_key, source, key, seq, inbox_id, ts, bytes, error, action_index, unreadable)
         SELECT $1, * FROM unnest($2::text[], $3::text[], $4::text[], $5::text[], $6::text[], $7::text[], $8::bytea[], $9::text[], $10::int[], $11::text[])
         ON CONFLICT DO NOTHING`,
        [run.id, ...cols],
      )
    },
    async clearSnapshot(run) {
      await pool.query('DELETE FROM inbox_audit.audit_snapshot WHERE run_id = $1', [run.id])
    },
    async shardsOf(run, length) {
      const { rows } = await pool.query(
        'SELECT DISTINCT substr(shard_key, 1, $2) AS p FROM inbox_audit.audit_snapshot WHERE run_id = $1 ORDER BY p',
        [run.id, length],
      )
      return rows.map((r) => r.p as string)
    },
    async snapshotInboxes(run) {
      const { rows } = await pool.query(
        "SELECT count(*)::int AS n FROM inbox_audit.audit_snapshot WHERE run_id = $1 AND seq = ''",
        [run.id],
      )
      return rows[0].n as number
    },
    async shard(run, prefix) {
      const { rows } = await pool.query(
        `SELECT shard_key, source, key, seq, inbox_id, ts, bytes, error, action_index, unreadable FROM inbox_audit.audit_snapshot
         WHERE run_id = $1 AND shard_key >= $2 AND shard_key < $3 ORDER BY shard_key, source, key, seq`,
        [run.id, prefix, `${prefix}\u{10ffff}`],
      )
      const logs = groupSnapshot(rows)
      const ps = await priors(logs)
      return logs.map((l) => ({ ...l, prior: ps.get(pairKey(l.source, l.key)) ?? null }))
    },
    async finish(run, summary: Summary) {
      await tx(async (c) => {
        await c.query('UPDATE inbox_audit.audit_runs SET finished_at = now(), summary = $1 WHERE id = $2', [
          summary,
          run.id,
        ])
        // Earlier finished runs of the same inputs: their rows are superseded (the heads stay; a
        // snapshot is kept, since a run still following its node reads it).
        await c.query(
          `DELETE FROM inbox_audit.audit_results WHERE run_id IN (SELECT id FROM inbox_audit.audit_runs
             WHERE key = (SELECT key FROM inbox_audit.audit_runs WHERE id = $1) AND id <> $1 AND finished_at IS NOT NULL)`,
          [run.id],
        )
      })
    },
    async close() {
      await pool.end()
    },
  }
}
