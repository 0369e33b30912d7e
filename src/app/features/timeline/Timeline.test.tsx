// @vitest-environment happy-dom
import { act, cleanup, render, screen, within } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { useRef, useState } from 'react'
import { afterEach, beforeAll, describe, expect, it } from 'vitest'
import { readLogs } from '../../../core/decode/logs'
import { replay } from '../../../core/replay'
import { syntheticBundle } from '../../../../e2e/synthetic-log'
import { toTransferStep } from '../../../worker/transfer'
import { allRows, type Row, type Selection, TraceModel } from '../../trace/trace-model'
import { KeymapProvider } from '../../ui/useKeys'
import { Timeline } from './Timeline'

afterEach(cleanup)

let model: TraceModel
let rows: readonly Row[]
beforeAll(async () => {
  // Five updates; the fourth is rejected, so the fifth is not applied.
  const trace = await replay(readLogs(await syntheticBundle(5, { rejectAt: 4 }))[0]!, { verifyAfterStop: true })
  model = new TraceModel(trace.steps.map(toTransferStep))
  rows = allRows(model.steps)
})

/** The timeline as the workspace holds it: the selection and the pinned Diff base are the caller's. */
function Harness({ log }: { log: { selection: Selection | null; pinned: Row | null } }) {
  const filter = useRef<HTMLInputElement>(null)
  const [selection, setSelection] = useState<Selection | null>(rows[0]!)
  const [pinned, setPinned] = useState<Row | null>(null)
  log.selection = selection
  log.pinned = pinned
  return (
    <KeymapProvider>
      <Timeline
        model={model}
        rows={rows}
        selection={selection}
        onSelect={setSelection}
        filterInput={filter}
        pinned={pinned}
        onPin={setPinned}
      />
    </KeymapProvider>
  )
}

function setup() {
  const log: { selection: Selection | null; pinned: Row | null } = { selection: null, pinned: null }
  const user = userEvent.setup()
  render(<Harness log={log} />)
  const listbox = screen.getByRole('listbox', { name: /Updates and their actions/ })
  act(() => listbox.focus())
  return { user, log, listbox }
}

const at = (s: Selection | null) => (s ? `${model.steps[s.k]!.sequenceId}.${s.i}` : null)

describe('Timeline selection', () => {
  it('steps by action with j/k and the arrows, by update with Left/Right, to the ends with Home/End', async () => {
    const { user, log } = setup()
    expect(at(log.selection)).toBe('1.0')
    await user.keyboard('j')
    expect(log.selection).toEqual(rows[1])
    await user.keyboard('{ArrowDown}{ArrowDown}k')
    expect(log.selection).toEqual(rows[2])
    await user.keyboard('{End}')
    expect(log.selection).toEqual(rows[rows.length - 1])
    await user.keyboard('{Home}')
    expect(log.selection).toEqual(rows[0])
    await user.keyboard('{ArrowRight}')
    expect(log.selection!.k).toBe(1)
    await user.keyboard('{ArrowLeft}')
    expect(log.selection!.k).toBe(0)
  })

  it('selects a clicked row, and shift-click or b pins the Diff base (again to unpin)', async () => {
    const { user, log, listbox } = setup()
    const options = within(listbox).getAllByRole('option')
    await user.click(options[2]!)
    expect(log.selection).toEqual(rows[2])
    expect(within(listbox).getAllByRole('option')[2]!.getAttribute('aria-selected')).toBe('true')
    await user.keyboard('b')
    expect(log.pinned).toEqual(rows[2])
    await user.keyboard('b')
    expect(log.pinned).toBeNull()
    await user.keyboard('{Shift>}')
    await user.click(within(listbox).getAllByRole('option')[1]!)
    await user.keyboard('{/Shift}')
    expect(log.pinned).toEqual(rows[1])
  })

  it('/ focuses the filter, which narrows the rows; keys typed there do not move the selection', async () => {
    const { user, log, listbox } = setup()
    await user.keyboard('/')
    const filter = screen.getByRole('searchbox', { name: /Filter by member or handle/ })
    expect(document.activeElement).toBe(filter)
    await user.selectOptions(screen.getByRole('combobox', { name: 'Filter by status' }), 'rejected')
    await screen.findByText(/1 of/)
    // The rejected update's rows, and the notice of where the log stops (an option without a row id).
    const shown = within(listbox)
      .getAllByRole('option')
      .map((o) => o.id)
      .filter(Boolean)
    expect(shown).toEqual(rows.filter((r) => r.k === 3).map((r) => `tl-3-${r.i}`))
    await user.click(filter)
    await user.keyboard('jk')
    expect(at(log.selection)).toBe('1.0')
    expect(filter).toHaveProperty('value', 'jk')
  })
})
