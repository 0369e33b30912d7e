import { describe, expect, it } from 'vitest'
import { appUrl, viteArgs } from '../../scripts/lib/app-url.mjs'

describe('npm start prints and opens the app on localhost (issue #12: passkeys refuse 127.0.0.1)', () => {
  it('rewrites the loopback address Vite reports to localhost', () => {
    expect(appUrl('http://127.0.0.1:5173/')).toBe('http://localhost:5173/')
    expect(appUrl('http://[::1]:5174/')).toBe('http://localhost:5174/')
    expect(appUrl('http://localhost:5173/')).toBe('http://localhost:5173/')
  })
  it('binds 127.0.0.1 on a fixed port and opens localhost', () => {
    expect(viteArgs(5180, true)).toEqual([
      '--host',
      '127.0.0.1',
      '--port',
      '5180',
      '--strictPort',
      '--open',
      'http://localhost:5180/',
    ])
    expect(viteArgs(5180, false)).not.toContain('--open')
  })
})
