/**
 * Linked views (issue #12), as jwt.io colours a token's parts: the parts of the selected
 * update that several views show (an action, the inbox id, the client time) have one key,
 * so that hovering or focusing a part in one view (a line of the signature text, a
 * signature card, a field of the raw bytes) marks the same part in the others, and
 * choosing an action in any of them selects it everywhere.
 */
import { createContext, useContext } from 'react'
import { actionLineRange } from '../../core/text/signature-text'

/** A part of one update that more than one view shows. */
export type LinkPart =
  | { readonly kind: 'action'; readonly index: number }
  | { readonly kind: 'inbox_id' }
  | { readonly kind: 'client_timestamp_ns' }

/** The `data-part` value of a part: `action:2`, `inbox_id`, `client_timestamp_ns`. */
export function partKey(p: LinkPart): string {
  return p.kind === 'action' ? `action:${p.index}` : p.kind
}

/** The part of a `data-part` value; null for anything else. */
export function parsePartKey(key: string | null | undefined): LinkPart | null {
  if (key === 'inbox_id' || key === 'client_timestamp_ns') return { kind: key }
  const m = key ? /^action:(0|[1-9]\d{0,5})$/.exec(key) : null
  return m ? { kind: 'action', index: Number(m[1]) } : null
}

export function samePart(a: LinkPart | null, b: LinkPart | null): boolean {
  return a !== null && b !== null && partKey(a) === partKey(b)
}

/** Lines of the signature text (spec section 3): 2 is the inbox id, 3 the time, 5 on the actions. */
const INBOX_LINE = 2
const TIME_LINE = 3

/** The part a line (0-based) of an update's signature text stands for; null for the fixed lines. */
export function partOfTextLine(line: number, actions: number): LinkPart | null {
  if (line === INBOX_LINE) return { kind: 'inbox_id' }
  if (line === TIME_LINE) return { kind: 'client_timestamp_ns' }
  const [first] = actionLineRange(0)
  const index = Math.floor((line - first) / 2)
  return line >= first && index < actions ? { kind: 'action', index } : null
}

/**
 * The part a field of the raw view belongs to, from its path (src/app/features/raw
 * wire-tree.ts): `actions[2]` and below → action 2; `inbox_id`; `client_timestamp_ns`.
 */
export function partOfFieldPath(path: string): LinkPart | null {
  if (path === 'inbox_id' || path === 'client_timestamp_ns') return { kind: path }
  const m = /^actions\[(\d+)\]/.exec(path)
  return m ? { kind: 'action', index: Number(m[1]) } : null
}

export interface Linked {
  /** The part under the pointer or keyboard focus in any view, or null. */
  readonly hover: LinkPart | null
  /** The action selected in the inspector (-1: the update as a whole). */
  readonly selectedAction: number
  setHover(part: LinkPart | null): void
  /** Selects an action of the update everywhere (timeline, state, every view). */
  selectAction(index: number): void
}

const NOT_LINKED: Linked = { hover: null, selectedAction: -1, setHover() {}, selectAction() {} }

export const LinkedContext = createContext<Linked>(NOT_LINKED)

/** The linked-views state of the step the component is shown in (none outside a step). */
export function useLinked(): Linked {
  return useContext(LinkedContext)
}

/** The part of the innermost element carrying `data-part` at or above an event's target. */
export function partAt(target: EventTarget | null): LinkPart | null {
  const el = target as { closest?: (s: string) => { getAttribute(n: string): string | null } | null } | null
  return parsePartKey(el?.closest?.('[data-part]')?.getAttribute('data-part'))
}
