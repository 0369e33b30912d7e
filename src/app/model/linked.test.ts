import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { decodeUpdate } from '../../core/decode/update'
import { actionText, signatureText } from '../../core/text/signature-text'
import { wireTree } from '../features/raw/wire-tree'
import { parsePartKey, partKey, partOfFieldPath, partOfTextLine, samePart } from './linked'

const fixture = JSON.parse(
  readFileSync(join(import.meta.dirname, '..', '..', '..', 'test', 'fixtures', 'valid-full-life.json'), 'utf8'),
) as { updates: { update_hex: string }[] }
const bytesOf = fixture.updates.map((u) => new Uint8Array(Buffer.from(u.update_hex, 'hex')))
const updates = bytesOf.map(decodeUpdate)

describe('linked parts of an update', () => {
  it('every line of every signature text names the part it shows, as the text was built', () => {
    expect(updates.some((u) => u.actions.length > 1)).toBe(true)
    for (const u of updates) {
      const lines = signatureText(u).split('\n')
      const want = lines.map((line, n) => {
        if (line.startsWith('Inbox ID: ')) return 'inbox_id'
        if (line.startsWith('Current time: ')) return 'client_timestamp_ns'
        const i = u.actions.findIndex(
          (a, j) => actionText(a).split('\n')[(n - 5) % 2] === line && n >= 5 + 2 * j && n <= 6 + 2 * j,
        )
        return i >= 0 ? `action:${i}` : null
      })
      expect(
        lines.map((_, n) => {
          const p = partOfTextLine(n, u.actions.length)
          return p ? partKey(p) : null
        }),
      ).toEqual(want)
    }
  })

  it('every top-level field of the raw bytes names its part; nested fields belong to their action', () => {
    for (const bytes of bytesOf) {
      const tree = wireTree(bytes)
      const actions = tree.nodes.filter((n) => n.name === 'actions')
      expect(actions.map((n) => partOfFieldPath(n.path))).toEqual(
        actions.map((_, index) => ({ kind: 'action', index })),
      )
      for (const n of actions)
        for (const c of n.children) expect(samePart(partOfFieldPath(c.path), partOfFieldPath(n.path))).toBe(true)
      expect(tree.nodes.filter((n) => n.name === 'inbox_id').map((n) => partOfFieldPath(n.path))).toEqual([
        { kind: 'inbox_id' },
      ])
      expect(tree.nodes.filter((n) => n.name === 'client_timestamp_ns').map((n) => partOfFieldPath(n.path))).toEqual([
        { kind: 'client_timestamp_ns' },
      ])
    }
  })

  it('a data-part key reads back as its part; anything else is no part', () => {
    for (const p of [{ kind: 'action', index: 0 }, { kind: 'action', index: 12 }, { kind: 'inbox_id' }] as const)
      expect(parsePartKey(partKey(p))).toEqual(p)
    for (const k of ['action:', 'action:01', 'action:-1', 'action:1e3', 'inbox', '', null, undefined])
      expect(parsePartKey(k)).toBeNull()
    expect(samePart(null, null)).toBe(false)
  })
})
