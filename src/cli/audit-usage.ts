/**
 * The usage of `audit` and `audit-worker` as one self-contained object (name, synopsis,
 * flags with descriptions), for the command line's help (src/cli/main.ts).
 */
export interface CommandUsage {
  readonly name: string
  readonly synopsis: readonly string[]
  readonly summary: string
  readonly flags: readonly { readonly flag: string; readonly description: string }[]
}

export const AUDIT_USAGE: CommandUsage = {
  name: 'audit',
  synopsis: [
    'audit --json [--db <file> | --store postgres://…] [--jobs N] [--chain eip155:<id>=<rpc-url>]... (FILE|DIR)...',
    'audit --json [--db <file> | --store postgres://…] [--jobs N] [--chain …]... --node <url> [--api identity|d14n]',
    '      [--transport gateway|grpc|grpc-web|connect] [--inboxes <file>] [--follow] [--against <report>]',
  ],
  summary:
    'Judges every inbox of files, directories (recursively) or a node, one JSON line per inbox and a summary last; progress on stderr.',
  flags: [
    { flag: '--json', description: 'JSON Lines on standard output (required)' },
    {
      flag: '--db <file>',
      description: 'keep results in SQLite: a killed run resumes, a later run checks only new updates',
    },
    { flag: '--store postgres://…', description: 'jobs and results in PostgreSQL; audit-worker processes do the work' },
    { flag: '--jobs N', description: 'worker threads (default: the machine’s cores)' },
    { flag: '--chain eip155:<id>=<rpc-url>', description: 'a chain route for smart contract wallet signatures' },
    { flag: '--node <url>', description: 'audit every inbox the node holds' },
    {
      flag: '--api identity|d14n',
      description:
        'd14n lists every inbox itself; identity needs --inboxes (default: identity with --inboxes, else d14n)',
    },
    { flag: '--transport …', description: 'gateway (identity only), grpc, grpc-web or connect' },
    { flag: '--inboxes <file>', description: 'the inbox ids to audit, one a line (the identity API cannot list them)' },
    { flag: '--follow', description: '(d14n) keep auditing as new updates arrive, until SIGINT or SIGTERM' },
    {
      flag: '--against <report>',
      description: 'mark each inbox whose verdict, head state or log changed since that report',
    },
    {
      flag: '--job-timeout <seconds>',
      description: '(PostgreSQL) a job running longer is taken as lost and retried (default 300)',
    },
  ],
}

export const AUDIT_WORKER_USAGE: CommandUsage = {
  name: 'audit-worker',
  synopsis: ['audit-worker --store postgres://… [--jobs N] [--chain eip155:<id>=<rpc-url>]...'],
  summary:
    'Takes shard jobs of `audit --store` runs from PostgreSQL and writes their rows, until SIGINT or SIGTERM; run any number, on any machines.',
  flags: [
    { flag: '--store postgres://…', description: 'the PostgreSQL the coordinator uses (required)' },
    { flag: '--jobs N', description: 'worker threads, one job each (default: the machine’s cores)' },
    { flag: '--chain eip155:<id>=<rpc-url>', description: 'a chain route for smart contract wallet signatures' },
  ],
}

/** The usage's lines for the help text. */
export function usageLines(u: CommandUsage): string {
  return u.synopsis.map((l) => `  ${l}`).join('\n')
}
