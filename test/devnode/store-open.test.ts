/**
 * A store opened while another process holds a lock on its new file: two nodes started at
 * once on one SQLite file. SQLite switches a file to WAL without its busy handler, so the
 * second opener met SQLITE_BUSY ("database is locked") and the node exited before it
 * listened; it waits for the lock instead, as for any other write.
 */
import { spawn } from 'node:child_process'
import { createRequire } from 'node:module'
import { afterAll, describe, expect, it } from 'vitest'
import { Store } from '../../src/devnode/store'
import { tempDir } from './harness'

const tmp = tempDir()
afterAll(() => tmp.remove())

const sqlite = createRequire(import.meta.url).resolve('better-sqlite3')

/**
 * A process that holds the write lock of `path` (a new file, rollback journal, a row written
 * in an open transaction: a lock SQLite's switch to WAL does not wait for) for `ms` from when
 * it says so. It lets go by itself: opening the store blocks this process.
 */
function holdWriteLock(path: string, ms: number) {
  const child = spawn(
    process.execPath,
    [
      '-e',
      `const db = new (require(${JSON.stringify(sqlite)}))(${JSON.stringify(path)})
       db.exec('CREATE TABLE t (x)')
       db.exec('BEGIN IMMEDIATE')
       db.exec('INSERT INTO t VALUES (1)')
       process.stdout.write('locked\\n')
       setTimeout(() => { db.exec('COMMIT'); db.close() }, ${ms})`,
    ],
    { stdio: ['ignore', 'pipe', 'inherit'] },
  )
  const exited = new Promise<number | null>((resolve) => child.once('exit', resolve))
  const locked = new Promise<void>((resolve, reject) => {
    child.stdout.on('data', (d: Buffer) => d.toString().includes('locked') && resolve())
    void exited.then((code) => reject(new Error(`the lock holder exited (${code}) before it held the lock`)))
  })
  return { locked, exited, kill: () => child.kill() }
}

describe('Store on a file another process holds a lock on', () => {
  it('waits for the lock to switch the file to WAL, and opens', async () => {
    const path = tmp.path('held.db')
    const holder = holdWriteLock(path, 500)
    try {
      await holder.locked
      const store = new Store(path)
      expect(store.updateCount()).toBe(0n)
      store.close()
      expect(await holder.exited).toBe(0)
    } finally {
      holder.kill()
    }
  })
})
