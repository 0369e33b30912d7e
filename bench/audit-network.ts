/**
 * Synthetic networks for the audit benchmark (bench/audit.bench.mjs), written once to
 * node_modules/.cache/inspector-e2e/:
 *
 *   signed N     N inboxes of 3 really signed updates each (a wallet creates the inbox with
 *                an installation, then adds a second wallet, then that wallet adds an
 *                installation: erc_191 and installation_key signatures), as one binary
 *                GetIdentityUpdatesResponse: the speed comparison's input
 *   cheap N F    N inboxes of one tiny update each (a claim where a CreateInbox must come
 *                first: refused under IDENT-011 with no signature checked), in F files:
 *                the memory measurement's input (the audit's own bookkeeping, not crypto)
 *
 *   node --import tsx bench/audit-network.ts signed 2000
 *   node --import tsx bench/audit-network.ts cheap 1000000 50
 */
import { existsSync, mkdirSync, renameSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { encodeGetIdentityUpdatesResponse, encodeUpdate, type ResponseLog } from '../src/core/encode/update'
import { utf8 } from '../src/crypto/bytes'
import { sha256 } from '../src/crypto/hash'
import { addMember, createInbox, ethKeySigner, installationKeySigner, signUpdate } from '../src/signing'

const CACHE = join('node_modules', '.cache', 'inspector-e2e')
const key = (label: string) => sha256(utf8(`audit-bench-${label}`))

/** The path of the signed network of `n` inboxes, built when missing. */
export async function signedNetwork(n: number): Promise<string> {
  const file = join(CACHE, `audit-signed-${n}.pb`)
  if (existsSync(file)) return file
  mkdirSync(CACHE, { recursive: true })
  const logs: ResponseLog[] = []
  let seq = 0n
  const t0 = 1_750_000_000_000_000_000n
  for (let i = 0; i < n; i++) {
    const w = ethKeySigner(key(`wallet-${i}`))
    const w2 = ethKeySigner(key(`wallet2-${i}`))
    const created = await signUpdate({
      clientTimestampNs: t0 + BigInt(i),
      actions: [createInbox(w), addMember(w, installationKeySigner(key(`inst-${i}`)))],
    })
    const inboxId = created.update.inboxId
    const second = await signUpdate({ inboxId, clientTimestampNs: t0 + BigInt(i) + 1n, actions: [addMember(w, w2)] })
    const third = await signUpdate({
      inboxId,
      clientTimestampNs: t0 + BigInt(i) + 2n,
      actions: [addMember(w2, installationKeySigner(key(`inst2-${i}`)))],
    })
    logs.push({
      inboxId,
      updates: [created, second, third].map((u) => ({ sequenceId: ++seq, bytes: u.bytes })),
    })
    if (i % 500 === 499) process.stderr.write(`audit-network: signed ${i + 1}/${n} inboxes\n`)
  }
  writeFileSync(`${file}.tmp`, encodeGetIdentityUpdatesResponse(logs))
  renameSync(`${file}.tmp`, file)
  return file
}

/** The directory of the cheap network of `n` inboxes in `files` files, built when missing. */
export function cheapNetwork(n: number, files: number): string {
  const dir = join(CACHE, `audit-cheap-${n}-${files}`)
  // The marker beside the directory, not in it (every file in it is audited).
  if (existsSync(`${dir}.done`)) return dir
  mkdirSync(dir, { recursive: true })
  const per = Math.ceil(n / files)
  let seq = 0n
  for (let f = 0; f < files; f++) {
    const logs: ResponseLog[] = []
    for (let i = f * per; i < Math.min(n, (f + 1) * per); i++) {
      const inboxId = i.toString(16).padStart(64, '0')
      const bytes = encodeUpdate({
        inboxId,
        clientTimestampNs: 1n,
        actions: [{ kind: 'claim_handle', handle: 'cheap', signature: { kind: 'erc_191', bytes: new Uint8Array(65) } }],
      })
      logs.push({ inboxId, updates: [{ sequenceId: ++seq, bytes }] })
    }
    writeFileSync(join(dir, `part-${String(f).padStart(4, '0')}.pb`), encodeGetIdentityUpdatesResponse(logs))
  }
  writeFileSync(`${dir}.done`, '')
  return dir
}

if (process.argv[1]?.endsWith('audit-network.ts')) {
  const [kind, n, files] = process.argv.slice(2)
  if (kind === 'signed') console.log(await signedNetwork(Number(n ?? 2000)))
  else if (kind === 'cheap') console.log(cheapNetwork(Number(n ?? 1_000_000), Number(files ?? 50)))
  else throw new Error('usage: audit-network.ts signed N | cheap N FILES')
}
