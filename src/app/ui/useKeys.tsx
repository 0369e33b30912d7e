/**
 * The one window `keydown` listener of the app (KeymapProvider) and the hook that mounts a
 * handler for a binding of the keymap (useKeys). Components never add their own window
 * key listener: they name the binding (./keymap.ts) and say what it does while they are
 * mounted. The newest mounted handler of a binding wins.
 */
import { createContext, type ReactNode, useContext, useEffect, useRef, useState } from 'react'
import { dispatchKey, type KeyHandler, type KeyId } from './keymap'

class KeyHandlers {
  private readonly byId = new Map<string, KeyHandler[]>()
  /** The newest handler of each binding. */
  readonly current = new Map<string, KeyHandler>()

  add(id: string, h: KeyHandler): () => void {
    const list = this.byId.get(id) ?? []
    list.push(h)
    this.byId.set(id, list)
    this.current.set(id, h)
    return () => {
      const l = this.byId.get(id) ?? []
      const at = l.lastIndexOf(h)
      if (at >= 0) l.splice(at, 1)
      const top = l[l.length - 1]
      if (top) this.current.set(id, top)
      else this.current.delete(id)
    }
  }
}

const KeysContext = createContext<KeyHandlers | null>(null)

export function KeymapProvider({ children }: { children: ReactNode }) {
  const [handlers] = useState(() => new KeyHandlers())
  useEffect(() => {
    const onKey = (e: KeyboardEvent) => {
      const took = dispatchKey(e, handlers.current)
      if (took && !took.keepDefault) e.preventDefault()
    }
    window.addEventListener('keydown', onKey)
    return () => window.removeEventListener('keydown', onKey)
  }, [handlers])
  return <KeysContext.Provider value={handlers}>{children}</KeysContext.Provider>
}

/**
 * Mounts handlers for bindings of the keymap while the component is mounted (and `active`).
 * The handlers may change at every render: the latest ones are called.
 */
export function useKeys(map: Partial<Record<KeyId, KeyHandler>>, active = true): void {
  const handlers = useContext(KeysContext)
  if (!handlers) throw new Error('useKeys needs a KeymapProvider above it')
  const latest = useRef(map)
  latest.current = map
  const ids = Object.keys(map).sort().join(' ')
  useEffect(() => {
    if (!active || ids === '') return
    const offs = ids.split(' ').map((id) =>
      handlers.add(id, (e) => {
        const h = latest.current[id as KeyId]
        return h ? h(e) : false
      }),
    )
    return () => {
      for (const off of offs) off()
    }
  }, [handlers, ids, active])
}
