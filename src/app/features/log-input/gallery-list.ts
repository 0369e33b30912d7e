/**
 * The Open panel's list of examples: each one's description, verdict and rules beside what
 * opens it. A chunk of its own, with the panel (src/app/shell/open-drawer.tsx): the first
 * screen opens its example through ./gallery.ts alone.
 */
import { REAL_WORLD } from './gallery'
import { type Example, verifierOf } from './gallery-example'

export interface GalleryEntry extends Example {
  readonly description: string
  /** True when every update applies. */
  readonly ok: boolean
  readonly rules: readonly string[]
}

/** An index entry of `?gallery` (vite.config.ts, the inspector-gallery-index plugin). */
interface ListEntry {
  readonly name: string
  readonly description: string
  readonly ok: boolean
  readonly rules?: readonly string[]
  readonly verifier?: string
  readonly file: string
}

const indexModules = import.meta.glob<readonly ListEntry[]>('../../../../test/fixtures/index.json', {
  eager: true,
  import: 'default',
  query: '?gallery',
})

const realWorld: GalleryEntry = {
  ...REAL_WORLD,
  description:
    'Real-world: one inbox of the public xmtpd test data (a wallet creates the inbox with an installation, then adds a second installation); two updates, both apply.',
  ok: true,
  rules: ['IDENT-012', 'IDENT-040'],
}

export const EXAMPLES: readonly GalleryEntry[] = [
  ...(Object.values(indexModules)[0] ?? [])
    .map(
      (f): GalleryEntry => ({
        name: f.name,
        description: f.description,
        ok: f.ok,
        rules: f.rules ?? [],
        verifier: verifierOf(f.verifier),
        file: f.file,
      }),
    )
    // valid logs first (the full life leads), then the rejected ones by rule
    .sort(
      (a, b) =>
        Number(b.name === 'valid-full-life') - Number(a.name === 'valid-full-life') ||
        Number(b.ok) - Number(a.ok) ||
        a.name.localeCompare(b.name),
    ),
  realWorld,
]
