/**
 * How tests start the command line as a process: the one place that names the command, so
 * every test runs what `npm run cli` runs (scripts/cli.mjs: the esbuild bundle built by
 * `npm ci`'s `prepare`, rebuilt first when a source file is newer than it).
 *
 *   spawn(CLI.command, [...CLI.args, 'replay', '--json', file], { cwd: CLI.cwd })
 */
import { dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..', '..')

export const CLI: { readonly command: string; readonly args: readonly string[]; readonly cwd: string } = {
  command: process.execPath,
  args: [join(ROOT, 'scripts', 'cli.mjs')],
  cwd: ROOT,
}

/** The argument vector for `CLI.command`: the launcher, then `argv`. */
export function cliArgs(...argv: string[]): string[] {
  return [...CLI.args, ...argv]
}
