import { describe, expect, it } from 'vitest'
import { checksumAddress } from './address'

describe('checksumAddress', () => {
  it('matches the EIP-55 examples', () => {
    for (const a of [
      '0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed',
      '0xfB6916095ca1df60bB79Ce92cE3Ea74c37c5d359',
      '0xdbF03B407c01E7cD3CBea99509d93f8DDDC8C6FB',
      '0xD1220A0cf47c7B9Be7A2E6BA89F429762e7b9aDb',
    ]) {
      expect(checksumAddress(a.toLowerCase())).toBe(a)
      expect(checksumAddress(a.toUpperCase().replace('0X', '0x'))).toBe(a)
    }
  })

  it('refuses text that is not 0x + 40 hex', () => {
    expect(() => checksumAddress('0x1234')).toThrow()
  })
})
