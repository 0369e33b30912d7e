/**
 * Every subcommand of the command line, one object each (./usage.ts): its synopsis, its
 * flags with their descriptions (the dispatcher parses with exactly these), its details,
 * and how it runs. `--help` and `help <subcommand>` print the same object. A command
 * whose code loads Connect-ES or viem (fetch, watch) imports it on use, so a start that
 * does not need them never loads them.
 *
 * Adding a subcommand is adding one object to COMMANDS.
 */
import { cmdCheckHandle, cmdHandles, cmdInboxId, cmdKey, cmdReplay, cmdResolve, cmdSignatureText } from './basic'
import { AUDIT_COMMANDS } from './audit-usage'
import { cmdEdit } from './edit'
import { type Command, command, type Flag } from './usage'

const JSON_FLAG = { name: 'json', type: 'boolean', description: 'print JSON (one object per line)' } as const
const CHAIN_FLAG = {
  name: 'chain',
  type: 'string',
  multiple: true,
  value: 'eip155:<id>=<rpc-url>',
  description: 'an RPC route for smart contract wallet signatures (spec section 7) on that chain',
} as const
const AT_FLAG = {
  name: 'at',
  type: 'string',
  value: '<seq>',
  description: 'use the state at this sequence id (IDENT-070)',
} as const

/** The flags `fetch` and `watch` share: where the node is, how to speak to it, which inbox. */
const NODE_FLAGS = [
  { name: 'node', type: 'string', value: '<url>', description: "the node's base URL (http:// or https://)" },
  {
    name: 'api',
    type: 'string',
    value: 'identity|d14n',
    description: 'identity: xmtp.identity.api.v1.IdentityApi (default); d14n: xmtp.xmtpv4.message_api.QueryApi (xmtpd)',
  },
  {
    name: 'transport',
    type: 'string',
    value: 'gateway|grpc|grpc-web|connect',
    description: 'default gateway for identity, connect for d14n (gateway serves the identity API only)',
  },
  { name: 'inbox', type: 'string', value: '<inbox-id>', description: 'the inbox id' },
  {
    name: 'address',
    type: 'string',
    value: '<0x…>',
    description: "an Ethereum address, resolved through the API's GetInboxIds",
  },
  { name: 'passkey', type: 'string', value: '<hex>', description: 'a passkey public key in hex, resolved likewise' },
  {
    name: 'handle',
    type: 'string',
    value: '<handle>',
    description: 'a handle, resolved likewise and used only when the log backs it (IDENT-085)',
  },
] as const satisfies readonly Flag[]

const TARGET_SYNOPSIS = '(--inbox <inbox-id> | --address <0x…> | --passkey <hex> | --handle <handle>)'

