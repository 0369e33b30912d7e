/**
 * The local node's store: one SQLite file (better-sqlite3, WAL, synchronous=FULL so an
 * acknowledged update survives kill -9; ../shared/notes/toolchain.md §8).
 *
 *   updates      the global log: sequence_id INTEGER PRIMARY KEY AUTOINCREMENT (ids only
 *                grow and are never reused, also after a crash), inbox_id,
 *                server_timestamp_ns, bytes (the update's exact bytes, BLOB)
 *   members      member key (`${kind}:${text}`) → every inbox it was ever a member of:
 *                the candidates of section 9 resolution, judged against head states
 *   claims       one row per stored ClaimHandle: the handle lookup (API-299, old handles
 *                included) and the admission policy (holder, interval since last claim)
 *   heads        per inbox, the head state as of a sequence id, with a digest of the log it
 *                was built from (./heads.ts): a cache, used only when it matches the log
 *   key_packages per installation key, the newest MLS key package uploaded for it
 *                (./mls.ts), with the inbox its credential names
 *
 * `members` and `claims` are written by admission in the transaction that stores the
 * update, so they never disagree with `updates`. Integers are read as bigint
 * (defaultSafeIntegers); BLOBs come back as Buffer and are copied to plain Uint8Array.
 */
import Database from 'better-sqlite3'

export interface StoredUpdate {
  readonly sequenceId: bigint
  readonly inboxId: string
  readonly serverTimestampNs: bigint
  readonly bytes: Uint8Array
}

const SCHEMA_VERSION = 1

const SCHEMA = `
CREATE TABLE IF NOT EXISTS updates (
  sequence_id INTEGER PRIMARY KEY AUTOINCREMENT,
  inbox_id TEXT NOT NULL,
  server_timestamp_ns INTEGER NOT NULL,
  bytes BLOB NOT NULL
) STRICT;
CREATE INDEX IF NOT EXISTS updates_by_inbox ON updates (inbox_id, sequence_id);
CREATE TABLE IF NOT EXISTS members (
  member_key TEXT NOT NULL,
  inbox_id TEXT NOT NULL,
  PRIMARY KEY (member_key, inbox_id)
) STRICT, WITHOUT ROWID;
CREATE TABLE IF NOT EXISTS claims (
  sequence_id INTEGER PRIMARY KEY REFERENCES updates (sequence_id),
  inbox_id TEXT NOT NULL,
  handle TEXT NOT NULL,
  server_timestamp_ns INTEGER NOT NULL
) STRICT;
CREATE INDEX IF NOT EXISTS claims_by_handle ON claims (handle, sequence_id);
CREATE INDEX IF NOT EXISTS claims_by_inbox ON claims (inbox_id, sequence_id);
CREATE TABLE IF NOT EXISTS heads (
  inbox_id TEXT PRIMARY KEY,
  sequence_id INTEGER NOT NULL,
  format INTEGER NOT NULL,
  log_digest BLOB NOT NULL,
  state BLOB NOT NULL
) STRICT, WITHOUT ROWID;
CREATE TABLE IF NOT EXISTS key_packages (
  installation_key BLOB PRIMARY KEY,
  inbox_id TEXT,
  key_package BLOB NOT NULL,
  uploaded_ns INTEGER NOT NULL
) STRICT, WITHOUT ROWID;
`

/** A head state saved beside the log (./heads.ts says when it may be used). */
export interface SavedHead {
  readonly sequenceId: bigint
  readonly format: number
  readonly logDigest: Uint8Array
  readonly state: Uint8Array
}

/** The largest SQLite INTEGER; every sequence id the store hands out is below it. */
const SQLITE_INTEGER_MAX = (1n << 63n) - 1n

type Row = { sequence_id: bigint; inbox_id: string; server_timestamp_ns: bigint; bytes: Buffer }

const toStored = (r: Row): StoredUpdate => ({
  sequenceId: r.sequence_id,
  inboxId: r.inbox_id,
  serverTimestampNs: r.server_timestamp_ns,
  bytes: new Uint8Array(r.bytes),
})

