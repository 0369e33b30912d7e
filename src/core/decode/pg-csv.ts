/**
 * A PostgreSQL CSV export of an identity update table, as in
 * ../shared/vectors/xmtpd-inbox-log.csv (xmtpd `pkg/migrator/testdata/inbox_log.csv`):
 *
 *   sequence_id,inbox_id,server_timestamp_ns,identity_update_proto
 *   1,\x0117…,1717194528366073123,\x0a80…
 *
 * CSV as RFC 4180 (quoted fields, "" escapes, CRLF or LF), an optional UTF-8 byte order
 * mark, bytea columns in PostgreSQL's hex text form (`\x` + hex). The header must name
 * `identity_update_proto`; the sequence id is the `sequence_id` column (the first column
 * when none is named so), the inbox the `inbox_id` column when present (a bytea inbox id
 * is the lowercase hex of its bytes, which is the inbox id text), and the server
 * timestamp the `server_timestamp_ns` column when present.
 *
 * Sequence ids in that table are global across inboxes: rows are grouped by inbox id
 * into one InboxLog each, in the order each inbox first appears, entries in file order.
 * An update that is not valid hex or fails decoding is an IDENT-001 error entry; a
 * malformed row, header or sequence id is a LogInputError naming the line.
 */
import { hexToBytes } from '../../crypto/bytes'
import { LogInputError } from '../errors'
import type { InboxLog, LogEntry } from '../types'
import { assertUniqueSequenceIds, decodeOrError, entry, UINT64_MAX, undecodable } from './entry'
import { quote } from '../text/quote'
import { RecordReaderPending } from './record'

const FORMAT = 'postgres-csv'

/** The column that marks a PostgreSQL identity update export in its header. */
export const PG_CSV_UPDATE_COLUMN = 'identity_update_proto'

interface Row {
  readonly line: number
  readonly fields: string[]
}

/** RFC 4180 records with the 1-based line each starts on. Blank lines are skipped. */
function parseCsv(text: string): Row[] {
  const rows: Row[] = []
  let fields: string[] = []
  let field = ''
  let line = 1
  let rowLine = 1
  let i = 0
  let quoted = false
  let fieldStarted = false
  const endRow = () => {
    fields.push(field)
    if (!(fields.length === 1 && fields[0] === '' && !fieldStarted)) rows.push({ line: rowLine, fields })
    fields = []
    field = ''
    fieldStarted = false
  }
  while (i < text.length) {
    const c = text[i]!
    if (quoted) {
      if (c === '"') {
        if (text[i + 1] === '"') {
          field += '"'
          i += 2
          continue
        }
        quoted = false
        i++
        const n = text[i]
        if (n !== undefined && n !== ',' && n !== '\n' && n !== '\r') {
          throw new LogInputError(FORMAT, `line ${line}`, 'a closing quote must end its field')
        }
        continue
      }
      if (c === '\n') line++
      field += c
      i++
      continue
    }
    if (c === '"') {
      if (field !== '') throw new LogInputError(FORMAT, `line ${line}`, 'a quote inside an unquoted field')
      quoted = true
      fieldStarted = true
      i++
      continue
    }
    if (c === ',') {
      fields.push(field)
      field = ''
      fieldStarted = true
      i++
      continue
    }
    if (c === '\r' || c === '\n') {
      endRow()
      i += c === '\r' && text[i + 1] === '\n' ? 2 : 1
      line++
      rowLine = line
      continue
    }
    field += c
    fieldStarted = true
    i++
  }
  if (quoted) throw new LogInputError(FORMAT, `line ${rowLine}`, 'unterminated quoted field')
  if (field !== '' || fields.length > 0 || fieldStarted) endRow()
  return rows
}

/** True when the first line of `text` is a CSV header naming identity_update_proto. */
export function looksLikePostgresCsv(text: string): boolean {
  const t = text.startsWith('\uFEFF') ? text.slice(1) : text
  const nl = t.search(/\r|\n/)
  const first = nl < 0 ? t : t.slice(0, nl)
  return first.includes(',') && first.split(',').some((h) => h.trim().replace(/^"|"$/g, '') === PG_CSV_UPDATE_COLUMN)
}

