/**
 * The fixture corpus (test/fixtures/, written by `npm run fixtures` from
 * scripts/gen-fixtures.ts) run (a) through the core, readLogs → replay → toReport, and
 * (b) through the command line, `replay --json` spawned once for every fixture file that
 * needs no smart wallet verifier, and `handles --json` for the fixtures that hold handles.
 * Each expected report was declared by the generator from the spec, never computed by the
 * validator. Messages are not asserted. Each test is named by its fixture, so the rule
 * id it exercises is in the title.
 */
import { readFileSync } from 'node:fs'
import { dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { beforeAll, describe, expect, it } from 'vitest'
import { readLogs } from '../src/core/decode/logs'
import { currentHandles } from '../src/core/handles'
import { replay } from '../src/core/replay'
import { toReport, type Report } from '../src/core/report'
import type { Trace } from '../src/core/trace'
import type { SmartWalletVerifier } from '../src/core/verify/port'
import { FakeSmartWalletVerifier } from './fixtures/fake-smart-wallet'
import { runCli } from './support/cli'

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..')
const DIR = 'test/fixtures'

interface IndexEntry {
  name: string
  rules: string[]
  description: string
  ok: boolean
  verifier: 'none' | 'fake'
  files: { bundle: string; pb?: string; gateway?: string }
  expected: string
}

interface ExpectedMember {
  kind: string
  identifier: string
  adder: string | null
  client_timestamp_ns: string
  chain_id: string | null
}

interface Expected {
  name: string
  verifier: 'none' | 'fake'
  inbox_id: string
  ok: boolean
  updates: { sequence_id: string; status: string; rule: string | null; action_index: number | null }[]
  state: null | {
    inbox_id: string
    sequence_id: string
    members: ExpectedMember[]
    recovery: { kind: string; identifier: string; chain_id: string | null }
    handles: string[]
    claim_count: number
    seen_replay_keys_count: number
  }
  handles: { current: string | null; others: string[] }
}

const readJson = <T>(file: string): T => JSON.parse(readFileSync(join(ROOT, file), 'utf8')) as T
const index = readJson<{ fixtures: IndexEntry[] }>(`${DIR}/index.json`).fixtures
const expectedOf = (f: IndexEntry): Expected => readJson<Expected>(`${DIR}/${f.expected}`)

const cmp = (a: string, b: string): number => (a < b ? -1 : a > b ? 1 : 0)

/** The fields of a report the corpus declares, in the corpus's shape (members sorted by kind, then identifier). */
function comparable(r: Report): Omit<Expected, 'name' | 'verifier' | 'handles'> {
  return {
    inbox_id: r.inbox_id ?? '',
    ok: r.ok,
    updates: r.updates.map((u) => ({
      sequence_id: u.sequence_id,
      status: u.status,
      rule: u.rule,
      action_index: u.action_index,
    })),
    state:
      r.state === null
        ? null
        : {
            inbox_id: r.state.inbox_id,
            sequence_id: r.state.sequence_id,
            members: r.state.members
              .map((m) => ({
                kind: m.kind,
                identifier: m.identifier,
                adder: m.adder,
                client_timestamp_ns: m.client_timestamp_ns,
                chain_id: m.chain_id,
              }))
              .sort((a, b) => cmp(a.kind, b.kind) || cmp(a.identifier, b.identifier)),
            recovery: r.state.recovery,
            handles: r.state.handles,
            claim_count: r.state.claim_count,
            seen_replay_keys_count: r.state.seen_replay_keys.length,
          },
  }
}

function declared(e: Expected): Omit<Expected, 'name' | 'verifier' | 'handles'> {
  const { name: _n, verifier: _v, handles: _h, ...rest } = e
  return rest
}

const verifierFor = (f: IndexEntry): SmartWalletVerifier | undefined =>
  f.verifier === 'fake' ? new FakeSmartWalletVerifier() : undefined

/** One replay per file, shared by the tests that read it. */
const traces = new Map<string, Promise<Trace>>()

function coreTrace(file: string, f: IndexEntry): Promise<Trace> {
  let t = traces.get(file)
  if (!t) {
    const logs = readLogs(new Uint8Array(readFileSync(join(ROOT, file))), file)
    if (logs.length !== 1) throw new Error(`${file}: expected one log, read ${logs.length}`)
    const smartWallets = verifierFor(f)
    t = replay(logs[0]!, smartWallets ? { smartWallets } : {})
    traces.set(file, t)
  }
  return t
}

async function coreReport(file: string, f: IndexEntry): Promise<Report> {
  return toReport(await coreTrace(file, f), file)
}

function formatsOf(f: IndexEntry): [string, string][] {
  const out: [string, string][] = [['bundle', `${DIR}/${f.files.bundle}`]]
  if (f.files.pb) out.push(['binary GetIdentityUpdatesResponse', `${DIR}/${f.files.pb}`])
  if (f.files.gateway) out.push(['gateway JSON', `${DIR}/${f.files.gateway}`])
  return out
}

interface Run {
  code: number | null
  stdout: string
  stderr: string
}

async function cli(args: string[]): Promise<Run> {
  const r = await runCli(args, { timeoutMs: 120_000 })
  return { code: r.code, stdout: r.stdout.toString('utf8'), stderr: r.stderr }
}

describe('fixture corpus', () => {
  it('index.json lists every fixture once, each with its expected report', () => {
    expect(index.length).toBeGreaterThan(50)
    expect(new Set(index.map((f) => f.name)).size).toBe(index.length)
    for (const f of index) {
      const e = expectedOf(f)
      expect(e.name).toBe(f.name)
      expect(e.ok).toBe(f.ok)
      expect(e.verifier).toBe(f.verifier)
      expect(f.name.startsWith(f.rules[0]!) || f.name.startsWith('valid-')).toBe(true)
    }
  })
})

describe('fixtures through the core (readLogs, replay, toReport)', () => {
  for (const f of index) {
    describe(`${f.name}${f.verifier === 'fake' ? ' (fake smart wallet verifier)' : ''}`, () => {
      for (const [format, file] of formatsOf(f)) {
        it(`${f.name} as ${format}: statuses, rules, action indexes and state as declared`, async () => {
          expect(comparable(await coreReport(file, f))).toEqual(declared(expectedOf(f)))
        })
      }
      it(`${f.name}: handles (IDENT-086) as declared`, async () => {
        const trace = await coreTrace(`${DIR}/${f.files.bundle}`, f)
        expect(currentHandles(trace.head)).toEqual(expectedOf(f).handles)
      })
    })
  }
})

describe('fixtures through the command line (replay --json, one process for every file)', () => {
  const cliFixtures = index.filter((f) => f.verifier === 'none')
  const files = cliFixtures.flatMap((f) => formatsOf(f).map(([format, file]) => ({ f, format, file })))
  const lines = new Map<string, Report>()
  let run: Run

  beforeAll(async () => {
    run = await cli(['replay', '--json', ...files.map((x) => x.file)])
    for (const line of run.stdout.split('\n')) {
      if (line.trim() === '') continue
      const r = JSON.parse(line) as Report
      lines.set(r.file, r)
    }
  }, 120_000)

  it('replay --json exits 0 and prints one JSON line per file, in the order of the files', () => {
    expect(run.stderr).toBe('')
    expect(run.code).toBe(0)
    const printed = run.stdout
      .split('\n')
      .filter((l) => l.trim() !== '')
      .map((l) => (JSON.parse(l) as Report).file)
    expect(printed).toEqual(files.map((x) => x.file))
  })

  for (const { f, format, file } of files) {
    it(`${f.name} as ${format} (cli): statuses, rules, action indexes and state as declared`, () => {
      const r = lines.get(file)
      expect(r, `no report line for ${file}`).toBeDefined()
      expect(r!.file).toBe(file)
      expect(comparable(r!)).toEqual(declared(expectedOf(f)))
    })
  }

  describe('handles --json', () => {
    // `handles` takes one file, so it is spawned per fixture: only for a few (the core tests
    // check the handles of every fixture): several handles, re-claims, 64 claims, and none.
    const HANDLE_FIXTURES = [
      'valid-full-life',
      'IDENT-082-reclaim-moves-to-end',
      'IDENT-080-65th-claim',
      'IDENT-001-empty-actions',
    ]
    const handleRuns = HANDLE_FIXTURES.map((n) => {
      const f = cliFixtures.find((x) => x.name === n)
      if (!f) throw new Error(`fixture ${n} is not in index.json`)
      return f
    })
    const handleResults = new Map<string, Run>()
    beforeAll(async () => {
      await Promise.all(
        handleRuns.map(async (f) => {
          handleResults.set(f.name, await cli(['handles', '--json', `${DIR}/${f.files.bundle}`]))
        }),
      )
    }, 120_000)

    for (const f of handleRuns) {
      it(`${f.name} (cli handles --json): current and others as declared (IDENT-086)`, () => {
        const r = handleResults.get(f.name)!
        expect(r.code).toBe(0)
        expect(JSON.parse(r.stdout.trim())).toEqual(expectedOf(f).handles)
      })
    }
  })
})
