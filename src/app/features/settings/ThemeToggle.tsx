import { useEffect, useState } from 'react'
import { applyTheme, effectiveTheme, nextTheme, readTheme, type ThemeChoice } from './theme'

/** Cycles system → the other look → the system's look → system (nextTheme): every click changes something. */
export function ThemeToggle() {
  const [theme, setTheme] = useState<ThemeChoice>(readTheme)
  useEffect(() => applyTheme(theme), [theme])
  const shown = theme === 'system' ? `system (${effectiveTheme(theme)})` : theme
  const next = nextTheme(theme, effectiveTheme('system') === 'dark')
  return (
    <button
      type="button"
      className="theme-toggle"
      onClick={() => setTheme(next)}
      aria-label={`Theme: ${shown}. Switch to ${next}`}
      title={`Theme: ${shown}`}
    >
      {theme === 'dark' ? '☾' : theme === 'light' ? '☀' : '◐'} <span className="theme-label">{theme}</span>
    </button>
  )
}
