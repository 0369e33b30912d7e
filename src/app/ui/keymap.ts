/**
 * Every shortcut of the app, as data: the one window `keydown` listener (KeymapProvider)
 * walks this list in order and gives the key to the first binding that matches it and has
 * a handler mounted (useKeys); the `?` overlay (KeysHelp) is generated from it. A binding
 * without `match` is a key the focused control handles itself (the step's tabs, the time
 * slider): it is listed here so the overlay names it, and the listener never sees it
 * (the control marks the event handled first).
 *
 * Adding a shortcut: one entry here, then `useKeys({ 'my.id': handler })` where it acts.
 * Bindings that a registry generates (the drawers' keys, src/app/shell/drawers.tsx) join
 * this list while their owner is mounted (useKeyBindings), after these, and the overlay
 * lists them too.
 */

export type KeyGroup = 'Inspector' | 'Presenter mode' | 'Drawers'

/** The parts of a KeyboardEvent a binding reads (so tests can pass plain objects). */
export interface KeyInput {
  readonly key: string
  readonly shiftKey?: boolean
  readonly ctrlKey?: boolean
  readonly metaKey?: boolean
  readonly altKey?: boolean
  readonly target: EventTarget | null
  readonly defaultPrevented?: boolean
}

export interface KeyBinding {
  readonly id: string
  readonly group: KeyGroup
  /** The keys as the overlay shows them. */
  readonly keys: string
  readonly help: string
  /** The key events it takes; absent: the focused control handles the key itself. */
  readonly match?: (e: KeyInput) => boolean
  /** Also while the focus is in a text field (default: never). */
  readonly inFields?: boolean
  /** Also with Ctrl, Cmd or Alt held (default: never). */
  readonly withModifiers?: boolean
  /** The browser's own action still happens (default: the key is marked handled). */
  readonly keepDefault?: boolean
}

export const is =
  (...keys: string[]) =>
  (e: KeyInput) =>
    keys.includes(e.key)

/** A text field, a select or an editable element: typing there is not a shortcut. */
function isEditable(t: EventTarget | null): boolean {
  return (
    typeof HTMLElement !== 'undefined' &&
    t instanceof HTMLElement &&
    (t.isContentEditable || /^(INPUT|TEXTAREA|SELECT)$/.test(t.tagName))
  )
}

const isSearchField = (t: EventTarget | null): boolean =>
  typeof HTMLInputElement !== 'undefined' && t instanceof HTMLInputElement && t.type === 'search'

