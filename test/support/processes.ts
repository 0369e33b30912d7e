/** Child processes a test started. */
import type { ChildProcess } from 'node:child_process'

/** SIGKILLs each child still running and resolves once every one has exited (afterAll; also after a failed test). */
export async function killAll(children: Iterable<ChildProcess>): Promise<void> {
  await Promise.all(
    [...children].map(
      (p) =>
        new Promise<void>((resolve) => {
          if (p.exitCode !== null || p.signalCode !== null) return resolve()
          p.once('exit', () => resolve())
          try {
            p.kill('SIGKILL')
          } catch {
            resolve()
          }
        }),
    ),
  )
}
