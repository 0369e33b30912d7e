// @vitest-environment happy-dom
import { act, cleanup, renderHook, waitFor } from '@testing-library/react'
import { afterEach, describe, expect, it } from 'vitest'
import { useSettled } from './useSettled'

afterEach(cleanup)

function deferred<T>() {
  let resolve!: (v: T) => void
  let reject!: (e: unknown) => void
  const promise = new Promise<T>((res, rej) => {
    resolve = res
    reject = rej
  })
  return { promise, resolve, reject }
}

describe('useSettled', () => {
  it('null while pending, then the value; a new promise is pending again, a replaced one ignored', async () => {
    const a = deferred<string>()
    const b = deferred<string>()
    const { result, rerender } = renderHook(({ p }) => useSettled(p), { initialProps: { p: a.promise } })
    expect(result.current).toBeNull()
    await act(async () => a.resolve('a'))
    expect(result.current).toEqual({ ok: true, value: 'a' })
    rerender({ p: b.promise })
    expect(result.current).toBeNull()
    const c = deferred<string>()
    rerender({ p: c.promise })
    await act(async () => b.resolve('b (replaced)'))
    expect(result.current).toBeNull()
    await act(async () => c.resolve('c'))
    await waitFor(() => expect(result.current).toEqual({ ok: true, value: 'c' }))
  })

  it("a rejection gives its error's message; no promise is null", async () => {
    const a = deferred<number>()
    const { result, rerender } = renderHook(({ p }: { p: Promise<number> | null }) => useSettled(p), {
      initialProps: { p: a.promise as Promise<number> | null },
    })
    await act(async () => a.reject(new Error('the worker went away')))
    expect(result.current).toEqual({ ok: false, error: 'the worker went away' })
    rerender({ p: null })
    expect(result.current).toBeNull()
  })
})
