// @vitest-environment happy-dom
import { act, cleanup, fireEvent, render, screen, waitFor } from '@testing-library/react'
import { afterEach, describe, expect, it, vi } from 'vitest'
import type { FollowEvent } from '../../../../network/follow'
import type { InspectRequest } from '../../../model/inspect-request'
import type { Loaded } from '../../../trace/useInspector'
import { FollowBar } from './FollowBar'

/** The follower, driven by the test: each `push` is an event the app receives. */
const feed = vi.hoisted(() => {
  let push: ((e: unknown) => void) | null = null
  return {
    push: (e: unknown) => push?.(e),
    async *follow(o: { signal: AbortSignal }) {
      const queue: unknown[] = []
      let wake: (() => void) | null = null
      push = (e) => {
        queue.push(e)
        wake?.()
      }
      while (!o.signal.aborted) {
        while (queue.length) yield queue.shift()
        await new Promise<void>((r) => {
          wake = r
          o.signal.addEventListener('abort', () => r())
        })
      }
    },
  }
})
vi.mock('../../../../network/follow', () => ({ followInbox: feed.follow, digestOf: () => 'd' }))

const INBOX = 'ab'.repeat(32)
const step = (n: bigint) => ({ sequenceId: n, bytes: new Uint8Array([Number(n)]), status: 'applied', rule: null })
const loadedWith = (n: number): Loaded =>
  ({
    loadId: n,
    source: {
      kind: 'node',
      label: 'node log',
      name: 'n',
      input: '{}',
      fetch: `?node=http%3A%2F%2F127.0.0.1%3A9&inbox=${INBOX}`,
      verifier: 'none',
    },
    inboxId: INBOX,
    model: { steps: Array.from({ length: n }, (_, i) => step(BigInt(i + 1))) },
    rows: Array.from({ length: n }, (_, k) => ({ k, i: 0 })),
  }) as unknown as Loaded

const update = (n: bigint): FollowEvent => ({
  type: 'update',
  inboxId: INBOX,
  sequenceId: n,
  serverTimestampNs: 0n,
  bytes: new Uint8Array([Number(n)]),
  digest: 'd',
})

afterEach(cleanup)

describe('FollowBar', () => {
  it('announces the state, opens the grown log at the new head from the head, and counts below it', async () => {
    const onOpen = vi.fn<(r: InspectRequest) => void>()
    const props = { busy: false, presenting: false, on: true, onFollow: () => {}, onOpen, onSelect: () => {} }
    const { rerender } = render(<FollowBar {...props} loaded={loadedWith(2)} selection={{ k: 1, i: 0 }} />)
    const state = screen.getByRole('status', { name: 'Follow state' })
    expect(state.getAttribute('aria-live')).toBe('polite')
    act(() => feed.push({ type: 'state', state: 'live', mode: 'poll' }))
    await waitFor(() => expect(state.textContent).toContain('live'))
    act(() => feed.push(update(3n)))
    await waitFor(() => expect(onOpen).toHaveBeenCalledTimes(1))
    const first = onOpen.mock.calls[0]![0]
    expect(first.step).toEqual({ sequenceId: 3n, action: 0 })
    expect(JSON.parse(first.input as string).updates.map((u: { sequence_id: string }) => u.sequence_id)).toEqual([
      '1',
      '2',
      '3',
    ])

    // The user steps back to update 1: the next update keeps them there and is counted.
    rerender(<FollowBar {...props} loaded={loadedWith(3)} selection={{ k: 0, i: 0 }} />)
    act(() => feed.push(update(4n)))
    await waitFor(() => expect(onOpen).toHaveBeenCalledTimes(2))
    expect(onOpen.mock.calls[1]![0].step).toEqual({ sequenceId: 1n, action: 0 })
    rerender(<FollowBar {...props} loaded={loadedWith(4)} selection={{ k: 0, i: 0 }} />)
    expect(await screen.findByText('1 new update')).toBeTruthy()

    act(() => feed.push({ type: 'state', state: 'reconnecting', detail: 'fetch failed', retryInMs: 250 }))
    await waitFor(() => expect(state.textContent).toContain('reconnecting'))
    act(() =>
      feed.push({
        type: 'fork',
        inboxId: INBOX,
        sequenceId: 2n,
        reason: 'gone',
        printedDigest: 'aa',
        servedDigest: null,
      }),
    )
    expect((await screen.findByRole('list', { name: 'Forks and withheld updates' })).textContent).toContain('withheld')
  })

  it('turns off through the view state', () => {
    const onFollow = vi.fn()
    render(
      <FollowBar
        busy={false}
        presenting={false}
        on={false}
        onFollow={onFollow}
        onOpen={() => {}}
        onSelect={() => {}}
        loaded={loadedWith(1)}
        selection={null}
      />,
    )
    expect(screen.getByRole('status', { name: 'Follow state' }).textContent).toContain('off')
    fireEvent.click(screen.getByRole('switch', { name: 'Follow' }))
    expect(onFollow).toHaveBeenCalledWith(true)
  })
})
