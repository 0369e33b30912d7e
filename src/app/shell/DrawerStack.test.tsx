// @vitest-environment happy-dom
import { cleanup, render, screen } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { afterEach, describe, expect, it, vi } from 'vitest'
import { KeymapProvider } from '../ui/useKeys'
import { DrawerStack } from './DrawerStack'
import type { DrawerContext, DrawerSpec } from './drawers'
import type { LogSession } from './useLogSession'
import { useState } from 'react'
import { type DrawerId, EMPTY_VIEW } from './view-state'
import { useShellView, ViewStore } from './view-store'

afterEach(cleanup)

function fake(title: string, needsLog = false): DrawerSpec {
  return {
    title,
    label: title,
    needsLog,
    component: ({ close }: DrawerContext) => (
      <section aria-labelledby={`h-${title}`}>
        <h2 id={`h-${title}`}>{title}</h2>
        <button type="button">{`${title} first`}</button>
        <button type="button" onClick={close}>{`Close ${title}`}</button>
      </section>
    ),
  }
}

const REGISTRY: Record<DrawerId, DrawerSpec> = {
  open: fake('Open'),
  signers: fake('Signers'),
  sign: fake('Sign'),
  edit: fake('Edit', true),
  flows: fake('Flows', true),
  audit: fake('Audit', true),
  traffic: fake('Traffic', true),
}

function Harness({ loaded, onEscape }: { loaded: boolean; onEscape: () => boolean }) {
  const [store] = useState(() => new ViewStore(EMPTY_VIEW))
  const view = useShellView(store)
  const dispatch = store.dispatch
  const session = { ins: { loaded: loaded ? {} : null, busy: null } } as unknown as LogSession
  return (
    <>
      {(['signers', 'sign', 'edit'] as const).map((d) => (
        <button key={d} type="button" onClick={() => dispatch({ type: 'toggle', drawer: d })}>
          {`${REGISTRY[d].title}…`}
        </button>
      ))}
      <DrawerStack
        ctx={{ session, view, dispatch, openSettings: () => undefined, edit: {} as never, logLimit: 256 }}
        registry={REGISTRY}
        onEscape={onEscape}
      />
    </>
  )
}

function setup(loaded = true) {
  const onEscape = vi.fn(() => false)
  const user = userEvent.setup()
  render(
    <KeymapProvider>
      <Harness loaded={loaded} onEscape={onEscape} />
    </KeymapProvider>,
  )
  return { user, onEscape }
}

const drawers = () => [...document.querySelectorAll('[data-drawer]')].map((d) => d.getAttribute('data-drawer'))

describe('DrawerStack', () => {
  it('stacks the drawers in the order they opened, and Escape closes the newest first', async () => {
    const { user, onEscape } = setup()
    await user.click(screen.getByRole('button', { name: 'Sign…' }))
    await user.click(screen.getByRole('button', { name: 'Signers…' }))
    await user.click(screen.getByRole('button', { name: 'Edit…' }))
    expect(drawers()).toEqual(['sign', 'signers', 'edit'])
    await user.keyboard('{Escape}')
    expect(drawers()).toEqual(['sign', 'signers'])
    await user.keyboard('{Escape}')
    await user.keyboard('{Escape}')
    expect(drawers()).toEqual([])
    expect(onEscape).not.toHaveBeenCalled()
    // With no drawer open, Escape goes on (to presenter mode).
    await user.keyboard('{Escape}')
    expect(onEscape).toHaveBeenCalledOnce()
  })

  it('gives an opened drawer the focus, keeps Tab inside it, and closes it from its own button', async () => {
    const { user } = setup()
    await user.click(screen.getByRole('button', { name: 'Signers…' }))
    const panel = screen.getByRole('region', { name: 'Signers' })
    expect(panel.contains(document.activeElement)).toBe(true)
    await user.tab()
    expect(document.activeElement).toBe(screen.getByRole('button', { name: 'Signers first' }))
    await user.tab()
    await user.tab()
    // Round the drawer's two controls, never out to the header.
    expect(document.activeElement).toBe(screen.getByRole('button', { name: 'Signers first' }))
    await user.click(screen.getByRole('button', { name: 'Close Signers' }))
    expect(drawers()).toEqual([])
  })

  it('with no log: shows the Open panel inline, hides the drawers that need a log, and Escape skips them', async () => {
    const { user, onEscape } = setup(false)
    expect(drawers()).toEqual(['open'])
    expect(document.querySelector('[data-drawer="open"]')?.className).toBe('drawer-inline')
    await user.click(screen.getByRole('button', { name: 'Edit…' }))
    expect(drawers()).toEqual(['open'])
    await user.keyboard('{Escape}')
    expect(onEscape).toHaveBeenCalledOnce()
  })
})
