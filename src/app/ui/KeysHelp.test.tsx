// @vitest-environment happy-dom
import { cleanup, render, screen, waitFor } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { afterEach, describe, expect, it } from 'vitest'
import { KeysHelp } from './KeysHelp'
import { KEYMAP } from './keymap'
import { KeymapProvider } from './useKeys'

afterEach(cleanup)

function setup() {
  const user = userEvent.setup()
  render(
    <KeymapProvider>
      <button type="button">before</button>
      <input aria-label="a field" />
      <KeysHelp />
    </KeymapProvider>,
  )
  return user
}

describe('KeysHelp', () => {
  it('opens on ?, lists the keymap, keeps Tab on Close, and gives the focus back on Escape', async () => {
    const user = setup()
    const before = screen.getByRole('button', { name: 'before' })
    before.focus()
    await user.keyboard('?')
    // The list is a lazy chunk: the first open waits for it.
    const dialog = await screen.findByRole('dialog', { name: 'Keyboard' })
    for (const b of KEYMAP.filter((x) => x.id.startsWith('presenter.'))) expect(dialog.textContent).toContain(b.help)
    const close = screen.getByRole('button', { name: 'Close' })
    await waitFor(() => expect(close).toHaveProperty('ownerDocument.activeElement', close))
    await user.keyboard('{Tab}')
    expect(document.activeElement).toBe(close)
    await user.keyboard('{Escape}')
    expect(screen.queryByRole('dialog')).toBeNull()
    expect(document.activeElement).toBe(before)
  })

  it('is not opened by ? typed in a text field', async () => {
    const user = setup()
    await user.type(screen.getByRole('textbox', { name: 'a field' }), 'what?')
    expect(screen.queryByRole('dialog')).toBeNull()
    expect(screen.getByRole('textbox', { name: 'a field' })).toHaveProperty('value', 'what?')
  })
})
