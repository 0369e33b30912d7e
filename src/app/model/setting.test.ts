import { describe, expect, it } from 'vitest'
import { pageSetting, readSetting, type SettingSpec, writeSetting } from './setting'
import { mapStorage, refusing } from './storage-doubles'

const LEVEL: SettingSpec<number | null> = {
  key: 'level',
  parse: (t) => (/^\d+$/.test(t) ? Number(t) : undefined),
  format: (v) => (v === null ? null : String(v)),
  fallback: () => 7,
}

describe('readSetting and writeSetting', () => {
  it('read a saved value, the default for none or a damaged one, and never throw', () => {
    const s = mapStorage()
    expect(readSetting(LEVEL, s)).toBe(7)
    expect(readSetting(LEVEL, null)).toBe(7)
    writeSetting(LEVEL, 3, s)
    expect(s.m.get('level')).toBe('3')
    expect(readSetting(LEVEL, s)).toBe(3)
    s.m.set('level', 'garbage')
    expect(readSetting(LEVEL, s)).toBe(7)
    writeSetting(LEVEL, null, s)
    expect(s.m.has('level')).toBe(false)
    expect(readSetting(LEVEL, refusing)).toBe(7)
    expect(() => writeSetting(LEVEL, 4, refusing)).not.toThrow()
  })
})

describe('pageSetting', () => {
  it('is one value for the page: a set is saved and read back at once', () => {
    const s = mapStorage([['level', '5']])
    const level = pageSetting(LEVEL, () => s)
    expect(level.get()).toBe(5)
    level.set(9)
    expect(level.get()).toBe(9)
    expect(s.m.get('level')).toBe('9')
  })
})
