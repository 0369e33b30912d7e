/**
 * The entry point of the command line's bundle (scripts/build-cli.mjs → dist-cli/cli.mjs,
 * started by scripts/cli.mjs, which `npm run cli` runs): runs ./main.ts's `run` on
 * process.argv and sets the exit status.
 */
import { run } from './main'

process.exitCode = await run(process.argv.slice(2), {
  out: (s) => process.stdout.write(s),
  err: (s) => process.stderr.write(s),
})
