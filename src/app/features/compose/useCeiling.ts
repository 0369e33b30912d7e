/**
 * The installation ceiling setting (CONF-044) as one value for the whole page: the
 * Settings dialog sets it, the registration and the inbox tasks read it, and each sees a
 * change at once (a store over localStorage with subscribers).
 */
import { useSyncExternalStore } from 'react'
import { loadCeiling, saveCeiling } from './registration-flow'

const storage = (): Storage | null => {
  try {
    return globalThis.localStorage ?? null
  } catch {
    return null
  }
}

let current: number | null = null
const listeners = new Set<() => void>()

function get(): number {
  current ??= loadCeiling(storage())
  return current
}

/** Saves a valid ceiling and tells every reader. */
export function setCeiling(value: number): void {
  saveCeiling(storage(), value)
  current = value
  for (const l of listeners) l()
}

function subscribe(l: () => void): () => void {
  listeners.add(l)
  return () => listeners.delete(l)
}

export function useCeiling(): number {
  return useSyncExternalStore(subscribe, get, get)
}
