// @vitest-environment happy-dom
import { cleanup, screen } from '@testing-library/react'
import { afterEach, describe, expect, it } from 'vitest'
import { inbox, renderTasks } from './flow-test-harness'

afterEach(cleanup)

const NEW = '0x000000000000000000000000000000000000beef'

describe('RecoveryFlow', () => {
  it('rotates to a typed identifier only once its last four characters are typed back (IDENT-045)', async () => {
    const { user } = renderTasks(await inbox(), 'recovery')
    await user.selectOptions(screen.getByRole('combobox', { name: 'New recovery identifier' }), 'type an identifier…')
    await user.type(screen.getByRole('textbox', { name: 'Typed recovery identifier' }), NEW)
    const last4 = await screen.findByRole('textbox', { name: 'Last four characters of the new recovery identifier' })
    expect(screen.getByText(/becomes the recovery identifier/)).toBeTruthy()
    const rotate = screen.getByRole('button', { name: 'Rotate and publish' })
    await user.type(last4, 'dead')
    expect(rotate).toHaveProperty('disabled', true)
    await user.clear(last4)
    await user.type(last4, 'BEEF')
    await screen.findByText(/Asks each signer once, then publishes to http:\/\/127.0.0.1:9/)
    expect(rotate).toHaveProperty('disabled', false)
  })

  it('is a tab of the drawer: arrow keys move between the tasks', async () => {
    const { user } = renderTasks(await inbox(), 'recovery')
    const tab = screen.getByRole('tab', { name: 'Rotate recovery' })
    expect(tab.getAttribute('aria-selected')).toBe('true')
    tab.focus()
    await user.keyboard('{ArrowRight}')
    expect(screen.getByRole('tab', { name: 'Inbox health' }).getAttribute('aria-selected')).toBe('true')
    expect(screen.getByRole('tabpanel').textContent).toMatch(/Installations, unused the longest first/)
  })
})
