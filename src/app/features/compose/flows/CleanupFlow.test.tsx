// @vitest-environment happy-dom
import { cleanup, screen, within } from '@testing-library/react'
import { afterEach, describe, expect, it } from 'vitest'
import { inbox, installations, renderTasks } from './flow-test-harness'

afterEach(cleanup)

const boxes = () =>
  within(screen.getByRole('group', { name: /Installations to revoke/ })).getAllByRole('checkbox') as HTMLInputElement[]

describe('CleanupFlow', () => {
  it('picks every installation but this browser’s, says what the update removes, and clears with None', async () => {
    const { user } = renderTasks(await inbox(), 'cleanup', {}, [installations[0]!])
    expect(screen.getByText(/This browser holds it/)).toBeTruthy()
    expect(boxes()).toHaveLength(3)
    await user.click(screen.getByRole('button', { name: 'All but this browser’s' }))
    expect(boxes().filter((b) => b.checked)).toHaveLength(2)
    const removes = await screen.findByRole('list', { name: 'Members the update removes' })
    expect(within(removes).getAllByRole('listitem')).toHaveLength(2)
    expect(screen.getByRole('button', { name: 'Revoke 2 and publish' })).toBeTruthy()
    await user.click(screen.getByRole('button', { name: 'None' }))
    expect(boxes().some((b) => b.checked)).toBe(false)
    expect(screen.getByRole('list', { name: 'What the task still needs' }).textContent).toMatch(/at least one/)
  })

  it('warns and blocks signing when the node holds a newer state of the inbox', async () => {
    const state = await inbox()
    const { user } = renderTasks(state, 'cleanup', { newest: state.sequenceId + 2n })
    await screen.findByRole('alert', { name: 'Inbox changed on the node' })
    await user.click(boxes()[0]!)
    expect(screen.getByRole('button', { name: 'Revoke and publish' })).toHaveProperty('disabled', true)
  })
})
