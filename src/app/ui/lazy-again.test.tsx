// @vitest-environment happy-dom
import { cleanup, render, screen } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { type ComponentType, lazy, Suspense } from 'react'
import { afterEach, describe, expect, it, vi } from 'vitest'
import { ErrorBoundary } from './ErrorBoundary'
import { lazyAgain } from './lazy-again'
import { lazyView } from './lazy-view'

afterEach(cleanup)

const Hello = ({ name }: { name: string }) => <p>hello {name}</p>

/** A loader that fails its first `failures` calls, as a dropped network does, then loads. */
function flaky(failures: number) {
  const load = vi.fn(async (): Promise<ComponentType<{ name: string }>> => {
    if (load.mock.calls.length <= failures) throw new TypeError('Failed to fetch dynamically imported module: x.js')
    return Hello
  })
  return load
}

function show(View: ComponentType<{ name: string }>, resetKey?: string) {
  return (
    <ErrorBoundary label="The view" resetKey={resetKey}>
      <Suspense fallback={<p>loading</p>}>
        <View name="you" />
      </Suspense>
    </ErrorBoundary>
  )
}

describe('lazyAgain', () => {
  // Silence the boundary's and React's logging of the expected failures.
  vi.spyOn(console, 'error').mockImplementation(() => {})

  it('shows a failed load once, without loading again on its own; Try again loads it anew', async () => {
    const load = flaky(1)
    const View = lazyAgain(load)
    render(show(View))
    expect(await screen.findByRole('alert')).toHaveProperty(
      'textContent',
      expect.stringContaining('Failed to fetch dynamically imported module'),
    )
    // The failure is shown, not retried behind the user's back.
    await new Promise((r) => setTimeout(r, 20))
    expect(load).toHaveBeenCalledTimes(1)
    await userEvent.click(screen.getByRole('button', { name: 'Try again' }))
    expect(await screen.findByText('hello you')).toBeTruthy()
    expect(load).toHaveBeenCalledTimes(2)
  })

  it('loads again after each Try again while the load keeps failing, once per try', async () => {
    const load = flaky(2)
    const View = lazyAgain(load)
    render(show(View))
    await userEvent.click(await screen.findByRole('button', { name: 'Try again' }))
    await userEvent.click(await screen.findByRole('button', { name: 'Try again' }))
    expect(await screen.findByText('hello you')).toBeTruthy()
    expect(load).toHaveBeenCalledTimes(3)
  })

  it("loads again when the boundary's reset key changes", async () => {
    const load = flaky(1)
    const View = lazyAgain(load)
    const { rerender } = render(show(View, 'step 1'))
    await screen.findByRole('alert')
    rerender(show(View, 'step 2'))
    expect(await screen.findByText('hello you')).toBeTruthy()
    expect(load).toHaveBeenCalledTimes(2)
  })

  it('loads again when its view is mounted anew after a failure (a drawer closed and opened again)', async () => {
    const load = flaky(1)
    const View = lazyAgain(load)
    const { rerender } = render(<div>{show(View)}</div>)
    await screen.findByRole('alert')
    rerender(<div />)
    rerender(<div>{show(View)}</div>)
    expect(await screen.findByText('hello you')).toBeTruthy()
    expect(load).toHaveBeenCalledTimes(2)
  })

  it('keeps a loaded view: a new mount renders it with no new load', async () => {
    const load = flaky(0)
    const View = lazyAgain(load)
    const { rerender } = render(<div>{show(View)}</div>)
    await screen.findByText('hello you')
    rerender(<div />)
    rerender(<div>{show(View)}</div>)
    // Rendered at once: no fallback, not even for a render.
    expect(screen.getByText('hello you')).toBeTruthy()
    expect(screen.queryByText('loading')).toBeNull()
    expect(load).toHaveBeenCalledTimes(1)
  })

  it('is what plain React.lazy is not: its Try again re-renders the same failure and sends no request', async () => {
    // The reason for lazyAgain, kept as a check: should React ever retry a rejected lazy
    // load itself, this test fails and lazyAgain can go.
    const load = flaky(1)
    const Plain = lazy(() => load().then((c) => ({ default: c })))
    render(show(Plain))
    await userEvent.click(await screen.findByRole('button', { name: 'Try again' }))
    expect(await screen.findByRole('alert')).toBeTruthy()
    expect(load).toHaveBeenCalledTimes(1)
  })
})

describe('lazyView', () => {
  vi.spyOn(console, 'error').mockImplementation(() => {})

  it('loads its chunk anew after a failed load, on Try again', async () => {
    const load = flaky(1)
    const { View } = lazyView(load, (c) => c)
    render(show(View))
    await userEvent.click(await screen.findByRole('button', { name: 'Try again' }))
    expect(await screen.findByText('hello you')).toBeTruthy()
    expect(load).toHaveBeenCalledTimes(2)
  })
})
