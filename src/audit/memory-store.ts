/**
 * The results store of an audit without `--db` (./store.ts): in this process's memory,
 * for this run only. Nothing outlives the process, so a run is never resumed and no row
 * is read back: rows are printed as their batch is done and not kept. What a run keeps
 * grows only with what it must: its units (a file or a shard each) and their `done`; a
 * node's snapshot (the listing, judged shard by shard, as the SQLite store keeps it on
 * disk); and, with `keepHeads` (`--follow`), each inbox's head, so that an inbox the node
 * changes later is judged from it. A run over files keeps nothing per inbox.
 */
import type { AuditOutcome, PriorHead } from './job'
import type { WireLog } from './inputs'
import { type AuditStore, pairKey, type Run, type RunMeta, shardKey, type Unit } from './store'

type Entry = NonNullable<WireLog['entries']>[number]

/** One inbox of the snapshot: its entries by sequence id (a repeat of one is ignored, as SQLite's INSERT OR IGNORE). */
interface SnapLog {
  readonly shardKey: string
  readonly source: string
  readonly key: string
  inboxId: string | null
  unreadable?: string
  readonly entries: Map<bigint, Entry>
}

const byText = (a: string, b: string): number => (a < b ? -1 : a > b ? 1 : 0)

export function openMemoryStore(options: { keepHeads?: boolean } = {}): AuditStore {
  let nextRun = 1
  const units = new Map<string, boolean>()
  const heads = new Map<string, PriorHead>()
  const snap = new Map<string, SnapLog>()
  /** The snapshot's inboxes by whole shard key (`--follow` asks for one inbox at a time). */
  const byShardKey = new Map<string, SnapLog[]>()
  /** The snapshot's inboxes by shard prefix, for one prefix length (made when asked, dropped when the snapshot changes). */
  let groups: { length: number; byPrefix: Map<string, SnapLog[]> } | null = null

  const groupsOf = (length: number): Map<string, SnapLog[]> => {
    if (groups?.length === length) return groups.byPrefix
    const byPrefix = new Map<string, SnapLog[]>()
    const sorted = [...snap.values()].sort(
      (a, b) => byText(a.shardKey, b.shardKey) || byText(a.source, b.source) || byText(a.key, b.key),
    )
    for (const l of sorted) {
      const p = l.shardKey.slice(0, length)
      let g = byPrefix.get(p)
      if (!g) byPrefix.set(p, (g = []))
      g.push(l)
    }
    groups = { length, byPrefix }
    return byPrefix
  }

  const wireOf = (l: SnapLog): WireLog & { prior: PriorHead | null } => ({
    source: l.source,
    key: l.key,
    inboxId: l.inboxId,
    entries: [...l.entries.values()].sort((a, b) => (a.seq < b.seq ? -1 : a.seq > b.seq ? 1 : 0)),
    ...(l.unreadable !== undefined ? { unreadable: l.unreadable } : {}),
    prior: heads.get(pairKey(l.source, l.key)) ?? null,
  })

  return {
    kind: 'memory',
    async openRun(_key: string, meta: RunMeta): Promise<Run> {
      units.clear()
      snap.clear()
      byShardKey.clear()
      groups = null
      return { id: nextRun++, resumed: false, meta }
    },
    async setMeta(run, meta) {
      run.meta = meta
    },
    async addUnits(_run, list) {
      for (const u of list) if (!units.has(u)) units.set(u, false)
    },
    async units(): Promise<Unit[]> {
      return [...units].map(([unit, done]) => ({ unit, done })).sort((a, b) => byText(a.unit, b.unit))
    },
    // A run in memory is never resumed: no row is kept to read back.
    async *rows() {},
    async priors(pairs) {
      const m = new Map<string, PriorHead>()
      for (const p of pairs) {
        const h = heads.get(pairKey(p.source, p.key))
        if (h) m.set(pairKey(p.source, p.key), h)
      }
      return m
    },
    async priorsOfSources(sources) {
      const out: Record<string, Record<string, PriorHead>> = {}
      if (heads.size === 0) return out
      const wanted = new Set(sources)
      for (const [k, h] of heads) {
        const [source, key] = k.split('\u0000') as [string, string]
        if (wanted.has(source)) (out[source] ??= {})[key] = h
      }
      return out
    },
    async commit(_run, done, outcomes: readonly { unit: string; outcome: AuditOutcome }[]) {
      if (options.keepHeads) for (const { outcome: o } of outcomes) heads.set(pairKey(o.source, o.key), o.head)
      for (const u of done) units.set(u, true)
    },
    async putSnapshot(_run, logs) {
      groups = null
      for (const l of logs) {
        const k = pairKey(l.source, l.key)
        let s = snap.get(k)
        if (!s) {
          s = {
            shardKey: shardKey(l.source, l.key),
            source: l.source,
            key: l.key,
            inboxId: l.inboxId,
            entries: new Map(),
          }
          snap.set(k, s)
          const same = byShardKey.get(s.shardKey)
          if (same) same.push(s)
          else byShardKey.set(s.shardKey, [s])
        }
        if (l.inboxId && !s.inboxId) s.inboxId = l.inboxId
        if (l.unreadable !== undefined && s.unreadable === undefined) s.unreadable = l.unreadable
        for (const e of l.entries ?? []) if (!s.entries.has(e.seq)) s.entries.set(e.seq, e)
      }
    },
    async clearSnapshot() {
      snap.clear()
      byShardKey.clear()
      groups = null
    },
    async shardsOf(_run, length) {
      return [...groupsOf(length).keys()]
    },
    async snapshotInboxes() {
      return snap.size
    },
    async shard(_run, prefix) {
      if (prefix.length === 64 && groups?.length !== 64)
        return (byShardKey.get(prefix) ?? [])
          .slice()
          .sort((a, b) => byText(a.source, b.source) || byText(a.key, b.key))
          .map(wireOf)
      return (groupsOf(prefix.length).get(prefix) ?? []).map(wireOf)
    },
    async finish() {
      // The summary is printed; nothing of the run is kept for a later one.
    },
    async close() {
      units.clear()
      heads.clear()
      snap.clear()
      byShardKey.clear()
      groups = null
    },
  }
}
