import { describe, expect, it } from 'vitest'
import { followWanted, sameFetch, withFollow } from './follow-param'

describe('followWanted and withFollow', () => {
  it('follows by default, records the switch as follow=1 or follow=0', () => {
    expect(followWanted('?node=http://x&inbox=1')).toBe(true)
    expect(followWanted('?node=http://x&inbox=1&follow=0')).toBe(false)
    const on = withFollow('?node=http%3A%2F%2Fx&inbox=1', true)
    expect(new URLSearchParams(on).get('follow')).toBe('1')
    expect(new URLSearchParams(withFollow(on, false)).get('follow')).toBe('0')
    expect(new URLSearchParams(withFollow(on, false)).get('node')).toBe('http://x')
  })
})

describe('sameFetch', () => {
  it('compares fetch addresses whatever their follow switch says', () => {
    expect(sameFetch('?node=a&inbox=1', '?node=a&inbox=1&follow=1')).toBe(true)
    expect(sameFetch('?node=a&inbox=1', '?node=a&inbox=2')).toBe(false)
    expect(sameFetch(undefined, '?node=a')).toBe(false)
  })
})