/** A bytea value in hex text form (`\x…`), or plain hex with an optional 0x. */
function bytea(value: string): Uint8Array {
  return hexToBytes(value.startsWith('\\x') || value.startsWith('\\X') ? value.slice(2) : value)
}

function uint64Cell(value: string, where: string, column: string): bigint {
  if (!/^[0-9]+$/.test(value)) {
    throw new LogInputError(FORMAT, where, `${column} ${quote(value)} is not a decimal integer`)
  }
  const n = BigInt(value)
  if (n > UINT64_MAX) throw new LogInputError(FORMAT, where, `${column} ${value} is above 2^64 - 1`)
  return n
}

/**
 * Reads a PostgreSQL CSV identity update export into one InboxLog per inbox.
 * @throws LogInputError for a malformed header, row or sequence id
 */
export function readPostgresCsvLog(text: string): InboxLog[] {
  const t = text.startsWith('\uFEFF') ? text.slice(1) : text
  const rows = parseCsv(t)
  const header = rows[0]
  if (!header) throw new LogInputError(FORMAT, 'line 1', 'empty CSV: no header')
  const names = header.fields.map((h) => h.trim())
  const col = (n: string) => names.indexOf(n)
  const updCol = col(PG_CSV_UPDATE_COLUMN)
  if (updCol < 0) {
    throw new LogInputError(FORMAT, `line ${header.line}`, `the header does not name a ${PG_CSV_UPDATE_COLUMN} column`)
  }
  const seqCol = Math.max(col('sequence_id'), 0)
  if (seqCol === updCol) throw new LogInputError(FORMAT, `line ${header.line}`, 'no sequence_id column')
  const inboxCol = col('inbox_id')
  const tsCol = col('server_timestamp_ns')

  const groups = new Map<string, { inboxId?: string; entries: LogEntry[]; wheres: string[] }>()
  for (const row of rows.slice(1)) {
    const where = `line ${row.line}`
    if (row.fields.length !== names.length) {
      throw new LogInputError(
        FORMAT,
        where,
        `expected ${names.length} columns as in the header, found ${row.fields.length}`,
      )
    }
    const cell = (c: number) => row.fields[c]!.trim()
    const sequenceId = uint64Cell(cell(seqCol), where, names[seqCol]!)
    let inboxId: string | undefined
    if (inboxCol >= 0) {
      const raw = cell(inboxCol)
      if (raw.startsWith('\\x') || raw.startsWith('\\X')) {
        try {
          inboxId = raw.slice(2).toLowerCase()
          hexToBytes(inboxId)
        } catch (e) {
          throw new LogInputError(
            FORMAT,
            where,
            `inbox_id is not valid bytea hex: ${e instanceof Error ? e.message : String(e)}`,
          )
        }
      } else inboxId = raw
      if (inboxId === '') inboxId = undefined
    }
    const tsText = tsCol >= 0 ? cell(tsCol) : ''
    const serverTimestampNs = tsText === '' ? undefined : uint64Cell(tsText, where, 'server_timestamp_ns')

    let update: LogEntry['update']
    try {
      update = decodeOrError(bytea(cell(updCol)))
    } catch (e) {
      if (e instanceof RecordReaderPending) throw e
      // Not valid hex: an IDENT-001 entry, not a file error (as for a log bundle).
      update = undecodable(
        `${PG_CSV_UPDATE_COLUMN} on ${where} is not valid bytea hex: ${e instanceof Error ? e.message : String(e)}`,
        null,
      )
    }
    const key = inboxId ?? ''
    let g = groups.get(key)
    if (!g) {
      g = inboxId === undefined ? { entries: [], wheres: [] } : { inboxId, entries: [], wheres: [] }
      groups.set(key, g)
    }
    g.entries.push(entry(sequenceId, update, serverTimestampNs))
    g.wheres.push(where)
  }
  return [...groups.values()].map((g) => {
    const log: InboxLog =
      g.inboxId === undefined
        ? { entries: g.entries, format: FORMAT }
        : { inboxId: g.inboxId, entries: g.entries, format: FORMAT }
    assertUniqueSequenceIds(log, (i) => g.wheres[i]!)
    return log
  })
}
