/** The error `fn` throws, checked to be a `type` (`what` names the case in the failure). */
import { expect } from 'vitest'

export function thrownBy<E extends Error>(
  fn: () => unknown,
  type: abstract new (...args: never[]) => E,
  what?: string,
): E {
  try {
    fn()
  } catch (e) {
    expect(e, what).toBeInstanceOf(type)
    return e as E
  }
  return expect.fail(`${what ?? 'the call'}: expected a ${type.name}, nothing was thrown`)
}
