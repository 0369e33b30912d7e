/** The anvil helper itself: the PID held is anvil's, stop is idempotent, a failed start says why. */
import { existsSync, readFileSync } from 'node:fs'
import { describe, expect, it } from 'vitest'
import { AnvilError, freePort, portFree, startAnvil } from './anvil'

describe('startAnvil', () => {
  it('spawns anvil itself on 127.0.0.1 (its PID is anvil’s), answers eth_chainId, and stops idempotently', async () => {
    const node = await startAnvil({ chainId: 4242 })
    try {
      expect(node.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/)
      expect(node.chainId).toBe(4242)
      if (existsSync(`/proc/${node.pid}/comm`))
        expect(readFileSync(`/proc/${node.pid}/comm`, 'utf8').trim()).toBe('anvil')
      expect(node.alive()).toBe(true)
    } finally {
      await node.stop()
    }
    expect(node.alive()).toBe(false)
    await node.stop() // already gone: no ESRCH
    expect(() => process.kill(node.pid, 0)).toThrow()
  })

  it('a start that fails reports anvil’s stderr', async () => {
    await expect(startAnvil({ args: ['--no-such-flag'] })).rejects.toThrow(
      /exited before it was ready[\s\S]*stderr[\s\S]*no-such-flag/,
    )
  })

  it('binds a port the caller names; a second anvil on that port fails with AnvilError port_in_use, not on another port', async () => {
    const port = await freePort()
    expect(await portFree(port)).toBe(true)
    const node = await startAnvil({ port })
    try {
      expect(node.port).toBe(port)
      expect(await portFree(port)).toBe(false)
      const err = await startAnvil({ port }).catch((e: unknown) => e)
      expect(err).toBeInstanceOf(AnvilError)
      expect((err as AnvilError).code).toBe('port_in_use')
    } finally {
      await node.stop()
    }
    await node.exited
    expect(await portFree(port)).toBe(true)
  })
})
