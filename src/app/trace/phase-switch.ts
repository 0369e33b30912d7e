/**
 * When the busy bar turns from "Reading" to "Replaying n of N" (src/app/trace/useInspector.ts):
 * at the replay's first progress message or `after` ms once the log is read, whichever
 * comes first, and once. A replay shorter than that shows "Reading" to the end, so the page
 * paints no frame (and the display compositor composites none) between the read and the log
 * shown, on the cores it verifies on.
 */

/** Milliseconds after a log is read before the busy bar says "Replaying". */
export const PHASE_AFTER = 250

/** The user-timing mark the app sets when a log is read (DevTools, the e2e specs). */
export const READ_MARK = 'inspector: read'

export interface PhaseSwitch {
  /** A progress message of `total` updates: switches now. */
  progress(total: number): void
  /** The log is read (`total` updates): switches `after` ms from now unless progress comes first. */
  read(total: number): void
  /** The replay ended, failed or was replaced: never switches after this. */
  stop(): void
}

export function phaseSwitch(show: (total: number) => void, after = PHASE_AFTER): PhaseSwitch {
  let timer: ReturnType<typeof setTimeout> | undefined
  let done = false
  const fire = (total: number) => {
    clearTimeout(timer)
    if (done) return
    done = true
    show(total)
  }
  return {
    progress: fire,
    read(total) {
      if (done) return
      clearTimeout(timer)
      timer = setTimeout(() => fire(total), after)
    },
    stop() {
      clearTimeout(timer)
      done = true
    },
  }
}
