/** Storage doubles for the settings' tests. */
import type { StorageLike } from './setting'

/** A storage over a Map, and one that refuses everything (private mode, a full quota). */
export function mapStorage(entries: [string, string][] = []): StorageLike & { m: Map<string, string> } {
  const m = new Map(entries)
  return {
    m,
    getItem: (k) => m.get(k) ?? null,
    setItem: (k, v) => void m.set(k, v),
    removeItem: (k) => void m.delete(k),
  }
}
export const refusing: StorageLike = {
  getItem: () => {
    throw new Error('denied')
  },
  setItem: () => {
    throw new Error('denied')
  },
  removeItem: () => {
    throw new Error('denied')
  },
}
