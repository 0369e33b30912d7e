/**
 * The node arguments that run the local node from a checkout: `node --import tsx
 * src/devnode/main.ts --port <port> --db <file> ...` (one process, not the tsx CLI, which
 * forks a child that a SIGKILL would orphan). Shared by `npm start` and the devnode tests.
 */

/** `process.execPath`'s arguments for the local node on `port` with its store in `db`, then `extra`. */
export function devnodeArgs(port, db, extra = []) {
  return ['--import', 'tsx', 'src/devnode/main.ts', '--port', String(port), '--db', db, ...extra]
}
