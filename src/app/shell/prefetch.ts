/**
 * The lazy chunks one click away from the first screen that the first screen does not load
 * itself, fetched once the page is idle after the first log shows: the click that needs one
 * finds it loaded. Each entry is the loader its view calls (loading twice costs nothing).
 * A user-timing mark (PREFETCH_MARK) says when the prefetch starts: what the page requests
 * from then on is not the first screen's (e2e/first-screen.spec.ts).
 */
import { useEffect, useRef } from 'react'
import { loadGalleryData } from '../features/log-input/gallery'
import { whenIdle } from '../ui/idle'
import { preloadKeysHelp } from '../ui/KeysHelp'
import { preloadDrawers } from './drawers'
import { preloadInputError } from './Notices'
import { preloadOverflowItems } from './OverflowMenu'

const ONE_CLICK_AWAY: readonly (() => Promise<unknown>)[] = [
  // How the Open panel's examples other than the demo open (their index and loaders).
  loadGalleryData,
  // The header's drawers, Open log… with the gallery's list among them (the views inside the others load when they open).
  preloadDrawers,
  // The `?` list of keys.
  preloadKeysHelp,
  // The header's More menu (a phone's header), its open list.
  preloadOverflowItems,
  // Why an input is not a log (the Open panel's paste, file and address).
  preloadInputError,
]

const PREFETCH_MARK = 'inspector: prefetch'

/** Prefetches ONE_CLICK_AWAY once, in the first idle period after `shown` (the first log is on screen). */
export function usePrefetchWhenIdle(shown: boolean): void {
  const done = useRef(false)
  useEffect(() => {
    if (!shown || done.current) return
    return whenIdle(() => {
      done.current = true
      performance.mark(PREFETCH_MARK)
      // A chunk that fails to load here is loaded again by its view.
      for (const load of ONE_CLICK_AWAY) load().catch(() => undefined)
    })
  }, [shown])
}
