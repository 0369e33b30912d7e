import { describe, expect, it } from 'vitest'
import { LogInputError } from '../errors'
import { isDecoded } from './entry'
import { looksLikePostgresCsv, readPostgresCsvLog } from './pg-csv'
import { thrown, XMTPD_CSV } from '../../../test/support/xmtpd-vectors'

const CSV = XMTPD_CSV
const HEADER = 'sequence_id,inbox_id,server_timestamp_ns,identity_update_proto'

const inputError = (f: () => unknown): LogInputError => thrown(f, LogInputError)

describe('readPostgresCsvLog', () => {
  const logs = readPostgresCsvLog(CSV)

  it('reads the xmtpd vectors (BOM, \\x bytea) into 18 inbox logs in file order', () => {
    expect(CSV.charCodeAt(0)).toBe(0xfeff)
    expect(logs).toHaveLength(18)
    expect(logs.every((l) => l.format === 'postgres-csv')).toBe(true)
    expect(logs.map((l) => l.entries.map((e) => Number(e.sequenceId)))).toEqual([
      [1],
      [2],
      [3],
      [4],
      [5],
      [6, 7],
      [8],
      [9],
      [10],
      [11],
      [12],
      [13],
      [14],
      [15],
      [16],
      [17],
      [18],
      [19],
    ])
    expect(logs[0]!.inboxId).toBe('01177004c63739c1298c8edbbc09b2017999e1368b972307cd3e167b1bcb23c6')
    expect(logs[0]!.entries[0]!.serverTimestampNs).toBe(1717194528366073123n)
  })

  it('the inbox id column equals each update inbox_id; rows 1-7 decode, rows 8-19 are IDENT-001 entries at action 0', () => {
    for (const log of logs) {
      for (const e of log.entries) {
        const u = e.update
        if (e.sequenceId <= 7n) {
          expect(isDecoded(u)).toBe(true)
          if (isDecoded(u)) expect(u.inboxId).toBe(log.inboxId)
        } else {
          expect(isDecoded(u)).toBe(false)
          if (!isDecoded(u)) {
            expect(u.error).toMatch(/^IDENT-001: .*only the retired legacy delegated signature \(field 4\)/)
            expect(u.actionIndex).toBe(0)
            expect(u.bytes).toBeInstanceOf(Uint8Array)
          }
        }
      }
    }
  })

  it('handles CRLF, quoted fields, blank lines, a missing BOM and reordered columns', () => {
    const line = CSV.replace(/^\uFEFF/, '').split('\n')[1]!
    const [seq, inbox, ts, upd] = line.split(',')
    const text = `"identity_update_proto","sequence_id",inbox_id\r\n\r\n"${upd}",${seq},"${inbox}"\r\n`
    const [log] = readPostgresCsvLog(text)
    expect(log!.entries[0]!.sequenceId).toBe(1n)
    expect(log!.entries[0]!.serverTimestampNs).toBeUndefined()
    expect(isDecoded(log!.entries[0]!.update)).toBe(true)
    void ts
  })

  it('IDENT-001: an update cell that is not bytea hex is an error entry, not a file error', () => {
    const [log] = readPostgresCsvLog(`${HEADER}\n1,\\xab,5,\\xzz\n`)
    const u = log!.entries[0]!.update
    expect(isDecoded(u)).toBe(false)
    expect(!isDecoded(u) && u.error).toMatch(/^IDENT-001: identity_update_proto on line 2 is not valid bytea hex/)
  })

  it('refuses a malformed file with the line', () => {
    expect(inputError(() => readPostgresCsvLog(`${HEADER}\nx,\\xab,5,\\x0a00\n`)).where).toBe('line 2')
    expect(inputError(() => readPostgresCsvLog(`${HEADER}\n1,\\xab,5\n`)).detail).toMatch(/expected 4 columns/)
    expect(inputError(() => readPostgresCsvLog(`a,b\n1,2\n`)).detail).toMatch(
      /does not name a identity_update_proto column/,
    )
    expect(inputError(() => readPostgresCsvLog(`${HEADER}\n1,\\xab,5,"\\x0a00\n`)).detail).toMatch(/unterminated/)
    expect(inputError(() => readPostgresCsvLog(`${HEADER}\n1,\\xab,5,\\x0a00\n1,\\xab,6,\\x0a00\n`)).detail).toMatch(
      /sequence id 1 appears twice/,
    )
    expect(inputError(() => readPostgresCsvLog('')).detail).toMatch(/empty/)
  })
})

describe('looksLikePostgresCsv', () => {
  it('recognises the header line, with or without BOM and quotes', () => {
    expect(looksLikePostgresCsv(CSV)).toBe(true)
    expect(looksLikePostgresCsv('"sequence_id","identity_update_proto"\n')).toBe(true)
    expect(looksLikePostgresCsv('{"identity_update_proto": 1}')).toBe(false)
    expect(looksLikePostgresCsv('0a7f0a7d')).toBe(false)
  })
})
