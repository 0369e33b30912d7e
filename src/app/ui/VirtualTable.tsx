/**
 * A long list as a windowed table (@tanstack/react-virtual): only the rows in view are in
 * the page, so 100,000 rows scroll like ten. An ARIA table of divs (role table/row/cell,
 * with aria-rowcount and aria-rowindex so a screen reader knows where it is in the whole
 * list). The caller names the columns; its stylesheet sets the grid (`--vt-columns`,
 * `--vt-columns-narrow`) and the scroller's height (`--vt-height`) on its `className`.
 */
import { useVirtualizer } from '@tanstack/react-virtual'
import { type Key, type ReactNode, useRef } from 'react'
import './virtual-table.css'

export interface Column<T> {
  readonly header: ReactNode
  readonly cell: (row: T) => ReactNode
  /** Class of the header and of every cell of the column. */
  readonly className?: string
  /** Class of the cells only (not the header), e.g. `mono`. */
  readonly cellClassName?: string
  /** The cell's tooltip. */
  readonly title?: (row: T) => string | undefined
  /** Hidden on a narrow screen (max-width 640px). */
  readonly wide?: boolean
}

export interface VirtualTableProps<T> {
  /** The table's accessible name. */
  readonly label: string
  readonly rows: readonly T[]
  readonly columns: readonly Column<T>[]
  readonly rowKey: (row: T) => Key
  readonly rowHeight: number
  /** Shown in place of the rows when there is none. */
  readonly empty: ReactNode
  /** The table's class: where the caller's stylesheet sets the grid. */
  readonly className: string
  readonly rowClass?: (row: T) => string
  /** Before the first measure (and where nothing lays out, as in a test's DOM): a window's worth. */
  readonly initialWidth?: number
}

function classes(...names: (string | false | undefined)[]): string {
  return names.filter(Boolean).join(' ')
}

export function VirtualTable<T>({
  label,
  rows,
  columns,
  rowKey,
  rowHeight,
  empty,
  className,
  rowClass,
  initialWidth = 900,
}: VirtualTableProps<T>) {
  const scroller = useRef<HTMLDivElement>(null)
  const v = useVirtualizer({
    count: rows.length,
    getScrollElement: () => scroller.current,
    estimateSize: () => rowHeight,
    overscan: 8,
    initialRect: { width: initialWidth, height: 480 },
    getItemKey: (i) => rowKey(rows[i]!),
  })
  const headClass = (c: Column<T>) => classes(c.className, c.wide && 'vt-wide') || undefined
  const cellClass = (c: Column<T>) => classes(c.className, c.cellClassName, c.wide && 'vt-wide') || undefined
  return (
    <div className={`vt ${className}`} role="table" aria-label={label} aria-rowcount={rows.length + 1}>
      <div role="rowgroup">
        <div role="row" aria-rowindex={1} className="vt-row vt-head">
          {columns.map((c, i) => (
            <span key={i} role="columnheader" className={headClass(c)}>
              {c.header}
            </span>
          ))}
        </div>
      </div>
      <div className="vt-scroll" ref={scroller}>
        {rows.length === 0 ? (
          <p className="muted vt-empty">{empty}</p>
        ) : (
          <div role="rowgroup" style={{ height: v.getTotalSize(), position: 'relative' }}>
            {v.getVirtualItems().map((item) => {
              const r = rows[item.index]!
              return (
                <div
                  key={item.key}
                  role="row"
                  aria-rowindex={item.index + 2}
                  className={classes('vt-row', rowClass?.(r))}
                  style={{ height: rowHeight, transform: `translateY(${item.start}px)` }}
                >
                  {columns.map((c, i) => (
                    <span key={i} role="cell" className={cellClass(c)} title={c.title?.(r)}>
                      {c.cell(r)}
                    </span>
                  ))}
                </div>
              )
            })}
          </div>
        )}
      </div>
    </div>
  )
}
