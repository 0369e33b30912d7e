// @vitest-environment happy-dom
import { cleanup, screen } from '@testing-library/react'
import { afterEach, describe, expect, it } from 'vitest'
import { inbox, renderTasks } from './flow-test-harness'

afterEach(cleanup)

const OTHER = 'ab'.repeat(32)
const status = () => screen.getByRole('status', { name: 'Handle check' })
const sign = () => screen.getByRole('button', { name: 'Claim and publish' })

describe('ClaimFlow', () => {
  it('checks the grammar as typed, then asks the node once per handle, after typing pauses (IDENT-078, IDENT-085)', async () => {
    const { user, asked } = renderTasks(await inbox(), 'claim')
    const field = screen.getByRole('textbox', { name: 'Handle to claim' })
    await user.type(field, '9lives')
    expect(status().textContent).toMatch(/IDENT-078/)
    await user.clear(field)
    await user.type(field, 'alice')
    await screen.findByText(/the node names no inbox for it: it is free/)
    expect(asked.filter((a) => a.startsWith('handleHolder'))).toEqual(['handleHolder alice'])
    // The check before signing reuses the lookup: no second GetInboxIds for the same handle.
    expect(asked.filter((a) => a === 'handleOwner alice').length).toBeLessThanOrEqual(1)
  })

  it('says a handle is taken when the holder’s own log backs it, and Sign stays disabled', async () => {
    const holders = { bob: { inboxId: OTHER, backed: true, reason: 'its log claims it' } }
    const { user } = renderTasks(await inbox(), 'claim', { holders })
    await user.type(screen.getByRole('textbox', { name: 'Handle to claim' }), 'bob')
    await screen.findByText(/Taken: inbox/)
    expect(sign()).toHaveProperty('disabled', true)
  })

  it('refuses before signing what the node’s claim policy would refuse (IDENT-084)', async () => {
    const policy = { minHandleLength: 3, reserved: ['admin'], claimIntervalNs: 0n }
    const { user } = renderTasks(await inbox(), 'claim', { policy })
    await screen.findByText(/This node admits names of at least 3 characters and reserves admin/)
    await user.type(screen.getByRole('textbox', { name: 'Handle to claim' }), 'admin')
    expect(status().textContent).toMatch(/claim policy would refuse it/)
    expect(sign()).toHaveProperty('disabled', true)
  })
})
