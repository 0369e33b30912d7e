/**
 * The one persisted-setting helper: a setting is a key in localStorage, a parser that
 * refuses what is not a valid value (the default stands in), and a writer. Storage that
 * is missing or refuses (private mode, a full quota) never breaks the page: the setting
 * then lasts for the page. `pageSetting` makes one value for the whole page that every
 * reader sees change at once (useSyncExternalStore).
 */
import { useSyncExternalStore } from 'react'

/** The part of Storage a setting uses (tests pass a Map-backed one). */
export interface StorageLike {
  getItem(key: string): string | null
  setItem(key: string, value: string): void
  removeItem(key: string): void
}

export interface SettingSpec<T> {
  readonly key: string
  /** The stored text as a value; undefined when it is not a valid one (the default is used). */
  readonly parse: (text: string) => T | undefined
  /** The value as stored text; null removes the key (back to the default). */
  readonly format: (value: T) => string | null
  readonly fallback: () => T
}

/** localStorage, or null where the page may not use it. */
export function safeStorage(): StorageLike | null {
  try {
    return globalThis.localStorage ?? null
  } catch {
    return null
  }
}

export function readSetting<T>(spec: SettingSpec<T>, storage: StorageLike | null = safeStorage()): T {
  try {
    const text = storage?.getItem(spec.key)
    if (text == null) return spec.fallback()
    const v = spec.parse(text)
    return v === undefined ? spec.fallback() : v
  } catch {
    return spec.fallback()
  }
}

export function writeSetting<T>(spec: SettingSpec<T>, value: T, storage: StorageLike | null = safeStorage()): void {
  try {
    const text = spec.format(value)
    if (text === null) storage?.removeItem(spec.key)
    else storage?.setItem(spec.key, text)
  } catch {
    /* storage unavailable or full: the setting lasts for this page */
  }
}

export interface PageSetting<T> {
  readonly get: () => T
  /** Saves the value and tells every reader. */
  readonly set: (value: T) => void
  /** The value, re-rendering on every change. */
  readonly use: () => T
}

export function pageSetting<T>(spec: SettingSpec<T>, storage: () => StorageLike | null = safeStorage): PageSetting<T> {
  let current: { value: T } | null = null
  const listeners = new Set<() => void>()
  const get = () => (current ??= { value: readSetting(spec, storage()) }).value
  const subscribe = (l: () => void) => {
    listeners.add(l)
    return () => listeners.delete(l)
  }
  return {
    get,
    set: (value) => {
      writeSetting(spec, value, storage())
      current = { value }
      for (const l of listeners) l()
    },
    use: () => useSyncExternalStore(subscribe, get, get),
  }
}
