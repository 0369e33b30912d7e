/** An action of the header's More menu (./OverflowMenu.tsx; its open list, a lazy chunk, is ./OverflowItems.tsx). */
export interface MenuAction {
  readonly id: string
  readonly label: string
  /** A toggle (a drawer, presenter mode): shown checked while on. */
  readonly checked?: boolean
  readonly onSelect: () => void
}