export const KEYMAP = [
  // The overlay first: while it is open, Escape and Tab are its own.
  { id: 'help.toggle', group: 'Inspector', keys: '?', help: 'this list', match: is('?') },
  {
    id: 'help.close',
    group: 'Inspector',
    keys: 'Escape',
    help: 'close this list',
    match: is('Escape'),
    inFields: true,
  },
  {
    id: 'help.trap',
    group: 'Inspector',
    keys: 'Tab',
    help: 'stays on this list’s Close button while it is open',
    match: is('Tab'),
    inFields: true,
  },
  { id: 'timeline.filter', group: 'Inspector', keys: '/', help: 'focus the filter (Escape leaves it)', match: is('/') },
  {
    id: 'timeline.leave-filter',
    group: 'Inspector',
    keys: 'Escape',
    help: 'in the filter: back to the timeline',
    match: (e) => e.key === 'Escape' && isSearchField(e.target),
    inFields: true,
    keepDefault: true,
  },
  {
    id: 'shell.escape',
    group: 'Inspector',
    keys: 'Escape',
    help: 'close the drawer on top (Open, Signers, Sign, Edit, Inbox tasks) or this list; then leave presenter mode',
    match: (e) => e.key === 'Escape' && !isSearchField(e.target),
    inFields: true,
  },
  {
    id: 'timeline.action',
    group: 'Inspector',
    keys: '↑ ↓  j k',
    help: 'previous / next action',
    match: is('ArrowUp', 'ArrowDown', 'j', 'k'),
  },
  {
    id: 'timeline.update',
    group: 'Inspector',
    keys: '← →',
    help: 'previous / next update',
    match: is('ArrowLeft', 'ArrowRight'),
  },
  { id: 'timeline.ends', group: 'Inspector', keys: 'Home  End', help: 'first / last row', match: is('Home', 'End') },
  {
    id: 'timeline.page',
    group: 'Inspector',
    keys: 'PageUp  PageDown',
    help: 'a page of rows',
    match: is('PageUp', 'PageDown'),
  },
  {
    id: 'timeline.pin',
    group: 'Inspector',
    keys: 'Shift-click  b',
    help: 'pin the row (b: the selected one) as the Diff tab’s base; again to unpin',
    match: is('b'),
  },
  {
    id: 'tabs.move',
    group: 'Inspector',
    keys: '← →  Home  End',
    help: 'on the step’s tabs: previous / next / first / last view',
  },
  {
    id: 'slider.move',
    group: 'Inspector',
    keys: 'Time slider',
    help: 'arrows step through updates, Home / End the first and last',
  },
  { id: 'skip-link', group: 'Inspector', keys: 'Tab', help: 'first stop: skip to the selected step' },
  {
    id: 'menu.move',
    group: 'Inspector',
    keys: '↓ ↑  Home  End  Escape',
    help: 'in the header’s More menu (a phone): move between its items; Escape closes it, back on More',
  },
  {
    id: 'presenter.next',
    group: 'Presenter mode',
    keys: '→ ↓  Space  PageDown',
    help: 'next step',
    match: (e) => ['ArrowRight', 'ArrowDown', 'PageDown', 'j'].includes(e.key) || (e.key === ' ' && !e.shiftKey),
  },
  {
    id: 'presenter.prev',
    group: 'Presenter mode',
    keys: '← ↑  Shift+Space  PageUp',
    help: 'previous step',
    match: (e) => ['ArrowLeft', 'ArrowUp', 'PageUp', 'k'].includes(e.key) || (e.key === ' ' && !!e.shiftKey),
  },
  {
    id: 'presenter.ends',
    group: 'Presenter mode',
    keys: 'Home  End',
    help: 'first / last step',
    match: is('Home', 'End'),
  },
  {
    id: 'presenter.leave',
    group: 'Presenter mode',
    keys: 'Escape',
    help: 'back to the inspector, at the same step',
  },
] as const satisfies readonly KeyBinding[]

export type KeyId = (typeof KEYMAP)[number]['id']

/** Handles a key; returns false when it did not act after all (the next binding gets the key). */
export type KeyHandler = (e: KeyInput) => boolean | undefined | void

/** What the overlay shows (no internal entries: the overlay's own Escape and Tab). */
export function helpGroups(keymap: readonly KeyBinding[] = KEYMAP): { group: KeyGroup; keys: [string, string][] }[] {
  const out: { group: KeyGroup; keys: [string, string][] }[] = []
  for (const b of keymap) {
    if (b.id === 'help.close' || b.id === 'help.trap' || b.id === 'timeline.leave-filter') continue
    let g = out.find((x) => x.group === b.group)
    if (!g) out.push((g = { group: b.group, keys: [] }))
    g.keys.push([b.keys, b.help])
  }
  return out
}

/**
 * The one dispatch: the first binding (in keymap order) that matches the key and has a
 * handler that acts. Returns the binding that took it, or null. A key a control already
 * handled (defaultPrevented) is left alone, as is a key typed in a field or with a modifier
 * unless the binding says otherwise.
 */
export function dispatchKey(
  e: KeyInput,
  handlers: ReadonlyMap<string, KeyHandler>,
  keymap: readonly KeyBinding[] = KEYMAP,
): KeyBinding | null {
  if (e.defaultPrevented) return null
  const modified = !!(e.ctrlKey || e.metaKey || e.altKey)
  const editable = isEditable(e.target)
  for (const b of keymap) {
    if (!b.match?.(e)) continue
    if (modified && !b.withModifiers) continue
    if (editable && !b.inFields) continue
    const h = handlers.get(b.id)
    if (h && h(e) !== false) return b
  }
  return null
}
