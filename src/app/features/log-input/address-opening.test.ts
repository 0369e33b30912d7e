import { describe, expect, it, vi } from 'vitest'
import type { Row } from '../../trace/trace-model'
import type { Loaded, OpenOptions, Source } from '../../trace/useInspector'
import { AddressOpener, type OpenerDeps, type PageNow } from './address-opening'
import { DEFAULT_EXAMPLE, type Example } from './gallery'
import { FIXTURE_EXAMPLES } from './gallery-data'
import { compressLog } from './permalink'
import { StartGuard } from './start-guard'

const OTHER = [...FIXTURE_EXAMPLES.keys()].find((n) => n !== DEFAULT_EXAMPLE)!

interface Addr {
  readonly inbox: string
}

/** A deferred promise: the test decides when a load finishes. */
function later<T>() {
  let resolve!: (v: T) => void
  const promise = new Promise<T>((r) => (resolve = r))
  return { promise, resolve }
}

function harness(over: Partial<OpenerDeps<Addr>> = {}) {
  const opened: { source: Source; options: OpenOptions | undefined }[] = []
  const problems: { label: string; message: string }[] = []
  const panel: boolean[] = []
  const fetches: Addr[] = []
  const loads = new Map<string, ReturnType<typeof later<string>>>()
  const deps: OpenerDeps<Addr> = {
    open: async (source, options) => (opened.push({ source, options }), true),
    problem: (p) => void problems.push(p),
    openPanel: (v) => void panel.push(v),
    loadExample: (ex: Example) => {
      const l = later<string>()
      loads.set(ex.name, l)
      return l.promise
    },
    fetchLog: async () => new Uint8Array([1]),
    fetchAddress: {
      read: (search) => {
        const q = new URLSearchParams(search)
        if (!q.get('node')) return null
        return q.get('inbox') ? { inbox: q.get('inbox')! } : { error: 'no inbox= is given' }
      },
      start: (a) => void fetches.push(a),
    },
    ...over,
  }
  const guard = new StartGuard()
  const opener = new AddressOpener(guard, deps)
  /** The load of example `name`, once it started (another example than the demo waits for the gallery's index). */
  const loadOf = (name: string) =>
    vi.waitFor(() => {
      const l = loads.get(name)
      if (!l) throw new Error(`example ${name} is not loading yet`)
      return l
    })
  return { opener, guard, opened, problems, panel, fetches, loads, loadOf }
}

/** A loaded log as the hash-change handling sees it: its source, steps and rows. */
function loadedOf(source: Partial<Source>, seqs: readonly bigint[]): Loaded {
  const rows = seqs.flatMap((_, k) => [0, 1].map((i) => ({ k, i }) as Row))
  return {
    source: { kind: 'example', label: 'x', name: 'x', input: '', verifier: 'none', ...source },
    model: { steps: seqs.map((sequenceId) => ({ sequenceId })) },
    rows,
  } as unknown as Loaded
}

function page(loaded: Loaded | null, compressed: string | null = null) {
  const selected: Row[] = []
  const tabs: (string | undefined)[] = []
  const present: boolean[] = []
  const now: PageNow = {
    loaded,
    compressed,
    select: (r) => void selected.push(r),
    setTab: (t) => void tabs.push(t),
    setPresenting: (p) => void present.push(p),
  }
  return { now, selected, tabs, present }
}

