import { type FocusEvent, type MouseEvent, type ReactNode, useMemo, useState } from 'react'
import { type Linked, LinkedContext, type LinkPart, partAt, samePart } from '../model/linked'

/**
 * The linked-views state of one selected step (src/app/model/linked.ts): what part is
 * hovered or focused, and how choosing an action selects it. A hover belongs to the
 * `resetKey` it was made under (the step), so it does not outlive the step it was on,
 * without remounting the views below.
 */
export function LinkedProvider({
  selectedAction,
  onSelectAction,
  resetKey,
  children,
}: {
  selectedAction: number
  onSelectAction: (index: number) => void
  resetKey?: unknown
  children: ReactNode
}) {
  const [marked, setMarked] = useState<{ readonly key: unknown; readonly part: LinkPart | null }>({
    key: resetKey,
    part: null,
  })
  const hover = marked.key === resetKey ? marked.part : null
  const value = useMemo<Linked>(
    () => ({
      hover,
      selectedAction,
      setHover: (p) =>
        setMarked((old) => {
          const was = old.key === resetKey ? old.part : null
          return samePart(was, p) || (was === null && p === null) ? old : { key: resetKey, part: p }
        }),
      selectAction: onSelectAction,
    }),
    [hover, selectedAction, onSelectAction, resetKey],
  )
  return <LinkedContext.Provider value={value}>{children}</LinkedContext.Provider>
}

/**
 * Handlers for a view's container: the pointer over, or focus on, an element with a
 * `data-part` marks that part in every view; leaving the container clears it.
 */
export function linkHandlers(linked: Linked) {
  return {
    onMouseOver: (e: MouseEvent) => linked.setHover(partAt(e.target)),
    onMouseLeave: () => linked.setHover(null),
    onFocus: (e: FocusEvent) => linked.setHover(partAt(e.target)),
    onBlur: (e: FocusEvent) => {
      if (!e.currentTarget.contains(e.relatedTarget as Node | null)) linked.setHover(null)
    },
  }
}
