/**
 * Tabs after the WAI-ARIA Authoring Practices tabs pattern: a tablist of tabs, one
 * tabpanel (only the active one is rendered). Arrow Left/Right move to the previous or
 * next tab and open it (automatic activation, wrapping), Home/End to the first and last;
 * only the active tab is in the Tab order, and Tab from it reaches the panel.
 */
import { useRef, type KeyboardEvent, type ReactNode } from 'react'

export interface TabSpec<T extends string> {
  readonly id: T
  readonly label: string
}

interface TabListProps<T extends string> {
  tabs: readonly TabSpec<T>[]
  active: T
  onChange: (id: T) => void
  /** The tablist's accessible name. */
  label: string
  /** Prefix of the tab and panel element ids (unique on the page). */
  idPrefix: string
}

/** The tabs with their content below them, in one tabpanel. */
export function Tabs<T extends string>({ children, ...list }: TabListProps<T> & { children: ReactNode }) {
  const current = list.tabs.find((t) => t.id === list.active) ?? list.tabs[0]!
  return (
    <div className="tabs">
      <TabList {...list} />
      <TabPanel idPrefix={list.idPrefix} active={current.id} className="tabpanel" tabIndex={0}>
        {children}
      </TabPanel>
    </div>
  )
}

/**
 * The tablist alone, for a view that places its panel elsewhere (in a TabPanel with the
 * same idPrefix); `className` styles the list.
 */
export function TabList<T extends string>({
  tabs,
  active,
  onChange,
  label,
  idPrefix,
  className = 'tablist',
}: TabListProps<T> & { className?: string }) {
  const list = useRef<HTMLDivElement>(null)
  const at = Math.max(
    0,
    tabs.findIndex((t) => t.id === active),
  )
  const go = (n: number) => {
    const t = tabs[(n + tabs.length) % tabs.length]!
    onChange(t.id)
    list.current?.querySelector<HTMLElement>(`#${idPrefix}-tab-${t.id}`)?.focus()
  }
  const onKeyDown = (e: KeyboardEvent) => {
    if (e.altKey || e.ctrlKey || e.metaKey) return
    const to =
      e.key === 'ArrowRight'
        ? at + 1
        : e.key === 'ArrowLeft'
          ? at - 1
          : e.key === 'Home'
            ? 0
            : e.key === 'End'
              ? tabs.length - 1
              : null
    if (to === null) return
    // Handled here: the timeline's window-level keys (arrows, Home/End) leave it alone.
    e.preventDefault()
    go(to)
  }
  const current = tabs[at]!
  return (
    <div className={className} role="tablist" aria-label={label} ref={list} onKeyDown={onKeyDown}>
      {tabs.map((t) => {
        const sel = t.id === current.id
        return (
          <button
            key={t.id}
            type="button"
            role="tab"
            id={`${idPrefix}-tab-${t.id}`}
            aria-selected={sel}
            aria-controls={sel ? `${idPrefix}-panel` : undefined}
            tabIndex={sel ? 0 : -1}
            className={sel ? 'tab active' : 'tab'}
            onClick={() => onChange(t.id)}
          >
            {t.label}
          </button>
        )
      })}
    </div>
  )
}

/** The active tab's panel, labelled by its tab. */
export function TabPanel({
  idPrefix,
  active,
  className,
  tabIndex,
  children,
}: {
  idPrefix: string
  active: string
  className?: string
  tabIndex?: number
  children: ReactNode
}) {
  return (
    <div
      className={className}
      role="tabpanel"
      id={`${idPrefix}-panel`}
      aria-labelledby={`${idPrefix}-tab-${active}`}
      tabIndex={tabIndex}
    >
      {children}
    </div>
  )
}
