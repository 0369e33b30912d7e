// @vitest-environment happy-dom
import { act, cleanup, render, screen } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { lazy, useCallback, useState } from 'react'
import { afterEach, describe, expect, it, vi } from 'vitest'
import { KeysHelp } from '../ui/KeysHelp'
import { KeymapProvider } from '../ui/useKeys'
import { DrawerStack } from './DrawerStack'
import type { DrawerContext } from './drawer-context'
import type { DrawerSpec } from './drawers'
import type { LogSession } from './useLogSession'
import { type DrawerId, EMPTY_VIEW } from './view-state'
import { useShellView, ViewStore } from './view-store'

afterEach(cleanup)

function fake(title: string, key: string, needsLog = false): DrawerSpec {
  return {
    title,
    key,
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
  open: fake('Open', 'o'),
  signers: fake('Signers', 's'),
  sign: fake('Sign', 'n'),
  edit: fake('Edit', 'e', true),
  flows: fake('Flows', 'i', true),
  audit: fake('Audit', 'a', true),
  traffic: fake('Traffic', 't', true),
}

function Harness({
  loaded,
  onEscape,
  modal,
  waiting,
  registry = REGISTRY,
}: {
  loaded: boolean
  onEscape: () => boolean
  modal: boolean
  waiting: boolean
  registry?: Record<DrawerId, DrawerSpec>
}) {
  const [store] = useState(() => new ViewStore(EMPTY_VIEW))
  const view = useShellView(store)
  const dispatch = store.dispatch
  const toggleDrawer = useCallback((drawer: DrawerId) => dispatch({ type: 'toggle', drawer }), [dispatch])
  const session = {
    ins: { loaded: loaded ? {} : null, busy: null },
    page: { waitingForExample: waiting },
    toggleDrawer,
  } as unknown as LogSession
  return (
    <>
      {(['signers', 'sign', 'edit'] as const).map((d) => (
        <button key={d} type="button" onClick={() => toggleDrawer(d)}>
          {`${REGISTRY[d].title}…`}
        </button>
      ))}
      <input aria-label="a field" />
      {modal && (
        <div role="dialog" aria-modal="true" aria-label="a modal">
          <button type="button">in the modal</button>
        </div>
      )}
      <DrawerStack
        ctx={{ session, view, dispatch, openSettings: () => undefined, edit: {} as never, logLimit: 256 }}
        registry={registry}
        onEscape={onEscape}
      />
    </>
  )
}

function setup(loaded = true, modal = false, waiting = false) {
  const onEscape = vi.fn(() => false)
  const user = userEvent.setup()
  render(
    <KeymapProvider>
      <Harness loaded={loaded} onEscape={onEscape} modal={modal} waiting={waiting} />
      <KeysHelp />
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

  it('with no log, while the app waits a moment for the example it opens: no Open panel until the user opens it', async () => {
    const { user } = setup(false, false, true)
    expect(drawers()).toEqual([])
    await user.keyboard('o')
    expect(drawers()).toEqual(['open'])
  })

  it('says which drawer is loading while its chunk is not there yet, then shows it', async () => {
    let arrive: () => void = () => {}
    const chunk = new Promise<void>((resolve) => (arrive = resolve))
    const Real = REGISTRY.signers.component
    const Slow = lazy(() => chunk.then(() => ({ default: Real })))
    const user = userEvent.setup()
    render(
      <KeymapProvider>
        <Harness
          loaded
          onEscape={() => false}
          modal={false}
          waiting={false}
          registry={{ ...REGISTRY, signers: { ...REGISTRY.signers, label: 'The signers panel', component: Slow } }}
        />
      </KeymapProvider>,
    )
    await user.click(screen.getByRole('button', { name: 'Signers…' }))
    expect(screen.getByRole('status').textContent).toBe('Loading the signers panel…')
    await act(async () => arrive())
    expect(await screen.findByRole('region', { name: 'Signers' })).toBeTruthy()
    expect(screen.queryByRole('status')).toBeNull()
  })

  it('opens and closes each drawer by the key of its registry entry', async () => {
    const { user } = setup()
    await user.keyboard('n')
    await user.keyboard('s')
    expect(drawers()).toEqual(['sign', 'signers'])
    await user.keyboard('e')
    expect(drawers()).toEqual(['sign', 'signers', 'edit'])
    await user.keyboard('s')
    expect(drawers()).toEqual(['sign', 'edit'])
    await user.keyboard('{Control>}n{/Control}')
    expect(drawers()).toEqual(['sign', 'edit'])
  })

  it('takes no drawer key typed in a text field, under a modal, or (for a drawer that needs one) with no log', async () => {
    const { user } = setup(false)
    await user.type(screen.getByRole('textbox', { name: 'a field' }), 'snoat')
    expect(screen.getByRole('textbox', { name: 'a field' })).toHaveProperty('value', 'snoat')
    expect(drawers()).toEqual(['open'])
    screen.getByRole('button', { name: 'Sign…' }).focus()
    await user.keyboard('ei')
    expect(drawers()).toEqual(['open'])
    await user.keyboard('s')
    expect(drawers()).toEqual(['signers', 'open'])
    cleanup()
    const modal = setup(true, true)
    screen.getByRole('button', { name: 'in the modal' }).focus()
    await modal.user.keyboard('s')
    expect(drawers()).toEqual([])
  })

  it('lists every drawer key in the ? overlay, from the registry', async () => {
    const { user } = setup()
    await user.keyboard('?')
    const dialog = await screen.findByRole('dialog', { name: 'Keyboard' })
    const rows = [...dialog.querySelectorAll('dt')].map((dt) => [dt.textContent, dt.nextElementSibling?.textContent])
    for (const [d, spec] of Object.entries(REGISTRY)) {
      expect(rows, d).toContainEqual([spec.key, expect.stringContaining(`${spec.title}: open or close`)])
    }
  })
})
