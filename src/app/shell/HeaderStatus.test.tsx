// @vitest-environment happy-dom
import { act, cleanup, render, screen } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { afterEach, describe, expect, it, vi } from 'vitest'
import { ProgressStore } from '../trace/useInspector'
import { BusyBar } from './HeaderStatus'

afterEach(cleanup)

describe('BusyBar: the replay in the header', () => {
  it('reads with an empty bar, not an indeterminate one', () => {
    const progress = new ProgressStore()
    render(
      <BusyBar busy={{ phase: 'reading', label: 'file log.json', total: 0 }} progress={progress} onCancel={() => {}} />,
    )
    expect(screen.getByRole('status').textContent).toContain('Reading file log.json…')
    const bar = screen.getByRole('progressbar', { name: 'Replay progress' })
    expect(bar.getAttribute('value')).toBe('0')
  })

  it('replays with the count and a bar that follows the progress store', () => {
    const progress = new ProgressStore()
    progress.set(0, 10_000)
    render(
      <BusyBar
        busy={{ phase: 'replaying', label: 'file log.json', total: 10_000 }}
        progress={progress}
        onCancel={() => {}}
      />,
    )
    const bar = screen.getByRole('progressbar', { name: 'Replay progress' })
    expect(screen.getByRole('status').textContent).toContain('Replaying 0 of 10,000 updates')
    act(() => progress.set(2_500, 10_000))
    expect(screen.getByRole('status').textContent).toContain('Replaying 2,500 of 10,000 updates')
    expect(bar.getAttribute('max')).toBe('10000')
    expect(bar.getAttribute('value')).toBe('2500')
  })

  it('Cancel cancels', async () => {
    const onCancel = vi.fn()
    render(
      <BusyBar
        busy={{ phase: 'replaying', label: 'x', total: 4 }}
        progress={new ProgressStore()}
        onCancel={onCancel}
      />,
    )
    await userEvent.click(screen.getByRole('button', { name: 'Cancel replay' }))
    expect(onCancel).toHaveBeenCalledOnce()
  })
})
