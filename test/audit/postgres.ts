/**
 * A throwaway PostgreSQL for the audit tests: PostgreSQL 15 from /usr/lib/postgresql/15/bin,
 * a cluster in a temporary directory (owned by the `postgres` user, since initdb refuses
 * root), listening on 127.0.0.1 on a port the test picks, stopped after. When the binaries
 * are missing, `pgMissing` says so in one line and the tests skip.
 */
import { type ChildProcess, spawn, spawnSync } from 'node:child_process'
import { chownSync, existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir, userInfo } from 'node:os'
import { join } from 'node:path'
import { freePort } from '../devnode/harness'

const BIN = '/usr/lib/postgresql/15/bin'

/** Why PostgreSQL cannot run here, or null. */
export function pgMissing(): string | null {
  if (!existsSync(join(BIN, 'initdb')) || !existsSync(join(BIN, 'postgres')))
    return `PostgreSQL 15 binaries are missing (${BIN}): apt-get install postgresql`
  if (userInfo().uid === 0 && spawnSync('id', ['postgres']).status !== 0)
    return 'running as root and there is no postgres user to run initdb as'
  return null
}

export interface TempPg {
  readonly url: string
  stop(): Promise<void>
}

/** Runs a command as the postgres user when this process is root (initdb refuses root). */
function asPg(cmd: string, args: string[]): [string, string[]] {
  return userInfo().uid === 0 ? ['runuser', ['-u', 'postgres', '--', cmd, ...args]] : [cmd, args]
}

function postmasterPid(data: string): number | null {
  try {
    const pid = Number(readFileSync(join(data, 'postmaster.pid'), 'utf8').split('\n')[0])
    return Number.isInteger(pid) && pid > 0 ? pid : null
  } catch {
    return null
  }
}

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0)
    return true
  } catch {
    return false
  }
}

function signal(pid: number, sig: NodeJS.Signals): void {
  try {
    process.kill(pid, sig)
  } catch {
    // already gone
  }
}

export async function startPg(): Promise<TempPg> {
  const dir = mkdtempSync(join(tmpdir(), 'audit-pg-'))
  const root = userInfo().uid === 0
  if (root) {
    const ids = spawnSync('id', ['-u', 'postgres'], { encoding: 'utf8' })
    const gid = spawnSync('id', ['-g', 'postgres'], { encoding: 'utf8' })
    chownSync(dir, Number(ids.stdout.trim()), Number(gid.stdout.trim()))
  }
  const data = join(dir, 'data')
  const [c, a] = asPg(join(BIN, 'initdb'), ['-D', data, '-U', 'postgres', '--auth=trust', '-E', 'UTF8', '--no-sync'])
  const init = spawnSync(c, a, { encoding: 'utf8' })
  if (init.status !== 0) throw new Error(`initdb failed: ${init.stderr}`)
  const port = await freePort()
  const [pc, pa] = asPg(join(BIN, 'postgres'), [
    '-D',
    data,
    '-p',
    String(port),
    '-h',
    '127.0.0.1',
    '-k',
    dir,
    '-c',
    'fsync=off',
    '-c',
    'max_connections=60',
  ])
  const proc: ChildProcess = spawn(pc, pa, { stdio: ['ignore', 'ignore', 'pipe'] })
  let err = ''
  proc.stderr!.setEncoding('utf8').on('data', (d: string) => (err += d))
  const exited = new Promise<void>((resolve) => proc.on('exit', () => resolve()))
  await new Promise<void>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`PostgreSQL did not start: ${err}`)), 60_000)
    const check = () => {
      if (/ready to accept connections/.test(err)) {
        clearTimeout(timer)
        resolve()
      }
    }
    proc.stderr!.on('data', check)
    void exited.then(() => {
      clearTimeout(timer)
      reject(new Error(`PostgreSQL exited: ${err}`))
    })
  })
  return {
    url: `postgres://postgres@127.0.0.1:${port}/postgres`,
    async stop() {
      // The postmaster itself (runuser does not pass every signal on): SIGINT is a fast shutdown.
      const pid = postmasterPid(data)
      if (pid !== null) signal(pid, 'SIGINT')
      if (proc.exitCode === null && proc.signalCode === null) proc.kill('SIGINT')
      const deadline = Date.now() + 15_000
      while (pid !== null && alive(pid) && Date.now() < deadline) await new Promise((r) => setTimeout(r, 100))
      if (pid !== null && alive(pid)) signal(pid, 'SIGKILL')
      await Promise.race([exited, new Promise((r) => setTimeout(r, 5000))])
      rmSync(dir, { recursive: true, force: true })
    },
  }
}
