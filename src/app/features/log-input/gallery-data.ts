/** The fixture corpus's log bundles as text, file name → content (one lazily loaded chunk). */
const modules = import.meta.glob<string>(
  [
    '../../../../test/fixtures/*.json',
    '!../../../../test/fixtures/*.expected.json',
    '!../../../../test/fixtures/*.gateway.json',
    '!../../../../test/fixtures/index.json',
  ],
  { eager: true, query: '?raw', import: 'default' },
)

export const FIXTURE_FILES: Readonly<Record<string, string>> = Object.fromEntries(
  Object.entries(modules).map(([path, text]) => [path.slice(path.lastIndexOf('/') + 1), text]),
)
