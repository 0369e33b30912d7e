import { describe, expect, it } from 'vitest'
import { sleep, systemClock, virtualClock, withTimeout } from './clock'
import { SignerError, toSignerError } from './errors'

describe('virtualClock', () => {
  it('advances only by what is slept, and not for cancelled timers', async () => {
    const c = virtualClock(1000)
    await sleep(c, 500)
    await sleep(c, 250)
    const t = c.timer(10_000)
    t.cancel()
    await t.done
    expect(c.now()).toBe(1750)
    expect(c.elapsed).toBe(750)
  })

  it('lets work that settles in microtasks win a race against a timer', async () => {
    const c = virtualClock()
    await expect(
      withTimeout(
        c,
        1,
        Promise.resolve().then(() => 'done'),
        () => new Error('timeout'),
      ),
    ).resolves.toBe('done')
  })
})

describe('withTimeout', () => {
  it('rejects with the timeout error when the work does not settle in time', async () => {
    await expect(
      withTimeout(systemClock, 5, new Promise(() => {}), () => new SignerError('timeout', 'late')),
    ).rejects.toMatchObject({ code: 'timeout' })
  })

  it('waits without limit when no time is given', async () => {
    await expect(withTimeout(systemClock, undefined, Promise.resolve(1), () => new Error('x'))).resolves.toBe(1)
  })
})

describe('toSignerError', () => {
  it('maps EIP-1193 and WebAuthn failures to codes', () => {
    expect(toSignerError({ code: 4001 }).code).toBe('user_rejected')
    expect(toSignerError(Object.assign(new Error('x'), { code: 4100 })).code).toBe('unauthorized')
    expect(toSignerError(Object.assign(new Error('x'), { name: 'NotAllowedError' })).code).toBe('user_rejected')
    expect(
      toSignerError(new Error('x', { cause: Object.assign(new Error('y'), { name: 'NotAllowedError' }) })).code,
    ).toBe('user_rejected')
    expect(toSignerError(new Error('boom'))).toMatchObject({ code: 'signer_error', message: 'boom' })
    const e = new SignerError('timeout', 't')
    expect(toSignerError(e)).toBe(e)
  })
})
