/**
 * An example of the gallery as it opens, named by ./gallery.ts (the main bundle),
 * ./gallery-data.ts and ./gallery-list.ts (chunks that ./gallery.ts loads): a module of its
 * own, so that no chunk imports the module that loads it.
 */
import type { Verifier } from '../../../worker/protocol'

export interface Example {
  readonly name: string
  readonly verifier: Verifier
  readonly file: string
}

/** The index's verifier as the replay worker names it. */
export const verifierOf = (v: string | undefined): Verifier => (v === 'fake' ? 'fixture-fake' : 'none')
