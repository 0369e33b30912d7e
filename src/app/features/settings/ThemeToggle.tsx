import { useEffect, useState } from 'react'
import { applyTheme, effectiveTheme, readTheme, type ThemeChoice } from './theme'

const NEXT: Record<ThemeChoice, ThemeChoice> = { system: 'light', light: 'dark', dark: 'system' }

/** Cycles system → light → dark. */
export function ThemeToggle() {
  const [theme, setTheme] = useState<ThemeChoice>(readTheme)
  useEffect(() => applyTheme(theme), [theme])
  const shown = theme === 'system' ? `system (${effectiveTheme(theme)})` : theme
  return (
    <button
      type="button"
      className="theme-toggle"
      onClick={() => setTheme(NEXT[theme])}
      aria-label={`Theme: ${shown}. Switch to ${NEXT[theme]}`}
      title={`Theme: ${shown}`}
    >
      {theme === 'dark' ? '☾' : theme === 'light' ? '☀' : '◐'} <span className="theme-label">{theme}</span>
    </button>
  )
}
