/**
 * A component in a lazy chunk whose loader the idle prefetch (src/app/shell/prefetch.ts)
 * can call ahead of its first use. Before its chunk is there it suspends like React.lazy
 * (its Suspense boundary shows the fallback); once it is there, a new mount renders it at
 * once, with no fallback even for a frame. A mount keeps the one it started with, so a
 * chunk that arrives while it is shown does not remount it.
 */
import { type ComponentType, useState } from 'react'
import { lazyAgain, loadPicked } from './lazy-again'
import { loadOnce } from './load-once'

export interface LazyView<P extends object> {
  readonly View: ComponentType<P>
  /** Loads the chunk (once; a failed load is tried again on the next call). */
  readonly preload: () => Promise<unknown>
}

/**
 * The component `pick` takes from the module `importModule` imports. Called once per view,
 * at module level (like React.lazy). A retry imports the module by a URL of its own, shared
 * with every other view over the same module (../../worker/import-again.ts).
 */
export function lazyView<M, P extends object>(
  importModule: () => Promise<M>,
  pick: (m: M) => ComponentType<P>,
): LazyView<P> {
  const load = loadPicked(importModule, pick)
  let loaded: ComponentType<P> | undefined
  const preload = loadOnce(() => load().then((c) => (loaded = c)))
  // A failed load is loaded again after its error boundary resets (./lazy-again.tsx).
  const Lazy = lazyAgain(preload)
  // biome-ignore lint/correctness/noComponentHookFactories: made once per view at module level, as React.lazy is, never in a render
  function View(props: P) {
    const [Ready] = useState(() => loaded)
    return Ready ? <Ready {...props} /> : <Lazy {...props} />
  }
  return { View, preload }
}
