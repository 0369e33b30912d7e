/**
 * `edit`: what-if edits of a log for scripts (issue #16). Reads a log in any input format,
 * applies a JSON patch (../core/encode/edit.ts) and writes the edited log as a bundle:
 *
 *     npm run --silent cli -- edit (--patch <file> | --ops '<json>') [--inbox <id>]
 *         [--encoding hex|base64] [--out <file>] FILE
 *
 * The bundle then replays like any log: `edit … | replay --json /dev/stdin` shows which
 * rule now rejects what. Exit status 2 for a malformed patch or command line, 1 for a log
 * that cannot be read or a patch that does not apply to it (the message names the
 * operation and why).
 */
import { writeFileSync } from 'node:fs'
import { applyEdits, EditError, editableEntries, PatchSyntaxError, parsePatch } from '../core/encode/edit'
import { encodeBundleJson } from '../core/encode/update'
import { InputError, readFile, readLogFile, UsageError } from './io'
import type { Io } from './usage'

export interface EditFlagValues {
  readonly patch?: string
  readonly ops?: string
  readonly inbox?: string
  readonly encoding?: string
  readonly out?: string
}

export function cmdEdit(values: EditFlagValues, positionals: readonly string[], io: Io): void {
  if (positionals.length !== 1) throw new UsageError('edit takes exactly one log file')
  if ((values.patch === undefined) === (values.ops === undefined))
    throw new UsageError('edit needs exactly one of --patch <file> and --ops <json>')
  const encoding = values.encoding ?? 'hex'
  if (encoding !== 'hex' && encoding !== 'base64')
    throw new UsageError(`--encoding ${JSON.stringify(encoding)}: expected hex or base64`)

  const patchText = values.ops ?? new TextDecoder('utf-8', { fatal: false }).decode(readFile(values.patch as string))
  let doc: unknown
  try {
    doc = JSON.parse(patchText)
  } catch (e) {
    throw new UsageError(`the patch${values.patch ? ` ${values.patch}` : ''} is not JSON: ${(e as Error).message}`)
  }
  let ops: ReturnType<typeof parsePatch>
  try {
    ops = parsePatch(doc)
  } catch (e) {
    if (e instanceof PatchSyntaxError) throw new UsageError(e.message)
    throw e
  }

  const file = positionals[0]!
  const logs = readLogFile(file)
  const chosen = values.inbox === undefined ? logs : logs.filter((l) => l.inboxId === values.inbox)
  if (chosen.length !== 1) {
    const ids = logs.map((l) => l.inboxId ?? '(unnamed)').join(', ')
    throw new InputError(
      values.inbox === undefined
        ? `${file} holds ${logs.length} inbox logs (${ids}): choose one with --inbox`
        : `${file} holds no log for inbox ${values.inbox} (it holds ${ids || 'none'})`,
    )
  }
  const log = chosen[0]!
  let edited: ReturnType<typeof applyEdits>
  try {
    edited = applyEdits(editableEntries(log), ops)
  } catch (e) {
    if (e instanceof EditError) throw new InputError(`${file}: ${e.message}`)
    throw e
  }
  const missing = edited.find((e) => e.bytes === undefined)
  if (missing)
    throw new InputError(
      `${file}: the update at sequence id ${missing.sequenceId} has no bytes to write (drop it or give it bytes with set-bytes)`,
    )
  const bundle = encodeBundleJson(
    {
      ...(log.inboxId === undefined ? {} : { inboxId: log.inboxId }),
      updates: edited.map((e) => ({ sequenceId: e.sequenceId, bytes: e.bytes! })),
    },
    encoding,
  )
  if (values.out === undefined) io.out(bundle)
  else {
    try {
      writeFileSync(values.out, bundle)
    } catch (e) {
      throw new InputError(`${values.out}: cannot write: ${(e as Error).message}`)
    }
  }
}
