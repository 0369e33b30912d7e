/**
 * React.lazy whose failed load is loaded again. React.lazy keeps a rejected load for good:
 * once a lazy component's chunk failed (the network dropped, a chunk of an older deploy
 * gone), every later render throws the same error and no request is sent, so an error
 * boundary's "Try again", or closing a drawer and opening it again, could only show the
 * failure again. Here a failed lazy component is replaced by a new one, which loads anew,
 * at its first render after an error boundary showed a failure (./ErrorBoundary.tsx calls
 * `failureShown`): after Try again, a new reset key, or the view mounted again.
 *
 * Not at the failure itself: React renders a suspended view again when its load settles,
 * and that render must throw the failure for the boundary to show it, not start another
 * load (which would retry forever, unseen). A render after the failure is on screen is the
 * user's (or the view's) choice to try again, so a load is tried once per such render.
 */
import { type ComponentType, lazy } from 'react'
import { importAgain } from '../../worker/import-again'

// Failures error boundaries have shown so far, across the page. A lazy component whose load
// failed before the latest one was shown is made anew at its next render.
let shown = 0

/** Called by an error boundary once it shows a failure: failed lazy loads are tried again when next rendered. */
export function failureShown(): void {
  shown++
}

interface Attempt<P> {
  readonly Lazy: ComponentType<P>
  /** `shown` when its load failed; null while it has not. */
  failedAt: number | null
}

/**
 * A lazy component over `load` (called once per attempt; a success is kept for good). Made
 * once per view at module level, as React.lazy is.
 */
export function lazyAgain<P extends object>(load: () => Promise<ComponentType<P>>): ComponentType<P> {
  const attempt = (): Attempt<P> => {
    const a: Attempt<P> = {
      failedAt: null,
      Lazy: lazy(() =>
        load().then(
          (c) => ({ default: c }),
          (e: unknown) => {
            a.failedAt = shown
            throw e
          },
        ),
      ),
    }
    return a
  }
  let current = attempt()
  // biome-ignore lint/correctness/noComponentHookFactories: made once per view at module level, as React.lazy is, never in a render
  function LazyAgain(props: P) {
    if (current.failedAt !== null && current.failedAt !== shown) current = attempt()
    const Lazy = current.Lazy
    return <Lazy {...props} />
  }
  return LazyAgain
}

/**
 * The loader of the component `pick` takes from the module `importModule` imports: a retry
 * imports the module by a URL of its own (../../worker/import-again.ts), which browsers that
 * keep a failed module fetch need. Made once per view, at module level.
 */
export function loadPicked<M, C>(importModule: () => Promise<M>, pick: (m: M) => C): () => Promise<C> {
  const load = importAgain(importModule)
  return () => load().then(pick)
}

/** `lazyAgain` over a module's import and the component it exports (./lazy-view.tsx is the same for a view the idle prefetch loads). */
export function lazyModule<M, P extends object>(
  importModule: () => Promise<M>,
  pick: (m: M) => ComponentType<P>,
): ComponentType<P> {
  return lazyAgain(loadPicked(importModule, pick))
}