describe('AddressOpener.boot', () => {
  it('opens the default example when the address names nothing, leaving the Open drawer alone', async () => {
    const h = harness()
    const done = h.opener.boot('', '')
    h.loads.get(DEFAULT_EXAMPLE)!.resolve('{"log":1}')
    await done
    expect(h.opened).toHaveLength(1)
    expect(h.opened[0]!.source).toMatchObject({ kind: 'example', example: DEFAULT_EXAMPLE, input: '{"log":1}' })
    expect(h.panel).toEqual([])
  })

  it("gives way to a user's paste made while the demo log was loading", async () => {
    const h = harness()
    const done = h.opener.boot('', '')
    // The user pastes a log (the shell counts it as their act) before the demo finishes loading.
    h.guard.userActed('paste')
    h.loads.get(DEFAULT_EXAMPLE)!.resolve('{"log":1}')
    await done
    expect(h.opened).toEqual([])
  })

  it('opens the step the address names', async () => {
    const h = harness()
    const done = h.opener.boot(`#example=${OTHER}&step=3.1`, '')
    await h.loadOf(OTHER).then((l) => l.resolve('text'))
    await done
    const { wanted, ...options } = h.opened[0]!.options!
    expect(options).toEqual({ step: { sequenceId: 3n, action: 1 } })
    // The app's own load: the inspector asks before it shows it.
    expect(wanted?.()).toBe(true)
    h.guard.userActed('select')
    expect(wanted?.()).toBe(false)
  })

  it('gives way to the Open panel the user opened while the demo log was loading: nothing opens, nothing is said', async () => {
    const h = harness()
    const done = h.opener.boot('', '')
    expect(h.guard.pending().map((l) => l.label)).toEqual([`example ${DEFAULT_EXAMPLE}`])
    h.guard.userActed('panel')
    expect(h.guard.pending()).toEqual([])
    h.loads.get(DEFAULT_EXAMPLE)!.resolve('{"log":1}')
    await done
    expect(h.opened).toEqual([])
    expect(h.panel).toEqual([])
    expect(h.problems).toEqual([])
  })

  it('aborts the ?url= fetch at a user intent and says nothing of its failure', async () => {
    let signal: AbortSignal | undefined
    const h = harness({
      fetchLog: (_url, s) =>
        new Promise((_, reject) => {
          signal = s
          s?.addEventListener('abort', () => reject(new Error('aborted')))
        }),
    })
    const done = h.opener.boot('', '?url=http%3A%2F%2Flocalhost%2Flog.json')
    expect(h.guard.pending().map((l) => l.label)).toEqual(['the log at http://localhost/log.json'])
    h.guard.userActed('paste')
    await done
    expect(signal?.aborted).toBe(true)
    expect(h.opened).toEqual([])
    expect(h.problems).toEqual([])
    expect(h.panel).toEqual([])
  })

  it('still shows why the ?url= fetch failed when the user did nothing since', async () => {
    const h = harness({
      fetchLog: async () => {
        throw new Error('connection refused')
      },
    })
    await h.opener.boot('', '?url=http%3A%2F%2Flocalhost%2Flog.json')
    expect(h.problems).toEqual([
      {
        label: 'URL http://localhost/log.json',
        message: 'could not open http://localhost/log.json: connection refused',
      },
    ])
    expect(h.panel).toEqual([true])
    expect(h.guard.pending()).toEqual([])
  })

  it('drops the log a reload restores from the address when the user acted while it was read', async () => {
    const h = harness()
    const z = (await compressLog(new TextEncoder().encode('{"a":1}')))!
    const done = h.opener.boot(`#log=${z}`, '')
    expect(h.guard.pending().map((l) => l.label)).toEqual(['the log in the page address'])
    h.guard.userActed('panel')
    await done
    expect(h.opened).toEqual([])
    expect(h.panel).toEqual([])
  })

  it('names an unknown example and shows the Open drawer', async () => {
    const h = harness()
    await h.opener.boot('#example=no-such-log', '')
    expect(h.opened).toEqual([])
    expect(h.panel).toEqual([true])
    expect(h.problems).toEqual([
      {
        label: 'example no-such-log',
        message: 'there is no built-in example named "no-such-log"; pick one from the gallery',
      },
    ])
  })

  it('says which gallery example the first load will open before it begins, and none for another address', async () => {
    const h = harness()
    expect(h.opener.bootExample('', '')).toBe(`example ${DEFAULT_EXAMPLE}`)
    expect(h.opener.bootExample(`#example=${OTHER}`, '')).toBe(`example ${OTHER}`)
    expect(h.opener.bootExample('', '?url=https://x/a.json')).toBeNull()
    expect(h.opener.bootExample('#log=abc', '')).toBeNull()
    expect(h.opener.bootExample('', '?node=http://x&inbox=ab')).toBeNull()
    const done = h.opener.boot('', '')
    // From then on the guard says it.
    expect(h.opener.bootExample('', '')).toBeNull()
    expect(h.guard.openingExample()).toBe(`example ${DEFAULT_EXAMPLE}`)
    h.loads.get(DEFAULT_EXAMPLE)!.resolve('{"log":1}')
    await done
    expect(h.guard.openingExample()).toBeNull()
  })

  it('opens an example by name (an edited copy’s original) once the gallery’s index says how', async () => {
    const h = harness()
    const done = h.opener.openExampleNamed(OTHER)
    await h.loadOf(OTHER).then((l) => l.resolve('t'))
    await done
    expect(h.opened.map((o) => [o.source.example, o.source.name])).toEqual([[OTHER, FIXTURE_EXAMPLES.get(OTHER)!.file]])
    await h.opener.openExampleNamed('no-such-log')
    expect(h.opened).toHaveLength(1)
  })

  it('starts the fetch a ?node= address names, as the app’s own (a user act since makes it stale)', async () => {
    const h = harness()
    await h.opener.boot('#step=2.0', '?node=http://n&inbox=ab')
    expect(h.fetches).toEqual([{ inbox: 'ab' }])
    expect(h.guard.pending().map((l) => l.label)).toEqual(['the log the page address names on http://n'])
    h.guard.userActed('panel')
    expect(h.guard.claimFetch()).toEqual({ kind: 'stale' })
    expect(h.guard.pending()).toEqual([])
  })

  it('says why a ?node= address cannot be fetched', async () => {
    const h = harness()
    await h.opener.boot('', '?node=http://n')
    expect(h.fetches).toEqual([])
    expect(h.problems[0]!.message).toBe('the page address asks for a fetch that cannot be made: no inbox= is given')
  })

  it('opens a log carried in the fragment, and marks an edited copy', async () => {
    const h = harness()
    const z = (await compressLog(new TextEncoder().encode('{"a":1}')))!
    await h.opener.boot(`#log=${z}&edited=2&orig=${encodeURIComponent('example x')}&origex=x`, '')
    expect(h.opened).toHaveLength(1)
    const { source } = h.opened[0]!
    expect(new TextDecoder().decode(source.input as Uint8Array)).toBe('{"a":1}')
    expect(source).toMatchObject({
      kind: 'permalink',
      label: 'edited copy of example x',
      name: 'x-edited',
      edited: { originalLabel: 'example x', edits: 2, originalExample: 'x' },
    })
  })
})

