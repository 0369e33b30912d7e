import { describe, expect, it } from 'vitest'
import { nextTheme } from './theme'

describe('nextTheme (issue #12: the theme button’s first click changes nothing)', () => {
  it('leaves "system" for the look the system does not show, so the first click always changes the page', () => {
    expect(nextTheme('system', false)).toBe('dark')
    expect(nextTheme('system', true)).toBe('light')
  })
  it('cycles through all three choices', () => {
    for (const dark of [false, true]) {
      const a = nextTheme('system', dark)
      const b = nextTheme(a, dark)
      expect(new Set(['system', a, b]).size).toBe(3)
      expect(nextTheme(b, dark)).toBe('system')
    }
  })
})
