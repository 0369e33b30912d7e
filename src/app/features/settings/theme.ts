/** Theme: follows the system unless the person chose light or dark (kept in localStorage). */
export type ThemeChoice = 'system' | 'light' | 'dark'
const KEY = 'inbox-inspector.theme'

export function readTheme(): ThemeChoice {
  try {
    const v = localStorage.getItem(KEY)
    return v === 'light' || v === 'dark' ? v : 'system'
  } catch {
    return 'system'
  }
}

export function applyTheme(t: ThemeChoice): void {
  if (t === 'system') delete document.documentElement.dataset.theme
  else document.documentElement.dataset.theme = t
  try {
    if (t === 'system') localStorage.removeItem(KEY)
    else localStorage.setItem(KEY, t)
  } catch {
    /* storage unavailable: the choice lasts for this page */
  }
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
