/**
 * The fixture corpus's log bundles, file name → a loader of its text. Each log is its own
 * chunk of the build, fetched when its example opens: the first screen loads only the demo's.
 * This map is a chunk too (./gallery.ts `loadGalleryFiles`): the first screen opens the
 * demo through its own loader.
 */
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
