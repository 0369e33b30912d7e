/**
 * The one window `keydown` listener of the app (KeymapProvider) and the hook that mounts a
 * handler for a binding of the keymap (useKeys). Components never add their own window
 * key listener: they name the binding (./keymap.ts) and say what it does while they are
 * mounted. The newest mounted handler of a binding wins.
 */
import { createContext, type ReactNode, useContext, useEffect, useRef, useState, useSyncExternalStore } from 'react'
import { dispatchKey, KEYMAP, type KeyBinding, type KeyHandler, type KeyId } from './keymap'

class KeyHandlers {
  private readonly byId = new Map<string, KeyHandler[]>()
  /** The newest handler of each binding. */
  readonly current = new Map<string, KeyHandler>()
  /** The keymap: KEYMAP, then the bindings a registry added (useKeyBindings). */
  keymap: readonly KeyBinding[] = KEYMAP
  private readonly listeners = new Set<() => void>()

  /** Adds bindings after the keymap's own; returns their removal. */
  addBindings(bindings: readonly KeyBinding[]): () => void {
    this.keymap = [...this.keymap, ...bindings]
    this.changed()
    return () => {
      this.keymap = this.keymap.filter((b) => !bindings.includes(b))
      this.changed()
    }
  }

  readonly subscribe = (l: () => void): (() => void) => {
    this.listeners.add(l)
    return () => this.listeners.delete(l)
  }

  readonly getKeymap = (): readonly KeyBinding[] => this.keymap

  private changed(): void {
    for (const l of this.listeners) l()
  }

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
      const took = dispatchKey(e, handlers.current, handlers.keymap)
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
  const handlers = useHandlers()
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

function useHandlers(): KeyHandlers {
  const handlers = useContext(KeysContext)
  if (!handlers) throw new Error('useKeys needs a KeymapProvider above it')
  return handlers
}

/** The whole keymap now: KEYMAP and the bindings registries added (what the `?` overlay lists). */
export function useKeymap(): readonly KeyBinding[] {
  const handlers = useHandlers()
  return useSyncExternalStore(handlers.subscribe, handlers.getKeymap, handlers.getKeymap)
}

/** A binding a registry generates, with what it does. */
export interface OwnBinding extends KeyBinding {
  readonly run: KeyHandler
}

/**
 * Adds generated bindings (e.g. one per drawer of a registry) to the keymap while the
 * component is mounted. `bindings` should keep its identity while it does not change; the
 * latest `run`s are called.
 */
export function useKeyBindings(bindings: readonly OwnBinding[]): void {
  const handlers = useHandlers()
  const latest = useRef(bindings)
  latest.current = bindings
  const key = bindings.map((b) => `${b.id}:${b.keys}`).join(' ')
  // biome-ignore lint/correctness/useExhaustiveDependencies: key stands for the bindings
  useEffect(() => {
    const list = latest.current
    const off = handlers.addBindings(list)
    const offs = list.map((b) => handlers.add(b.id, (e) => latest.current.find((x) => x.id === b.id)?.run(e) ?? false))
    return () => {
      off()
      for (const o of offs) o()
    }
  }, [handlers, key])
}