describe('AddressOpener.hashChanged', () => {
  it('opens another example the new fragment names, as a user open (the drawer closes)', async () => {
    const h = harness()
    const p = page(loadedOf({ example: DEFAULT_EXAMPLE }, [1n, 2n]))
    const done = h.opener.hashChanged(`#example=${OTHER}&tab=diff`, '', p.now)
    await h.loadOf(OTHER).then((l) => l.resolve('other text'))
    await done
    expect(h.opened.map((o) => o.source.example)).toEqual([OTHER])
    expect(h.panel).toEqual([false])
    expect(p.tabs).toEqual(['diff'])
    expect(p.present).toEqual([false])
  })

  it('opens it even when the user acted before: the pasted address is the user’s own act', async () => {
    const h = harness()
    h.guard.userActed('paste')
    const done = h.opener.hashChanged(`#example=${OTHER}`, '', page(loadedOf({ example: DEFAULT_EXAMPLE }, [1n])).now)
    h.guard.userActed('panel')
    await h.loadOf(OTHER).then((l) => l.resolve('t'))
    await done
    expect(h.opened).toHaveLength(1)
  })

  it('moves to the named step of the same log without opening it again', async () => {
    const h = harness()
    const p = page(loadedOf({ example: DEFAULT_EXAMPLE }, [1n, 2n, 5n]))
    await h.opener.hashChanged(`#example=${DEFAULT_EXAMPLE}&step=5.1&present`, '', p.now)
    expect(h.opened).toEqual([])
    expect(h.loads.size).toBe(0)
    expect(p.selected).toEqual([{ k: 2, i: 1 }])
    expect(p.present).toEqual([true])
  })

  it('knows the same permalinked log by its compressed text', async () => {
    const h = harness()
    const p = page(loadedOf({ kind: 'paste' }, [7n]), 'zzz')
    await h.opener.hashChanged('#log=zzz&step=7.0', '', p.now)
    expect(h.opened).toEqual([])
    expect(p.selected).toEqual([{ k: 0, i: 0 }])
  })
})
