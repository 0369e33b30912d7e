/**
 * The audit's inputs as the job reads them: files of any log form (read by the core's
 * decoders through the command line's bounded reader), and logs carried as entries
 * (a snapshot of a node, or of files, in a store). A source that cannot be read is one
 * `unreadable` input, never an error that stops the audit.
 */
import { readdirSync, realpathSync, statSync } from 'node:fs'
import { join } from 'node:path'
import { decodeOrError, entry, undecodable } from '../core/decode/entry'
import { type FramedEntry, readResponseFrames } from '../core/decode/logs'
import type { InboxLog, LogEntry } from '../core/types'
import { InputError, readFile, readLogBytes } from '../cli/io'
import type { AuditInput, PriorHead } from './job'

/** One update as a store or a thread message carries it. */
interface WireEntry {
  readonly seq: bigint
  readonly ts?: bigint | null
  /** The IdentityUpdate's bytes; absent for an entry that had none (bad hex in a bundle). */
  readonly bytes?: Uint8Array | null
  /**
   * The IDENT-001 reason of an entry that is undecodable as read (with or without bytes):
   * kept, since the bytes alone may decode otherwise (an update field carried twice, joined).
   */
  readonly error?: string | null
  readonly actionIndex?: number | null
}

/** One inbox's log as entries, or why its source is unreadable. */
export interface WireLog {
  readonly source: string
  readonly key: string
  readonly inboxId: string | null
  readonly entries?: readonly WireEntry[]
  readonly unreadable?: string
}

/** The wire form of one entry, decoded or framed (its bytes when it has them, and its IDENT-001 reason when undecodable). */
function wireEntry(e: LogEntry | FramedEntry): WireEntry {
  const u = e.update
  const seq = e.sequenceId
  const ts = e.serverTimestampNs ?? null
  if (u instanceof Uint8Array) return { seq, ts, bytes: u }
  if (!('error' in u)) return { seq, ts, bytes: u.bytes }
  return { seq, ts, bytes: u.bytes ?? null, error: u.error, actionIndex: u.actionIndex ?? null }
}

/** The job's input of a wire log: each update decoded from its exact bytes (once, here), or its IDENT-001 reason. */
export function inputOf(w: WireLog, prior: PriorHead | null | undefined): AuditInput {
  if (w.unreadable !== undefined)
    return { source: w.source, key: w.key, log: { unreadable: w.unreadable, inboxId: w.inboxId }, prior: null }
  const entries = (w.entries ?? []).map((e) =>
    entry(
      e.seq,
      e.bytes && !e.error
        ? decodeOrError(e.bytes)
        : undecodable(
            (e.error ?? 'no bytes').replace(/^IDENT-001: /, ''),
            e.actionIndex ?? null,
            ...(e.bytes ? [e.bytes] : []),
          ),
      e.ts ?? undefined,
    ),
  )
  const log: InboxLog = {
    ...(w.inboxId ? { inboxId: w.inboxId } : {}),
    entries,
    format: 'get-identity-updates-binary',
  }
  return { source: w.source, key: w.key, log, prior: prior ?? null }
}

/** The keys of a file's logs: the inbox id, or `#n` for a log without one; a repeat gets `#n` appended. */
function keysOf(logs: readonly { readonly inboxId?: string }[]): string[] {
  const seen = new Set<string>()
  return logs.map((l, i) => {
    let k = l.inboxId ? l.inboxId : `#${i}`
    if (seen.has(k)) k = `${k}#${i}`
    seen.add(k)
    return k
  })
}

/** A file's logs as job inputs: one per inbox, or one unreadable input. */
export function fileInputs(path: string, priors: Readonly<Record<string, PriorHead>> = {}): AuditInput[] {
  return logInputs(path, priors, () => readFile(path))
}

/** The inputs of a file's bytes (read by `bytes`, whose InputError makes the one unreadable input). */
function logInputs(path: string, priors: Readonly<Record<string, PriorHead>>, bytes: () => Uint8Array): AuditInput[] {
  let logs: InboxLog[]
  try {
    logs = readLogBytes(bytes(), path)
  } catch (e) {
    if (e instanceof InputError) return [{ source: path, key: '', log: { unreadable: e.message, inboxId: null } }]
    throw e
  }
  if (logs.length === 0) return [{ source: path, key: '', log: { unreadable: `${path}: holds no log`, inboxId: null } }]
  const keys = keysOf(logs)
  return logs.map((log, i) => ({ source: path, key: keys[i]!, log, prior: priors[keys[i]!] ?? null }))
}

/**
 * A file's logs as wire logs (a whole network's file cut into batches, a store's snapshot).
 * A binary GetIdentityUpdatesResponse is only framed here (readResponseFrames), its updates
 * decoded once, by the job; any other form is read as `replay` reads it.
 */
export function fileWireLogs(path: string): WireLog[] {
  let bytes: Uint8Array
  try {
    bytes = readFile(path)
  } catch (e) {
    if (e instanceof InputError) return [{ source: path, key: '', inboxId: null, unreadable: e.message }]
    throw e
  }
  const framed = readResponseFrames(bytes)
  if (framed) {
    const keys = keysOf(framed)
    return framed.map((l, i) => ({
      source: path,
      key: keys[i]!,
      inboxId: l.inboxId,
      entries: l.entries.map(wireEntry),
    }))
  }
  return logInputs(path, {}, () => bytes).map((i) =>
    'unreadable' in i.log
      ? { source: i.source, key: i.key, inboxId: i.log.inboxId, unreadable: i.log.unreadable }
      : {
          source: i.source,
          key: i.key,
          inboxId: i.log.inboxId ?? null,
          entries: i.log.entries.map(wireEntry),
        },
  )
}

/**
 * Every file under the paths given, in order: a directory is read recursively (its
 * entries sorted by name, symbolic links followed once: a loop is not walked twice); a
 * path that does not exist or cannot be listed is kept, so that reading it makes its
 * `unreadable` row.
 */
export function listFiles(paths: readonly string[]): string[] {
  const out: string[] = []
  const visited = new Set<string>()
  const walk = (p: string): void => {
    let st
    try {
      st = statSync(p)
    } catch {
      out.push(p)
      return
    }
    if (!st.isDirectory()) {
      out.push(p)
      return
    }
    let real: string
    try {
      real = realpathSync(p)
    } catch {
      out.push(p)
      return
    }
    if (visited.has(real)) return
    visited.add(real)
    let names: string[]
    try {
      names = readdirSync(p).sort()
    } catch {
      out.push(p)
      return
    }
    for (const n of names) walk(join(p, n))
  }
  for (const p of paths) walk(p)
  return out
}
