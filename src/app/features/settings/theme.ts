/** Theme: follows the system unless the person chose light or dark (kept in localStorage). */
import { readSetting, type SettingSpec, writeSetting } from '../../model/setting'

export type ThemeChoice = 'system' | 'light' | 'dark'
const KEY = 'inbox-inspector.theme'

const THEME: SettingSpec<ThemeChoice> = {
  key: KEY,
  parse: (v) => (v === 'light' || v === 'dark' ? v : undefined),
  // Following the system is the absence of a choice.
  format: (t) => (t === 'system' ? null : t),
  fallback: () => 'system',
}

export function readTheme(): ThemeChoice {
  return readSetting(THEME)
}

export function applyTheme(t: ThemeChoice): void {
  if (t === 'system') delete document.documentElement.dataset.theme
  else document.documentElement.dataset.theme = t
  writeSetting(THEME, t)
}

export function effectiveTheme(t: ThemeChoice): 'light' | 'dark' {
  if (t !== 'system') return t
  return window.matchMedia?.('(prefers-color-scheme: dark)').matches ? 'dark' : 'light'
}

/**
 * The choice after a click of the theme button: from 'system' it goes to the opposite of
 * what the system shows (so the first click always changes the page), then to what the
 * system shows, then back to 'system'.
 */
export function nextTheme(t: ThemeChoice, systemDark: boolean): ThemeChoice {
  const sys = systemDark ? 'dark' : 'light'
  const other = systemDark ? 'light' : 'dark'
  if (t === 'system') return other
  if (t === other) return sys
  return 'system'
}
