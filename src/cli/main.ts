/**
 * The command line of ../shared/contracts/cli.md: `npm run --silent cli -- <subcommand>`.
 * Exit status 0 when the command ran (whatever the verdicts), 1 when an input could
 * not be read or parsed as a log, 2 for a usage error. Errors: one line on stderr.
 */
import { commandNamed, COMMANDS } from './commands'
import { guardOutput, InputError, takeInputFlags, UsageError } from './io'
import { escapeLine } from './terminal'
import { commandHelp, type Io, overviewHelp, parseCommand, wantsHelp } from './usage'

/** Runs one command line; returns the exit status. */
export async function run(argv: string[], io: Io): Promise<number> {
  const [cmd, ...rest] = argv
  try {
    if (cmd === undefined || cmd === '--help' || cmd === '-h') {
      ;(cmd === undefined ? io.err : io.out)(overviewHelp(COMMANDS))
      return cmd === undefined ? 2 : 0
    }
    if (cmd === 'help') {
      if (rest.length === 0) {
        io.out(overviewHelp(COMMANDS))
        return 0
      }
      const c = commandNamed(rest[0]!)
      if (!c || rest.length > 1) {
        throw new UsageError(c ? 'help takes one subcommand' : `help: unknown subcommand ${JSON.stringify(rest[0])}`)
      }
      io.out(commandHelp(c))
      return 0
    }
    const c = commandNamed(cmd)
    if (!c) throw new UsageError(`unknown subcommand ${JSON.stringify(cmd)}`)
    if (wantsHelp(rest)) {
      io.out(commandHelp(c))
      return 0
    }
    const args = takeInputFlags(rest)
    await c.run({ ...parseCommand(c, args), argv: args }, io)
    return 0
  } catch (e) {
    if (e instanceof UsageError) {
      const help = cmd && commandNamed(cmd) ? `${cmd} --help` : '--help'
      io.err(`error: ${escapeLine(e.message)} (usage: npm run --silent cli -- ${help})\n`)
      return 2
    }
    if (e instanceof InputError) {
      io.err(`error: ${escapeLine(e.message)}\n`)
      return 1
    }
    io.err(`error: internal failure: ${escapeLine(e instanceof Error ? e.message : String(e))}\n`)
    return 1
  }
}

/**
 * The command line as a process, for both entry points (./bin.ts in the bundle that
 * `npm run cli` runs, and this file under tsx): output errors guarded (issue #14, finding
 * 6: `| head` is a quiet success), `tty` from standard output (finding 5: a signature
 * text is escaped only on a terminal), and the exit status set.
 */
export async function runProcess(): Promise<void> {
  guardOutput(process.stdout, process.stderr, (s) => process.exit(s))
  process.exitCode = await run(process.argv.slice(2), {
    out: (s) => process.stdout.write(s),
    err: (s) => process.stderr.write(s),
    tty: process.stdout.isTTY === true,
  })
  // Every command has finished its work here; once both streams have written what they
  // hold, exit instead of letting Node drain V8's leftover background work (concurrent
  // compiles, incremental marking), which kept a finished replay alive about 12 ms more
  // (issue #13; a write's callback runs once everything before it is written).
  await Promise.all([flushed(process.stdout), flushed(process.stderr)])
  process.exit()
}

function flushed(stream: NodeJS.WritableStream): Promise<void> {
  return new Promise((resolve) => {
    try {
      stream.write('', () => resolve())
    } catch {
      resolve() // a closed stream holds nothing more
    }
  })
}

const isMain = process.argv[1] !== undefined && /src[\\/]cli[\\/]main\.ts$/.test(process.argv[1])
if (isMain) void runProcess()