export const COMMANDS: readonly Command[] = [
  command({
    name: 'replay',
    summary: 'Replay each log under the spec and report every update (JSON Lines with --json, else a table).',
    synopsis: ['replay [--json] [--chain eip155:<id>=<rpc-url>]... [--at <seq>] FILE...'],
    flags: [
      { ...JSON_FLAG, description: 'one JSON report per log, the contract shape (without it: a table)' },
      CHAIN_FLAG,
      { ...AT_FLAG, description: 'report the state at this sequence id (IDENT-070)' },
    ],
    details: 'Updates apply in ascending sequence id (IDENT-004); a file may hold several inboxes (one report each).',
    run: ({ values, positionals }, io) => cmdReplay(values, positionals, io),
  }),
  command({
    name: 'signature-text',
    summary: 'Print the exact signature text of every update, each followed by a line `----`.',
    synopsis: ['signature-text FILE'],
    flags: [],
    run: ({ positionals }, io) => cmdSignatureText(positionals, io),
  }),
  command({
    name: 'inbox-id',
    summary: 'Print the inbox id derived from an identifier and a nonce (IDENT-010).',
    synopsis: ['inbox-id [--kind ethereum|passkey] <identifier> <nonce>'],
    flags: [
      {
        name: 'kind',
        type: 'string',
        value: 'ethereum|passkey',
        description: 'the identifier kind (default ethereum)',
      },
    ],
    run: ({ values, positionals }, io) => cmdInboxId(values, positionals, io),
  }),
  command({
    name: 'handles',
    summary: 'Print the current handle and the others, newest first, of the head state (IDENT-086).',
    synopsis: ['handles --json FILE'],
    flags: [JSON_FLAG],
    run: ({ values, positionals }, io) => cmdHandles(values, positionals, io),
  }),
  command({
    name: 'check-handle',
    summary: "Whether a lookup answer naming this log's inbox for a handle may be used (IDENT-085).",
    synopsis: ['check-handle --json --handle <entry> [--at <seq>] FILE'],
    flags: [
      JSON_FLAG,
      { name: 'handle', type: 'string', value: '<entry>', description: 'the handle entry looked up' },
      AT_FLAG,
    ],
    run: ({ values, positionals }, io) => cmdCheckHandle(values, positionals, io),
  }),
  command({
    name: 'resolve',
    summary: 'Resolve an identifier across logs (spec section 9): the newest live association wins.',
    synopsis: ['resolve --json [--kind ethereum|passkey|installation] <identifier> FILE...'],
    flags: [
      JSON_FLAG,
      {
        name: 'kind',
        type: 'string',
        value: 'ethereum|passkey|installation',
        description: 'the identifier kind (default ethereum)',
      },
    ],
    run: ({ values, positionals }, io) => cmdResolve(values, positionals, io),
  }),
  command({
    name: 'key',
    summary: 'Local Ethereum signing keys: the identifier of a key, and its export as hex or 32 raw bytes.',
    synopsis: ['key import <0x-hex | @path-to-32-byte-file>', 'key export --format hex|bytes <0x-hex | @path>'],
    flags: [
      {
        name: 'format',
        type: 'string',
        value: 'hex|bytes',
        description: 'export only: 0x + 64 hex digits, or exactly 32 raw bytes (IDENT-088)',
      },
    ],
    details:
      'Operations:\n  import   print the Ethereum identifier of the key (IDENT-089)\n  export   write the key as --format says',
    run: ({ values, positionals }, io) => cmdKey(values, positionals, io),
  }),
  command({
    name: 'fetch',
    summary: "Read one inbox's whole log from a node and write it as a log bundle (validating nothing: IDENT-071).",
    synopsis: [
      'fetch --node <url> [--api identity|d14n] [--transport gateway|grpc|grpc-web|connect]',
      `      ${TARGET_SYNOPSIS} [--out <file>]`,
      '      [--page-size N] [--max-pages N] [--timeout-ms N] [--chain eip155:<id>=<rpc-url>]...',
    ],
    flags: [
      ...NODE_FLAGS,
      { name: 'out', type: 'string', value: '<file>', description: 'write the bundle there (default standard output)' },
      {
        name: 'page-size',
        type: 'string',
        value: 'N',
        description: "d14n: each QueryEnvelopes page's limit (0: the node's)",
      },
      {
        name: 'max-pages',
        type: 'string',
        value: 'N',
        description: 'd14n: refuse a node still paging after N pages (default 1000)',
      },
      { name: 'timeout-ms', type: 'string', value: 'N', description: 'the limit of each call (default 60000)' },
      { ...CHAIN_FLAG, description: "routes for the --handle check's smart contract wallet signatures" },
    ],
    details:
      'Exit status: 0 when a bundle was written, 1 when the node could not be reached, refused, or\nanswered with something that is not a well-formed answer of the API, 2 for a usage error.',
    run: async ({ values, positionals }, io) => (await import('./fetch')).cmdFetch(values, positionals, io),
  }),
  command({
    name: 'watch',
    summary: "Follow one inbox's log on a node, live, judging each update in order as replay does.",
    synopsis: [
      'watch --node <url> [--api identity|d14n] [--transport gateway|grpc|grpc-web|connect]',
      `      ${TARGET_SYNOPSIS} [--json]`,
      '      [--chain eip155:<id>=<rpc-url>]... [--poll-ms N] [--timeout-ms N] [--connect-timeout-ms N]',
    ],
    flags: [
      ...NODE_FLAGS,
      {
        ...JSON_FLAG,
        description:
          'one JSON object per update (replay\'s row plus inbox_id and server_timestamp_ns) or fork ("event": "fork")',
      },
      CHAIN_FLAG,
      {
        name: 'poll-ms',
        type: 'string',
        value: 'N',
        description: 'the poll interval while idle without a stream (default 1000)',
      },
      {
        name: 'timeout-ms',
        type: 'string',
        value: 'N',
        description: 'the limit of each call; a silent stream is checked as often (default 10000)',
      },
      {
        name: 'connect-timeout-ms',
        type: 'string',
        value: 'N',
        description: 'give up (status 1) when the node cannot be reached for this long at the start (default 5000)',
      },
    ],
    details: `Prints every update the node holds, then each new one as the node serves it (d14n: the
ReplicationApi.SubscribeEnvelopes stream where the node offers it, else polling QueryEnvelopes;
identity: polling GetIdentityUpdates), once each, in ascending sequence id, across node
restarts and dropped connections (it reconnects with backoff and resumes after the last
sequence id printed). When the node contradicts what was printed (an update gone, different
bytes under a printed sequence id, or an update below the last printed one), it prints a fork
event with the sequence id and the SHA-256 of the printed and of the served bytes, and goes on.
Notices (connecting, reconnecting, resumed) go to standard error.
Exit status: 0 after SIGINT or SIGTERM, 1 when the node could never be reached or the inbox
cannot be resolved, 2 for a usage error.`,
    run: async ({ values, positionals }, io) => (await import('./watch')).cmdWatch(values, positionals, io),
  }),
  command({
    name: 'edit',
    summary: 'Apply a JSON patch to a log (what-if edits) and write the edited log as a bundle.',
    synopsis: ["edit (--patch <file> | --ops '<json>') [--inbox <id>] [--encoding hex|base64] [--out <file>] FILE"],
    flags: [
      {
        name: 'patch',
        type: 'string',
        value: '<file>',
        description: 'the patch: a JSON list of operations, in a file',
      },
      { name: 'ops', type: 'string', value: '<json>', description: 'the patch given inline' },
      {
        name: 'inbox',
        type: 'string',
        value: '<id>',
        description: 'the log to edit, in a file holding several inboxes',
      },
      {
        name: 'encoding',
        type: 'string',
        value: 'hex|base64',
        description: "the bundle's update encoding (default hex)",
      },
      { name: 'out', type: 'string', value: '<file>', description: 'write the bundle there (default standard output)' },
    ],
    details: `Operations (seq and to are sequence ids, decimal strings or numbers):
  {"op":"drop","seq":"3"}                                  remove the update
  {"op":"move","seq":"3","to":"9"}                         give it another sequence id (IDENT-004)
  {"op":"duplicate","seq":"2","to":"14"}                   a byte-identical copy under a new id
  {"op":"set","seq":"5","path":"actions/0/claim_handle/handle","value":"Nick"}
                                                           set a field (proto names, list indexes;
                                                           proto3 JSON values)
  {"op":"remove","seq":"5","path":"actions/1"}             remove a list element, or clear a field
  {"op":"set-bytes","seq":"5","hex":"0a…"}                 replace the update's bytes outright
  {"op":"move-action","seq":"1","from":1,"to":0}           reorder the update's actions
  {"op":"copy-action","seq":"5","from":0,"to":1}           insert a copy of an action at an index
Untouched updates keep their exact bytes. Exit status 2 for a malformed patch, 1 for a patch
that does not apply to the log (the operation's index and why).`,
    run: ({ values, positionals }, io) => cmdEdit(values, positionals, io),
  }),
  ...AUDIT_COMMANDS,
]

/** The command of a name, or undefined. */
export function commandNamed(name: string): Command | undefined {
  return COMMANDS.find((c) => c.name === name)
}