function prepareQueries(db: Database.Database) {
  return {
    insert: db.prepare<[string, bigint, Uint8Array]>(
      'INSERT INTO updates (inbox_id, server_timestamp_ns, bytes) VALUES (?, ?, ?)',
    ),
    insertMember: db.prepare<[string, string]>('INSERT OR IGNORE INTO members (member_key, inbox_id) VALUES (?, ?)'),
    insertClaim: db.prepare<[bigint, string, string, bigint]>(
      'INSERT INTO claims (sequence_id, inbox_id, handle, server_timestamp_ns) VALUES (?, ?, ?, ?)',
    ),
    newest: db.prepare<[string], { s: bigint | null }>('SELECT max(sequence_id) AS s FROM updates WHERE inbox_id = ?'),
    after: db.prepare<[string, bigint], Row>(
      'SELECT sequence_id, inbox_id, server_timestamp_ns, bytes FROM updates WHERE inbox_id = ? AND sequence_id > ? ORDER BY sequence_id',
    ),
    afterAll: db.prepare<[bigint, number], Row>(
      'SELECT sequence_id, inbox_id, server_timestamp_ns, bytes FROM updates WHERE sequence_id > ? ORDER BY sequence_id LIMIT ?',
    ),
    inboxesOfMember: db.prepare<[string], { inbox_id: string }>(
      'SELECT inbox_id FROM members WHERE member_key = ? ORDER BY inbox_id',
    ),
    claimers: db.prepare<[string], { inbox_id: string; sequence_id: bigint }>(
      'SELECT inbox_id, min(sequence_id) AS sequence_id FROM claims WHERE handle = ? GROUP BY inbox_id ORDER BY sequence_id',
    ),
    lastClaimAt: db.prepare<[string], { t: bigint | null }>(
      'SELECT max(server_timestamp_ns) AS t FROM claims WHERE inbox_id = ?',
    ),
    count: db.prepare<[], { n: bigint }>('SELECT count(*) AS n FROM updates'),
    newestAll: db.prepare<[], { s: bigint | null }>('SELECT max(sequence_id) AS s FROM updates'),
    putKeyPackage: db.prepare<[Uint8Array, string | null, Uint8Array, bigint]>(
      'INSERT OR REPLACE INTO key_packages (installation_key, inbox_id, key_package, uploaded_ns) VALUES (?, ?, ?, ?)',
    ),
    keyPackage: db.prepare<[Uint8Array], { inbox_id: string | null; key_package: Buffer }>(
      'SELECT inbox_id, key_package FROM key_packages WHERE installation_key = ?',
    ),
    savedHead: db.prepare<[string], { sequence_id: bigint; format: bigint; log_digest: Buffer; state: Buffer }>(
      'SELECT sequence_id, format, log_digest, state FROM heads WHERE inbox_id = ?',
    ),
    saveHead: db.prepare<[string, bigint, number, Uint8Array, Uint8Array]>(
      'INSERT OR REPLACE INTO heads (inbox_id, sequence_id, format, log_digest, state) VALUES (?, ?, ?, ?, ?)',
    ),
  }
}

type Queries = ReturnType<typeof prepareQueries>

/** How long a store waits for another process's lock on its file (SQLite's busy timeout, and the WAL switch below). */
const BUSY_TIMEOUT_MS = 5000

/**
 * Switches the file to WAL mode. SQLite takes the exclusive lock this needs without its busy
 * handler, so a second process opening the same new file at the same moment (two nodes
 * started at once on one store) gets SQLITE_BUSY at once; it is tried again, a few ms apart,
 * for as long as the busy timeout.
 */
function walMode(db: Database.Database): unknown {
  const deadline = Date.now() + BUSY_TIMEOUT_MS
  for (;;) {
    try {
      return db.pragma('journal_mode = WAL', { simple: true })
    } catch (e) {
      if ((e as { code?: unknown }).code !== 'SQLITE_BUSY' || Date.now() >= deadline) throw e
      // The constructor is synchronous (a node opens its store before it listens): wait in place.
      Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 10)
    }
  }
}

class StoreError extends Error {
  override readonly name = 'StoreError'
}

export class Store {
  private readonly db: Database.Database
  private readonly q: Queries
  private closed = false

  constructor(readonly path: string) {
    this.db = new Database(path)
    this.db.defaultSafeIntegers(true)
    // A second process on the same file (a second node) waits for the write lock.
    this.db.pragma(`busy_timeout = ${BUSY_TIMEOUT_MS}`)
    const mode = walMode(this.db)
    if (String(mode).toLowerCase() !== 'wal')
      throw new StoreError(`${path}: SQLite refused WAL mode (journal_mode is ${String(mode)})`)
    // FULL: the WAL is fsynced at every commit, so an acknowledged update survives kill -9 and power loss.
    this.db.pragma('synchronous = FULL')
    this.db.pragma('foreign_keys = ON')
    const version = Number(this.db.pragma('user_version', { simple: true }))
    if (version > SCHEMA_VERSION)
      throw new StoreError(`${path}: store schema version ${version} is newer than this node's (${SCHEMA_VERSION})`)
    this.db.exec(SCHEMA)
    if (version < SCHEMA_VERSION) this.db.pragma(`user_version = ${SCHEMA_VERSION}`)
    this.q = prepareQueries(this.db)
  }

