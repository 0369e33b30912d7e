/**
 * A keyed async mutex: `run(key, fn)` runs `fn` after every earlier `run` with the same
 * key has settled, and never two at once for one key. Keys are forgotten when idle.
 */
export class KeyedLock {
  private readonly tails = new Map<string, Promise<void>>()

  async run<T>(key: string, fn: () => Promise<T>): Promise<T> {
    const before = this.tails.get(key) ?? Promise.resolve()
    let release!: () => void
    const mine = new Promise<void>((r) => (release = r))
    const tail = before.then(() => mine)
    this.tails.set(key, tail)
    await before
    try {
      return await fn()
    } finally {
      release()
      if (this.tails.get(key) === tail) this.tails.delete(key)
    }
  }
}
