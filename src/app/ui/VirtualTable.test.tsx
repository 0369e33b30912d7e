// @vitest-environment happy-dom
import { render, screen, within } from '@testing-library/react'
import { describe, expect, it } from 'vitest'
import { withLayoutBox } from './layout-box.testkit'
import { type Column, VirtualTable } from './VirtualTable'

interface Row {
  readonly id: number
  readonly name: string
}
const rows = (n: number): Row[] => Array.from({ length: n }, (_, i) => ({ id: i, name: `row ${i}` }))
const columns: Column<Row>[] = [
  { header: 'Id', className: 'vt-num', cell: (r) => r.id },
  {
    header: 'Name',
    cellClassName: 'mono',
    title: (r) => `the ${r.name}`,
    wide: true,
    cell: (r) => <strong>{r.name}</strong>,
  },
]

function table(list: readonly Row[], empty = 'Nothing here.') {
  return (
    <VirtualTable
      label="Things"
      className="things"
      rows={list}
      columns={columns}
      rowKey={(r) => r.id}
      rowHeight={40}
      rowClass={(r) => (r.id % 2 ? 'odd' : 'even')}
      empty={empty}
    />
  )
}

withLayoutBox(400)

describe('VirtualTable', () => {
  it('names the table, its columns and its rows, with their place in the whole list', () => {
    render(table(rows(3)))
    const t = screen.getByRole('table', { name: 'Things' })
    expect(t.className).toBe('vt things')
    expect(t.getAttribute('aria-rowcount')).toBe('4')
    expect(
      within(t)
        .getAllByRole('columnheader')
        .map((h) => h.textContent),
    ).toEqual(['Id', 'Name'])
    const body = within(t).getAllByRole('row').slice(1)
    expect(body.map((r) => r.getAttribute('aria-rowindex'))).toEqual(['2', '3', '4'])
    expect(body.map((r) => r.className)).toEqual(['vt-row even', 'vt-row odd', 'vt-row even'])
    const cells = within(body[1]!).getAllByRole('cell')
    expect(cells.map((c) => c.textContent)).toEqual(['1', 'row 1'])
    expect(cells[0]!.className).toBe('vt-num')
    expect(cells[1]!.className).toBe('mono vt-wide')
    expect(within(t).getAllByRole('columnheader')[1]!.className).toBe('vt-wide')
    expect(cells[1]!.title).toBe('the row 1')
    expect(screen.queryByText('Nothing here.')).toBeNull()
  })

  it('puts only the rows in view in the page, however long the list', () => {
    render(table(rows(100_000)))
    const t = screen.getByRole('table', { name: 'Things' })
    expect(t.getAttribute('aria-rowcount')).toBe('100001')
    const body = within(t).getAllByRole('row').slice(1)
    // 400px of 40px rows, and a few either side.
    expect(body.length).toBeGreaterThanOrEqual(10)
    expect(body.length).toBeLessThan(40)
    expect(body[0]!.textContent).toBe('0row 0')
  })

  it('follows a filter: fewer rows, a new count, and the empty text when none is left', () => {
    const all = rows(50)
    const { rerender } = render(table(all))
    rerender(table(all.filter((r) => r.name.endsWith('7'))))
    const t = screen.getByRole('table', { name: 'Things' })
    expect(t.getAttribute('aria-rowcount')).toBe('6')
    expect(
      within(t)
        .getAllByRole('row')
        .slice(1)
        .map((r) => within(r).getAllByRole('cell')[0]!.textContent),
    ).toEqual(['7', '17', '27', '37', '47'])
    rerender(table([], 'No row matches the filter.'))
    expect(within(t).getAllByRole('row')).toHaveLength(1)
    expect(within(t).getByText('No row matches the filter.')).toBeTruthy()
  })
})