  /** The newest sequence id stored for the inbox, or null when it has no log. */
  newestSequenceId(inboxId: string): bigint | null {
    return this.q.newest.get(inboxId)?.s ?? null
  }

  /** The inbox's updates with a sequence id above `after` (0 = all), ascending. */
  updatesAfter(inboxId: string, after: bigint = 0n): StoredUpdate[] {
    // A uint64 above SQLite's INTEGER (2^63 - 1, issue #14 finding 3): no stored id is
    // that high (ids are AUTOINCREMENT from 1), so the answer is the empty log, not a 500.
    if (after >= SQLITE_INTEGER_MAX) return []
    return this.q.after.all(inboxId, after).map(toStored)
  }

  /** Every inbox's updates with a sequence id above `after`, ascending, at most `limit` (the global log). */
  updatesAfterAll(after: bigint, limit: number): StoredUpdate[] {
    if (after >= SQLITE_INTEGER_MAX) return []
    return this.q.afterAll.all(after, limit).map(toStored)
  }

  /** Every inbox the member key was ever a member of (section 9 candidates). */
  inboxesOfMember(memberKey: string): string[] {
    return this.q.inboxesOfMember.all(memberKey).map((r) => r.inbox_id)
  }

  /** The inboxes whose logs claimed the handle, by their first claim of it, oldest first. */
  claimersOf(handle: string): { inboxId: string; sequenceId: bigint }[] {
    return this.q.claimers.all(handle).map((r) => ({ inboxId: r.inbox_id, sequenceId: r.sequence_id }))
  }

  /** Server time of the inbox's newest stored claim, or null when it has none. */
  lastClaimAt(inboxId: string): bigint | null {
    return this.q.lastClaimAt.get(inboxId)?.t ?? null
  }

  /** The newest sequence id of the whole store (every inbox), or null when it is empty. */
  newestSequenceIdAll(): bigint | null {
    return this.q.newestAll.get()?.s ?? null
  }

  /** Stores (replaces) an installation's key package. */
  putKeyPackage(installationKey: Uint8Array, inboxId: string | null, keyPackage: Uint8Array, uploadedNs: bigint): void {
    this.q.putKeyPackage.run(installationKey, inboxId, keyPackage, uploadedNs)
  }

  /** The installation's stored key package and the inbox its credential names, or null. */
  keyPackage(installationKey: Uint8Array): { inboxId: string | null; keyPackage: Uint8Array } | null {
    const r = this.q.keyPackage.get(installationKey)
    return r ? { inboxId: r.inbox_id, keyPackage: new Uint8Array(r.key_package) } : null
  }

  updateCount(): bigint {
    return this.q.count.get()!.n
  }

  /**
   * Runs `fn` in an IMMEDIATE transaction (the write lock is taken first, so what `fn`
   * reads cannot move under it, also with another process on the file). An exception
   * rolls everything back. `fn` must be synchronous.
   */
  transaction<T>(fn: () => T): T {
    return this.db.transaction(fn).immediate()
  }

  /** Inserts an update (and its claim); call inside transaction(). Returns the new sequence id. */
  insert(inboxId: string, serverTimestampNs: bigint, bytes: Uint8Array, claim: string | null): bigint {
    const info = this.q.insert.run(inboxId, serverTimestampNs, bytes)
    const seq = BigInt(info.lastInsertRowid)
    if (claim !== null) this.q.insertClaim.run(seq, inboxId, claim, serverTimestampNs)
    return seq
  }

  /** Records that the member keys are (or were) members of the inbox; call inside transaction(). */
  indexMembers(inboxId: string, memberKeys: readonly string[]): void {
    for (const key of memberKeys) this.q.insertMember.run(key, inboxId)
  }

  /** The head state saved for the inbox, or null. */
  savedHead(inboxId: string): SavedHead | null {
    const r = this.q.savedHead.get(inboxId)
    if (!r) return null
    return {
      sequenceId: r.sequence_id,
      format: Number(r.format),
      logDigest: new Uint8Array(r.log_digest),
      state: new Uint8Array(r.state),
    }
  }

  /** Saves (replaces) the inbox's head state; inside transaction() or alone. */
  saveHead(inboxId: string, head: SavedHead): void {
    this.q.saveHead.run(inboxId, head.sequenceId, head.format, head.logDigest, head.state)
  }

  close(): void {
    if (this.closed) return
    this.closed = true
    this.db.close()
  }
}
