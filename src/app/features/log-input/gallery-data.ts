/**
 * How the fixture corpus's examples open: their index (name, verifier, file) and their log
 * bundles, file name → a loader of its text. Each log is its own chunk of the build,
 * fetched when its example opens: the first screen loads only the demo's. This module is a
 * chunk too (./gallery.ts `loadGalleryData`): the first screen opens the demo through its
 * own entry and loader.
 */
import { type Example, verifierOf } from './gallery-example'

/** An index entry of `?gallery-open` (vite.config.ts, the inspector-gallery-index plugin). */
interface OpenEntry {
  readonly name: string
  /** Absent: none. */
  readonly verifier?: string
  /** Absent: `<name>.json`. */
  readonly file?: string
}

const indexModules = import.meta.glob<readonly OpenEntry[]>('../../../../test/fixtures/index.json', {
  eager: true,
  import: 'default',
  query: '?gallery-open',
})

/** Every fixture example by name. */
export const FIXTURE_EXAMPLES: ReadonlyMap<string, Example> = new Map(
  (Object.values(indexModules)[0] ?? []).map((f) => [
    f.name,
    { name: f.name, verifier: verifierOf(f.verifier), file: f.file ?? `${f.name}.json` },
  ]),
)

const modules = import.meta.glob<string>(
  [
    '../../../../test/fixtures/*.json',
    '!../../../../test/fixtures/*.expected.json',
    '!../../../../test/fixtures/*.gateway.json',
    '!../../../../test/fixtures/index.json',
  ],
  { query: '?raw', import: 'default' },
)

export const FIXTURE_FILES: Readonly<Record<string, () => Promise<string>>> = Object.fromEntries(
  Object.entries(modules).map(([path, load]) => [path.slice(path.lastIndexOf('/') + 1), load]),
)
