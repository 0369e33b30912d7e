/** The anvil helper itself: the PID held is anvil's, stop is idempotent, a failed start says why. */
import { existsSync, readFileSync } from 'node:fs'
import { describe, expect, it } from 'vitest'
import { startAnvil } from './anvil'

describe('startAnvil', () => {
  it('spawns anvil itself on 127.0.0.1 (its PID is anvil’s), answers eth_chainId, and stops idempotently', async () => {
    const node = await startAnvil({ chainId: 4242 })
    try {
      expect(node.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/)
      expect(node.chainId).toBe(4242)
      if (existsSync(`/proc/${node.pid}/comm`)) expect(readFileSync(`/proc/${node.pid}/comm`, 'utf8').trim()).toBe('anvil')
      expect(node.alive()).toBe(true)
    } finally {
      await node.stop()
    }
    expect(node.alive()).toBe(false)
    await node.stop() // already gone: no ESRCH
    expect(() => process.kill(node.pid, 0)).toThrow()
  })

  it('a start that fails reports anvil’s stderr', async () => {
    await expect(startAnvil({ args: ['--no-such-flag'] })).rejects.toThrow(/exited before it was ready[\s\S]*stderr[\s\S]*no-such-flag/)
  })
})
