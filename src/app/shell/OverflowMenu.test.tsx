// @vitest-environment happy-dom
import { cleanup, render, screen, waitFor } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { afterEach, describe, expect, it, vi } from 'vitest'
import type { MenuAction } from './menu-action'
import { OverflowMenu } from './OverflowMenu'

afterEach(cleanup)

function setup(checked = false) {
  const picked: string[] = []
  const actions: MenuAction[] = ['Signers…', 'Sign…', 'Present', 'Settings…'].map((label) => ({
    id: label,
    label,
    ...(label === 'Present' ? { checked } : {}),
    onSelect: () => picked.push(label),
  }))
  const user = userEvent.setup()
  render(
    <>
      <button type="button">elsewhere</button>
      <OverflowMenu label="More" actions={actions} />
    </>,
  )
  const more = screen.getByRole('button', { name: 'More' })
  const items = () => menuItems().map((i) => i.textContent)
  return { user, picked, more, items }
}

const menuItems = () => [...screen.getByRole('menu').querySelectorAll<HTMLElement>('[role^="menuitem"]')]
const focused = () => document.activeElement?.textContent

describe('OverflowMenu', () => {
  it('opens on a click with the first item focused, and a second click closes it', async () => {
    const { user, more, items } = setup()
    expect(more.getAttribute('aria-expanded')).toBe('false')
    expect(screen.queryByRole('menu')).toBeNull()
    await user.click(more)
    expect(more.getAttribute('aria-expanded')).toBe('true')
    // The open list is a lazy chunk: the first open waits for it.
    expect((await screen.findByRole('menu', { name: 'More' })).id).toBe(more.getAttribute('aria-controls'))
    expect(items()).toEqual(['Signers…', 'Sign…', 'Present', 'Settings…'])
    await waitFor(() => expect(focused()).toBe('Signers…'))
    await user.click(more)
    expect(screen.queryByRole('menu')).toBeNull()
  })

  it('moves between the items with the arrows, Home and End (round at the ends), and Escape closes it onto the button', async () => {
    const { user, more } = setup()
    more.focus()
    // Each key press, and the item it focuses ('s' is type-ahead: the next item starting with the letter).
    for (const [keys, item] of [
      ['{ArrowDown}', 'Signers…'],
      ['{ArrowDown}{ArrowDown}', 'Present'],
      ['{End}', 'Settings…'],
      ['{ArrowDown}', 'Signers…'],
      ['{ArrowUp}', 'Settings…'],
      ['{Home}', 'Signers…'],
      ['s', 'Sign…'],
    ] as const) {
      await user.keyboard(keys)
      expect(focused(), keys).toBe(item)
    }
    // One Tab stop: only the active item is in the tab order.
    expect(menuItems().map((i) => i.tabIndex)).toEqual([-1, 0, -1, -1])

    // The menu's keys are its own: the page's one window listener (the keymap) never sees them.
    const page = vi.fn()
    window.addEventListener('keydown', page)
    try {
      await user.keyboard('{Escape}')
    } finally {
      window.removeEventListener('keydown', page)
    }
    expect(page).not.toHaveBeenCalled()
    expect(screen.queryByRole('menu')).toBeNull()
    expect(document.activeElement).toBe(more)
    // ↑ on the button opens the menu on its last item.
    await user.keyboard('{ArrowUp}')
    expect(focused()).toBe('Settings…')
  })

  it('runs the chosen item once and closes: by a click, by Enter and by Space', async () => {
    const { user, more, picked } = setup()
    await user.click(more)
    await user.click(screen.getByRole('menuitem', { name: 'Sign…' }))
    expect(picked).toEqual(['Sign…'])
    expect(screen.queryByRole('menu')).toBeNull()

    more.focus()
    await user.keyboard('{ArrowDown}{End}{Enter}')
    expect(picked).toEqual(['Sign…', 'Settings…'])
    expect(screen.queryByRole('menu')).toBeNull()
    expect(document.activeElement).toBe(more)

    await user.keyboard('{ArrowDown}{ArrowDown}{ArrowDown}[Space]')
    expect(picked).toEqual(['Sign…', 'Settings…', 'Present'])
    expect(screen.queryByRole('menu')).toBeNull()
  })

  it('shows a toggle that is on as a checked item', async () => {
    const { user, more } = setup(true)
    await user.click(more)
    const present = screen.getByRole('menuitemcheckbox', { name: 'Present' })
    expect(present.getAttribute('aria-checked')).toBe('true')
    expect(screen.getByRole('menuitem', { name: 'Sign…' }).getAttribute('aria-checked')).toBeNull()
  })

  it('closes on Tab and on a press outside, running nothing', async () => {
    const { user, more, picked } = setup()
    await user.click(more)
    await user.tab()
    expect(screen.queryByRole('menu')).toBeNull()
    expect(document.activeElement).toBe(more)
    await user.click(more)
    await user.click(screen.getByRole('button', { name: 'elsewhere' }))
    expect(screen.queryByRole('menu')).toBeNull()
    expect(picked).toEqual([])
  })
})
