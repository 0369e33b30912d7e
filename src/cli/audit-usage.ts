/**
 * `audit` and `audit-worker` as two objects of the command registry (./commands.ts): their
 * synopsis, their flags with descriptions (the dispatcher parses with exactly these) and
 * details. The work loads on use: src/audit brings worker threads, SQLite and PostgreSQL.
 */
import { type Command, command, type Flag } from './usage'

const STORE_FLAGS = [
  {
    name: 'store',
    type: 'string',
    value: 'postgres://…',
    description: 'jobs and results in PostgreSQL; audit-worker processes do the work',
  },
  { name: 'jobs', type: 'string', value: 'N', description: 'worker threads (default: the machine’s cores)' },
  {
    name: 'chain',
    type: 'string',
    multiple: true,
    value: 'eip155:<id>=<rpc-url>',
    description: 'a chain route for smart contract wallet signatures (spec section 7)',
  },
] as const satisfies readonly Flag[]

export const AUDIT_COMMANDS: readonly Command[] = [
  command({
    name: 'audit',
    summary:
      'Judge every inbox of files, directories (recursively) or a node: one JSON line per inbox, a summary last; progress on stderr.',
    synopsis: [
      'audit --json [--db <file> | --store postgres://…] [--jobs N] [--chain eip155:<id>=<rpc-url>]... (FILE|DIR)...',
      'audit --json [--db <file> | --store postgres://…] [--jobs N] [--chain …]... --node <url> [--api identity|d14n]',
      '      [--transport gateway|grpc|grpc-web|connect] [--inboxes <file>] [--follow] [--against <report>]',
    ],
    flags: [
      { name: 'json', type: 'boolean', description: 'JSON Lines on standard output (required)' },
      {
        name: 'db',
        type: 'string',
        value: '<file>',
        description: 'keep results in SQLite: a killed run resumes, a later run checks only new updates',
      },
      ...STORE_FLAGS,
      { name: 'node', type: 'string', value: '<url>', description: 'audit every inbox the node holds' },
      {
        name: 'api',
        type: 'string',
        value: 'identity|d14n',
        description:
          'd14n lists every inbox itself; identity needs --inboxes (default: identity with --inboxes, else d14n)',
      },
      {
        name: 'transport',
        type: 'string',
        value: 'gateway|grpc|grpc-web|connect',
        description: 'how to speak to the node (gateway serves the identity API only)',
      },
      {
        name: 'inboxes',
        type: 'string',
        value: '<file>',
        description: 'the inbox ids to audit, one a line (the identity API cannot list them)',
      },
      {
        name: 'follow',
        type: 'boolean',
        description: '(d14n) keep auditing as new updates arrive, until SIGINT or SIGTERM',
      },
      {
        name: 'against',
        type: 'string',
        value: '<report>',
        description: 'mark each inbox whose verdict, head state or log changed since that report',
      },
      {
        name: 'page-size',
        type: 'string',
        value: 'N',
        description: '(d14n) envelopes asked per QueryEnvelopes page, 1 to 1000 (default 1000)',
      },
      {
        name: 'job-timeout',
        type: 'string',
        value: '<seconds>',
        description: '(PostgreSQL) a job running longer is taken as lost and retried (default 300)',
      },
    ],
    details:
      'Exit status: 0 when the audit ran, whatever the verdicts; 1 when no input could be read or the node or\nstore could not be reached; 2 for a usage error.',
    run: async ({ values, positionals }, io) => (await import('./audit')).cmdAudit(values, positionals, io),
  }),
  command({
    name: 'audit-worker',
    summary:
      'Take shard jobs of `audit --store` runs from PostgreSQL and write their rows, until SIGINT or SIGTERM; run any number, on any machines.',
    synopsis: ['audit-worker --store postgres://… [--jobs N] [--chain eip155:<id>=<rpc-url>]...'],
    flags: STORE_FLAGS,
    run: async ({ values, positionals }, io) => (await import('./audit')).cmdAuditWorker(values, positionals, io),
  }),
]
