// @vitest-environment happy-dom
import { readFileSync } from 'node:fs'
import { fireEvent, render, screen, waitFor, within } from '@testing-library/react'
import { describe, expect, it, vi } from 'vitest'
import { withLayoutBox } from '../../../ui/layout-box.testkit'
import type { InspectRequest } from '../../../model/inspect-request'
import { AuditView } from './AuditView'

const FIXTURE = 'test/fixtures/IDENT-040-add-signer-mismatch.json'
const INBOX = '9de91141418f940e1fe889afcf8aa21605debdc9df44603ca60ac167a60c6187'

const lines = [
  JSON.stringify({
    source: FIXTURE,
    inbox_id: INBOX,
    ok: false,
    updates: 3,
    head: '3',
    first_failure: {
      sequence_id: '2',
      status: 'rejected',
      rule: 'IDENT-040',
      action_index: 0,
      message: 'signer differs',
    },
    members: 1,
    state_digest: 'aa',
  }),
  JSON.stringify({
    source: 'logs/ok.json',
    inbox_id: 'b'.repeat(64),
    ok: true,
    updates: 2,
    head: '2',
    first_failure: null,
    members: 2,
    state_digest: 'bb',
    changed: ['head'],
  }),
  '{"broken": ',
  JSON.stringify({ summary: { inboxes: 2, ok: 1, rejected: 1, pending: 0, unreadable: 0, updates: 5, seconds: 0.2 } }),
].join('\n')

// happy-dom lays nothing out: give every element a box, so the windowed table has rows in view.
withLayoutBox(480)

async function readPasted() {
  fireEvent.change(screen.getByLabelText('Audit report text'), { target: { value: lines } })
  fireEvent.click(screen.getByRole('button', { name: 'Read the pasted report' }))
  await screen.findByRole('status', { name: 'Report summary' })
}

describe('AuditView', () => {
  it('reads a pasted report: counts by verdict and rule, the malformed line by number, the table', async () => {
    render(<AuditView onOpen={() => {}} />)
    await readPasted()
    expect(screen.getByRole('status', { name: 'Report summary' }).textContent).toContain('2 inboxes, 5 updates')
    expect(screen.getByRole('button', { name: 'rejected: 1 inbox' })).toBeTruthy()
    expect(screen.getByRole('button', { name: 'ok: 1 inbox' })).toBeTruthy()
    expect(screen.getByRole('button', { name: 'IDENT-040: 1 inbox' })).toBeTruthy()
    expect(screen.getByRole('list', { name: 'Malformed lines' }).textContent).toContain('line 3: not JSON')
    const table = screen.getByRole('table', { name: 'Audited inboxes' })
    expect(within(table).getAllByRole('row')).toHaveLength(3)
  })

  it('filters by a rule bar (showing the rule text), by prefix and by changed', async () => {
    render(<AuditView onOpen={() => {}} />)
    await readPasted()
    fireEvent.click(screen.getByRole('button', { name: 'IDENT-040: 1 inbox' }))
    expect(screen.getByRole('status', { name: 'Inboxes shown' }).textContent).toBe('1 of 2 shown')
    expect(screen.getByRole('region', { name: 'Rule IDENT-040' }).textContent).toContain('IDENT-040')
    fireEvent.click(screen.getByRole('button', { name: 'IDENT-040: 1 inbox' }))
    fireEvent.change(screen.getByRole('searchbox'), { target: { value: 'bbb' } })
    expect(screen.getByRole('status', { name: 'Inboxes shown' }).textContent).toBe('1 of 2 shown')
    fireEvent.change(screen.getByRole('searchbox'), { target: { value: '' } })
    fireEvent.click(screen.getByRole('checkbox'))
    const table = screen.getByRole('table', { name: 'Audited inboxes' })
    expect(within(table).getAllByRole('row')).toHaveLength(2)
    expect(table.textContent).toContain('b'.repeat(64))
  })

  it('opens a file-sourced inbox at its first failure once the user hands over the log file', async () => {
    const onOpen = vi.fn<(r: InspectRequest) => void>()
    render(<AuditView onOpen={onOpen} />)
    await readPasted()
    fireEvent.click(screen.getByRole('button', { name: /^Open inbox 9de91141418f940e/ }))
    const input = await screen.findByLabelText(`Log file for ${FIXTURE}`)
    // A file of another inbox: said so, nothing opened.
    const other = new File([readFileSync('test/fixtures/IDENT-046-smart-wallet-other-chain.json')], 'other.json')
    fireEvent.change(input, { target: { files: [other] } })
    await screen.findByText(/holds no log of inbox 9de91141/)
    expect(onOpen).not.toHaveBeenCalled()
    const file = new File([readFileSync(FIXTURE)], 'IDENT-040.json')
    fireEvent.change(screen.getByLabelText(`Log file for ${FIXTURE}`), { target: { files: [file] } })
    await waitFor(() => expect(onOpen).toHaveBeenCalledTimes(1))
    expect(onOpen.mock.calls[0]![0]).toMatchObject({ kind: 'file', logIndex: 0, step: { sequenceId: 2n, action: 0 } })
  })

  it('says clearly when a report is empty', async () => {
    render(<AuditView onOpen={() => {}} />)
    const empty = new File(['\n\n'], 'empty.jsonl')
    fireEvent.change(screen.getByLabelText('Open an audit report'), { target: { files: [empty] } })
    expect((await screen.findByRole('alert')).textContent).toContain('is empty')
  })
})
