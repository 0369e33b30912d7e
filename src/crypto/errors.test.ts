import { describe, expect, it } from 'vitest'
import { CryptoError, errorMessage } from './errors'

describe('CryptoError', () => {
  it('is an Error with a code, a name and a cause', () => {
    const cause = new Error('inner')
    const e = new CryptoError('bad-der', 'P-256 signature: not strict DER', { cause })
    expect(e).toBeInstanceOf(Error)
    expect(e).toBeInstanceOf(CryptoError)
    expect(e.code).toBe('bad-der')
    expect(e.name).toBe('CryptoError')
    expect(e.message).toBe('P-256 signature: not strict DER')
    expect(e.cause).toBe(cause)
  })
})

describe('errorMessage', () => {
  it('reads an Error message or stringifies anything else', () => {
    expect(errorMessage(new Error('x'))).toBe('x')
    expect(errorMessage('y')).toBe('y')
    expect(errorMessage(3)).toBe('3')
  })
})
