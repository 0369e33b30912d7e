/**
 * Subcommands as data: each is one object (name, synopsis, flags with their descriptions,
 * details, and the function that runs it), so the flag parser and the help read the same
 * table and cannot drift. The dispatcher (./main.ts) parses a command line with the
 * command's own flags (node:util parseArgs, strict) before running it; `--help`, `-h` and
 * `help <subcommand>` print the same command's usage.
 */
import { parseArgs } from 'node:util'
import { UsageError } from './io'

export interface Flag {
  /** Without the dashes: `node` for `--node`. */
  readonly name: string
  readonly type: 'string' | 'boolean'
  /** May be given more than once (its value is a list). */
  readonly multiple?: boolean
  /** The value's placeholder in the usage, e.g. `<url>` or `identity|d14n`. */
  readonly value?: string
  readonly description: string
}

type ValueOf<F extends Flag> = F['type'] extends 'boolean' ? boolean : F['multiple'] extends true ? string[] : string

/** The parsed flags of a command, typed from its table. */
type FlagValues<F extends readonly Flag[]> = { [K in F[number] as K['name']]?: ValueOf<K> }

export interface Parsed<F extends readonly Flag[]> {
  readonly values: FlagValues<F>
  readonly positionals: string[]
}

export interface Io {
  out(s: string | Uint8Array): void
  err(s: string): void
  /** Standard output is a terminal. */
  readonly tty?: boolean
  /** Ends a long-running command (watch) as SIGINT would; the process wires SIGINT/SIGTERM itself. */
  readonly signal?: AbortSignal
}

export interface Command<F extends readonly Flag[] = readonly Flag[]> {
  readonly name: string
  /** One line: what it does. */
  readonly summary: string
  /** The usage lines after the program name, e.g. `replay [--json] … FILE...`. */
  readonly synopsis: readonly string[]
  readonly flags: F
  /** More text for `--help`: operations, formats, exit statuses. */
  readonly details?: string
  /** Runs the command with its parsed flags (and the raw arguments, for a command that reads them itself). */
  run(args: Parsed<F> & { readonly argv: readonly string[] }, io: Io): void | Promise<void>
}

/** A command object with its flags' types inferred from its table. */
export function command<const F extends readonly Flag[]>(c: Command<F>): Command {
  return c as unknown as Command
}

/** The flag every subcommand takes (./io.ts takeInputFlags reads it before the command's own). */
const COMMON_FLAGS: readonly Flag[] = [
  {
    name: 'max-input',
    type: 'string',
    value: '<size>',
    description: 'the bound on one input file (default 256M; K, M or G suffixes)',
  },
]

const HELP_FLAG: Flag = { name: 'help', type: 'boolean', description: 'this text (also -h, and help <subcommand>)' }

/** Parses a command's arguments with its table. @throws UsageError naming the command */
export function parseCommand(c: Command, argv: readonly string[]): Parsed<readonly Flag[]> {
  const options: Record<string, { type: 'string' | 'boolean'; multiple?: boolean }> = {}
  for (const f of c.flags) options[f.name] = f.multiple ? { type: f.type, multiple: true } : { type: f.type }
  try {
    const { values, positionals } = parseArgs({ args: [...argv], options, allowPositionals: true, strict: true })
    return { values: values as FlagValues<readonly Flag[]>, positionals }
  } catch (e) {
    throw new UsageError(`${c.name}: ${(e as Error).message}`)
  }
}

/** True when the arguments ask for help (`--help` or `-h` before any `--`). */
export function wantsHelp(argv: readonly string[]): boolean {
  for (const a of argv) {
    if (a === '--') return false
    if (a === '--help' || a === '-h') return true
  }
  return false
}

const PROGRAM = 'inbox-inspector'
const ALSO = 'npm run --silent cli --'

function flagLabel(f: Flag): string {
  return `--${f.name}${f.type === 'string' ? ` ${f.value ?? '<value>'}` : ''}${f.multiple ? ' (repeatable)' : ''}`
}

function flagLines(flags: readonly Flag[]): string[] {
  const width = Math.min(34, Math.max(...flags.map((f) => flagLabel(f).length)) + 2)
  return flags.map((f) => {
    const label = flagLabel(f)
    return label.length + 2 > width
      ? `  ${label}\n  ${' '.repeat(width)}${f.description}`
      : `  ${label.padEnd(width)}${f.description}`
  })
}

/** `<command> --help`: the synopsis, every flag with its description, and the details. */
export function commandHelp(c: Command): string {
  // A synopsis line that starts with spaces continues the one before it.
  const prefix = (s: string, first: boolean) =>
    /^\s/.test(s) ? `${' '.repeat(7 + PROGRAM.length)}${s}` : `${first ? 'usage: ' : '       '}${PROGRAM} ${s}`
  const lines = [...c.synopsis.map((s, i) => prefix(s, i === 0)), `  (or: ${ALSO} ${c.name} …)`, '', c.summary]
  if (c.flags.length) lines.push('', 'flags:', ...flagLines(c.flags))
  lines.push('', 'every subcommand also takes:', ...flagLines([...COMMON_FLAGS, HELP_FLAG]))
  if (c.details) lines.push('', c.details.trimEnd())
  return `${lines.join('\n')}\n`
}

/** The overview: every command's synopsis and summary. */
export function overviewHelp(commands: readonly Command[]): string {
  const lines = [`usage: ${PROGRAM} <subcommand> [flags] [files]     (or: ${ALSO} <subcommand> …)`, '']
  for (const c of commands) {
    lines.push(...c.synopsis.map((s) => `  ${s}`), `      ${c.summary}`)
  }
  lines.push(
    '',
    `${PROGRAM} help <subcommand> (or <subcommand> --help) prints its flags and details.`,
    '',
    'Log files are auto-detected: a log bundle JSON, a GetIdentityUpdatesResponse (binary',
    'protobuf or proto3 JSON), a single update as hex, base64 or binary, or an xmtpd CSV.',
    'Exit status: 0 when the command ran (whatever the verdicts), 1 when an input could not be',
    'read or a node could not be reached, 2 for a usage error.',
  )
  return `${lines.join('\n')}\n`
}
