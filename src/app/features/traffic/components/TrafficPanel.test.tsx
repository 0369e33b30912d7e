// @vitest-environment happy-dom
import { act, fireEvent, render, screen, within } from '@testing-library/react'
import { describe, expect, it } from 'vitest'
import { withLayoutBox } from '../../../ui/layout-box.testkit'
import { INBOX, wireCall as call } from '../traffic.testkit'
import { TrafficPanel } from './TrafficPanel'

class FakeES {
  static last: FakeES | null = null
  onopen: (() => void) | null = null
  onmessage: ((e: { data: string }) => void) | null = null
  onerror: (() => void) | null = null
  constructor(readonly url: string) {
    FakeES.last = this
  }
  close() {}
}

const deps = {
  EventSource: FakeES as unknown as typeof EventSource,
  fetch: async () =>
    new Response(
      JSON.stringify({
        calls: [
          call(1),
          call(2, {
            outcome: 'refused',
            code: 'conflict',
            rule: 'IDENT-040',
            message: '<img src=x onerror=alert(1)> signer differs',
            update: { inbox_id: INBOX, sequence_id: null, update_hex: '0a01', truncated: false },
          }),
        ],
        next: 2,
        dropped: 0,
        capacity: 1000,
      }),
    ),
}

withLayoutBox(480)

describe('TrafficPanel', () => {
  it('shows the calls newest first, live, with the refusal rule and its text', async () => {
    render(<TrafficPanel nodeUrl="http://127.0.0.1:9" onOpen={() => {}} deps={deps} />)
    const table = await screen.findByRole('table', { name: 'Node calls' })
    await screen.findByRole('button', { name: 'Rule IDENT-040: show its text' })
    const status = screen.getByRole('status', { name: 'Traffic connection' })
    expect(status.getAttribute('aria-live')).toBe('polite')
    act(() => FakeES.last!.onopen!())
    expect(status.textContent).toContain('live')
    const rows = within(table).getAllByRole('row').slice(1)
    expect(rows.map((r) => r.textContent)).toEqual([
      expect.stringContaining('refused'),
      expect.stringContaining('PublishIdentityUpdate'),
    ])
    // The client's message is text, not markup.
    expect(document.querySelector('img')).toBeNull()
    expect(
      screen.getByRole('button', { name: 'Open call 2 in the inspector (the refused update after the head)' }),
    ).toBeTruthy()
    fireEvent.click(screen.getByRole('button', { name: 'Rule IDENT-040: show its text' }))
    expect(screen.getByRole('region', { name: 'Rule IDENT-040' }).textContent).toContain('IDENT-040')
  })

  it('adds streamed calls and filters by outcome and method', async () => {
    render(<TrafficPanel nodeUrl="http://127.0.0.1:9" onOpen={() => {}} deps={deps} />)
    await screen.findByRole('button', { name: 'Rule IDENT-040: show its text' })
    act(() => {
      FakeES.last!.onopen!()
      FakeES.last!.onmessage!({
        data: JSON.stringify(
          call(3, {
            method: 'xmtp.mls.api.v1.MlsApi/UploadKeyPackage',
            outcome: 'error',
            code: 'unimplemented',
            update: null,
          }),
        ),
      })
    })
    expect(screen.getByLabelText('Calls shown').textContent).toBe('3 of 3 calls')
    fireEvent.change(screen.getByRole('combobox'), { target: { value: 'error' } })
    expect(screen.getByLabelText('Calls shown').textContent).toBe('1 of 3 calls')
    expect(screen.getByText('unimplemented')).toBeTruthy()
    fireEvent.change(screen.getByRole('combobox'), { target: { value: '' } })
    fireEvent.change(screen.getByRole('searchbox'), { target: { value: 'publish' } })
    expect(screen.getByLabelText('Calls shown').textContent).toBe('2 of 3 calls')
  })
})
