/**
 * The entry point of the command line's bundle (scripts/build-cli.mjs → dist-cli/cli.mjs,
 * started by scripts/cli.cjs, which `npm run cli` runs): the same process wrapper as
 * `tsx src/cli/main.ts` (./main.ts runProcess: guarded output, tty, exit status).
 */
import { runProcess } from './main'

void runProcess()
