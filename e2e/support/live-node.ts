/**
 * A local node a spec starts, stops and restarts itself (the live views' specs: Follow
 * across a node restart, the node traffic panel): `npm run devnode`'s entry on a free
 * port of 127.0.0.1 with a SQLite file under tmp/, restarted on the same port and store.
 * Every spec that starts one stops it (afterAll).
 */
import { type ChildProcess, spawn } from 'node:child_process'
import { mkdirSync, rmSync } from 'node:fs'
import { createServer } from 'node:net'
import { createNodeClient } from '../../src/network/client'

async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const s = createServer()
    s.once('error', reject)
    s.listen(0, '127.0.0.1', () => {
      const a = s.address()
      s.close(() => (a && typeof a === 'object' ? resolve(a.port) : reject(new Error('no port'))))
    })
  })
}

export class LiveNode {
  private child: ChildProcess | null = null

  private constructor(
    readonly port: number,
    readonly db: string,
  ) {}

  get url(): string {
    return `http://127.0.0.1:${this.port}`
  }

  /** A node with a fresh store. */
  static async start(name: string): Promise<LiveNode> {
    const port = await freePort()
    mkdirSync('tmp', { recursive: true })
    const db = `tmp/e2e-${name}-${port}.db`
    for (const f of [db, `${db}-wal`, `${db}-shm`]) rmSync(f, { force: true })
    const n = new LiveNode(port, db)
    await n.up()
    return n
  }

  /** Starts the node process (again) on the same port and store; resolves when it listens. */
  async up(): Promise<void> {
    if (this.child) throw new Error('the node is already running')
    const child = spawn(
      process.execPath,
      ['--import', 'tsx', 'src/devnode/main.ts', '--port', String(this.port), '--db', this.db],
      { stdio: ['ignore', 'pipe', 'pipe'] },
    )
    this.child = child
    let err = ''
    child.stderr!.on('data', (d: Buffer) => {
      err = (err + d.toString()).slice(-4000)
    })
    await new Promise<void>((resolve, reject) => {
      let out = ''
      child.stdout!.on('data', (d: Buffer) => {
        out += d.toString()
        if (out.includes('listening on')) resolve()
      })
      child.once('exit', (code) => reject(new Error(`the node exited (${code}) before listening: ${err}`)))
    })
  }

  /** Stops the node (SIGTERM) and waits for it to exit. */
  async down(): Promise<void> {
    const c = this.child
    if (!c) return
    this.child = null
    if (c.exitCode !== null) return
    await new Promise<void>((resolve) => {
      c.once('exit', () => resolve())
      c.kill('SIGTERM')
    })
  }

  /** Publishes exact update bytes over the HTTP gateway; the receipt's sequence id. */
  async publish(bytes: Uint8Array): Promise<bigint> {
    const client = createNodeClient({ baseUrl: this.url, fetch: (i, init) => fetch(i, init) })
    return (await client.publishIdentityUpdate(bytes)).sequenceId
  }
}
