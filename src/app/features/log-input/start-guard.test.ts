import { describe, expect, it } from 'vitest'
import { StartGuard } from './start-guard'

/** A deferred promise: the test decides when an open finishes. */
function later<T>() {
  let resolve!: (v: T) => void
  const promise = new Promise<T>((r) => (resolve = r))
  return { promise, resolve }
}

/** Asks the guard to open `load` automatically: what it answers, and whether the open itself started. */
async function tryAutoOpen(g: StartGuard, load: ReturnType<StartGuard['begin']>) {
  let started = false
  const answer = await g.autoOpen(load, async () => {
    started = true
    return true
  })
  return { answer, started }
}

describe('StartGuard: the generation', () => {
  it('keeps an automatic load wanted until a user intent comes after it began', () => {
    const g = new StartGuard()
    g.userActed('paste')
    const load = g.begin('example a')
    expect(g.wanted(load)).toBe(true)
    g.userActed('panel')
    expect(g.wanted(load)).toBe(false)
    expect(g.lastIntent).toBe('panel')
    // A load begun after the intent is wanted again.
    expect(g.wanted(g.begin('example b'))).toBe(true)
  })

  it('aborts the signal of every automatic load begun before the intent, not of those begun after', () => {
    const g = new StartGuard()
    const first = g.begin('the log at http://x/a')
    const second = g.begin('example b')
    g.userActed('select')
    const third = g.begin('example c')
    expect([first.signal.aborted, second.signal.aborted, third.signal.aborted]).toEqual([true, true, false])
    // Acts with no load begun in between (a step of the timeline each) leave the last signal
    // alone until one is; then the next act aborts it.
    g.userActed('select')
    expect(third.signal.aborted).toBe(true)
    g.userActed('select')
    g.userActed('select')
    const fourth = g.begin('example d')
    expect(fourth.signal.aborted).toBe(false)
    g.userActed('select')
    expect(fourth.signal.aborted).toBe(true)
  })

  it('lists the pending loads for the header, and drops them all at a user intent', () => {
    const g = new StartGuard()
    const seen: string[][] = []
    const off = g.subscribe(() => seen.push(g.pending().map((l) => l.label)))
    const a = g.begin('example a')
    g.begin('the log at http://x/b')
    const snapshot = g.pending()
    expect(g.pending()).toBe(snapshot) // stable between changes (useSyncExternalStore)
    g.end(a)
    g.userActed('file')
    off()
    g.begin('not seen')
    expect(seen).toEqual([['example a'], ['example a', 'the log at http://x/b'], ['the log at http://x/b'], []])
  })
})

describe('StartGuard.openingExample', () => {
  it('names the gallery example the app opens by itself, from its fetch through the inspector, until it is over', async () => {
    const g = new StartGuard()
    const seen: (string | null)[] = []
    g.subscribe(() => seen.push(g.openingExample()))
    g.begin('the log at http://x/a')
    expect(g.openingExample()).toBeNull()
    const load = g.begin('example a', true)
    expect(g.openingExample()).toBe('example a')
    const open = later<boolean>()
    const done = g.autoOpen(load, () => {
      // In the inspector: no longer pending for the header, still the example being opened.
      expect(g.pending().map((l) => l.label)).toEqual(['the log at http://x/a'])
      expect(g.openingExample()).toBe('example a')
      return open.promise
    })
    open.resolve(true)
    await done
    expect(g.openingExample()).toBeNull()
    expect(seen.at(-1)).toBeNull()
  })

  it('is over at a user intent, in the inspector or before', () => {
    const g = new StartGuard()
    g.begin('example a', true)
    g.userActed('panel')
    expect(g.openingExample()).toBeNull()
    const load = g.begin('example b', true)
    void g.autoOpen(load, () => new Promise<boolean>(() => {}))
    expect(g.openingExample()).toBe('example b')
    g.userActed('paste')
    expect(g.openingExample()).toBeNull()
  })
})

describe('StartGuard.autoOpen and userOpen', () => {
  it('opens a wanted automatic load, handing the inspector the check to ask before it shows it', async () => {
    const g = new StartGuard()
    const load = g.begin('example a')
    let check: (() => boolean) | null = null
    const ok = await g.autoOpen(load, async (wanted) => {
      check = wanted
      expect(g.pending()).toEqual([]) // the inspector's busy bar shows it now
      return true
    })
    expect(ok).toBe(true)
    expect(check!()).toBe(true)
    g.userActed('panel')
    expect(check!()).toBe(false)
  })

  it('never starts an automatic load the user overtook', async () => {
    const g = new StartGuard()
    const load = g.begin('example a')
    g.userActed('panel')
    expect(await tryAutoOpen(g, load)).toEqual({ answer: false, started: false })
  })

  it('cancels an automatic load the inspector is replaying when the user acts, and only that one', async () => {
    let cancels = 0
    const g = new StartGuard(() => cancels++)
    const inInspector = later<boolean>()
    let wantedNow: (() => boolean) | null = null
    const auto = g.autoOpen(g.begin('example a'), (wanted) => {
      wantedNow = wanted
      return inInspector.promise
    })
    g.userActed('panel')
    expect(cancels).toBe(1)
    expect(wantedNow!()).toBe(false)
    inInspector.resolve(false)
    expect(await auto).toBe(false)
    // The user's own load is never cancelled by a later intent.
    const user = later<boolean>()
    const mine = g.userOpen('paste', () => user.promise)
    g.userActed('select')
    expect(cancels).toBe(1)
    user.resolve(true)
    expect(await mine).toBe(true)
  })

  it('a user load cancels the earlier automatic ones; an automatic one never starts while a user load runs', async () => {
    const g = new StartGuard()
    const demo = g.begin('example a')
    const user = later<boolean>()
    const mine = g.userOpen('paste', () => user.promise)
    expect(g.wanted(demo)).toBe(false)
    // Even an automatic load begun after the user's started (none does today) waits its turn: it is dropped.
    const late = g.begin('example b')
    expect(await tryAutoOpen(g, late)).toEqual({ answer: false, started: false })
    user.resolve(true)
    expect(await mine).toBe(true)
    expect(g.pending()).toEqual([])
  })
})

describe('StartGuard.claimFetch', () => {
  const step = { sequenceId: 4n, action: 1 }

  it('claims the address fetch once, with its step and its load; any later result is the user’s', () => {
    const g = new StartGuard()
    const load = g.begin('the log the page address names on http://n')
    g.addressFetchStarted(load, step)
    expect(g.claimFetch()).toEqual({ kind: 'auto', load, step })
    expect(g.claimFetch()).toEqual({ kind: 'user' })
  })

  it('drops the address fetch after a user intent, and ends its load', () => {
    const g = new StartGuard()
    const load = g.begin('the log the page address names on http://n')
    g.addressFetchStarted(load, undefined)
    g.userActed('panel')
    expect(g.claimFetch()).toEqual({ kind: 'stale' })
    expect(g.pending()).toEqual([])
  })

  it('a fetch the user started replaces the address’s, and a changed address is the user’s own, step and all', () => {
    const g = new StartGuard()
    g.addressFetchStarted(g.begin('x'), step)
    g.userFetchStarted()
    expect(g.lastIntent).toBe('fetch')
    expect(g.claimFetch()).toEqual({ kind: 'user' })
    g.addressFetchStarted(null, step)
    g.userActed('select')
    expect(g.claimFetch()).toEqual({ kind: 'user', step })
  })
})
