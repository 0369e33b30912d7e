/**
 * The decoder without its protobuf half (./record.ts), as the replay worker's build has it
 * (vite.config.ts `lazyRecordReader` leaves ./record-eager.ts out): a log whose updates the
 * one-pass reader reads needs no protobuf runtime, and any other asks for it
 * (RecordReaderPending) and reads the same once it is loaded.
 */
import { readFileSync } from 'node:fs'
import { afterEach, describe, expect, it, vi } from 'vitest'

const fixture = (name: string) =>
  new Uint8Array(readFileSync(new URL(`../../../test/fixtures/${name}`, import.meta.url)))

/** Fresh decode modules, ./record-eager.ts an empty module as in the worker's build. */
async function lazyDecoder() {
  vi.resetModules()
  vi.doMock('./record-eager', () => ({}))
  const { readLogs } = await import('./logs')
  const { RecordReaderPending } = await import('./record')
  return { readLogs, RecordReaderPending, loadProtobufHalf: () => import('./update') }
}

afterEach(() => {
  vi.doUnmock('./record-eager')
  vi.resetModules()
})

describe('the decoder without its protobuf half', () => {
  it('reads a binary response of the common form (tier 1) with no protobuf half, as the whole decoder does', async () => {
    const { readLogs: eager } = await import('./logs')
    const bytes = fixture('valid-full-life.pb')
    const expected = eager(bytes, 'valid-full-life.pb')
    const { readLogs } = await lazyDecoder()
    expect(readLogs(bytes, 'valid-full-life.pb')).toEqual(expected)
  })

  it('asks for the protobuf half for an update the one-pass reader does not read (IDENT-001), then reads it', async () => {
    const { readLogs: eager } = await import('./logs')
    const text = readFileSync(
      new URL('../../../test/fixtures/IDENT-001-signature-field-4-only.json', import.meta.url),
      'utf8',
    )
    const expected = eager(text, 'field-4')
    expect(JSON.stringify(expected, (_, v) => (typeof v === 'bigint' ? `${v}n` : v))).toContain('IDENT-001')
    const { readLogs, RecordReaderPending, loadProtobufHalf } = await lazyDecoder()
    expect(() => readLogs(text, 'field-4')).toThrow(RecordReaderPending)
    await loadProtobufHalf()
    expect(readLogs(text, 'field-4')).toEqual(expected)
  })
})
