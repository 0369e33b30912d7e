import { type FocusEvent, type MouseEvent, type ReactNode, useMemo, useState } from 'react'
import { type Linked, LinkedContext, type LinkPart, partAt, samePart } from '../model/linked'

/**
 * The linked-views state of one selected step (src/app/model/linked.ts): what part is
 * hovered or focused, and how choosing an action selects it. Give it a `key` of the step
 * so that a hover does not outlive the step it was on.
 */
export function LinkedProvider({
  selectedAction,
  onSelectAction,
  children,
}: {
  selectedAction: number
  onSelectAction: (index: number) => void
  children: ReactNode
}) {
  const [hover, setHover] = useState<LinkPart | null>(null)
  const value = useMemo<Linked>(
    () => ({
      hover,
      selectedAction,
      setHover: (p) => setHover((old) => (samePart(old, p) || (old === null && p === null) ? old : p)),
      selectAction: onSelectAction,
    }),
    [hover, selectedAction, onSelectAction],
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
