/**
 * The hostile inputs of issue #14, built once and kept in a cache directory (the signed
 * ones take a while): a single update of N actions (a CreateInbox, N - 2 installation
 * adds signed by the inbox's wallet and each new installation key, and a ClaimHandle, so
 * IDENT-079 refuses it: a claim stands alone), hex text of `0a` repeated to a size, and a
 * GetIdentityUpdatesResponse of a million tiny updates.
 */
import { existsSync, mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { encodeBundleJson, encodeGetIdentityUpdatesResponse, encodeUpdate } from '../src/core/encode/update'
import { signedBigUpdate } from '../test/support/big-update'

const CACHE = process.env.HOSTILE_CACHE ?? join(tmpdir(), 'inbox-inspector-hostile')

/**
 * The bytes of one update of `n` actions: IDENT-079 refuses it (see the module comment), or
 * with `applies`, a CreateInbox and n - 1 installation adds, which the spec's rules admit
 * (another wallet, so another inbox than the refused one's).
 */
function bigUpdate(n: number, applies = false): Promise<Uint8Array> {
  return applies
    ? signedBigUpdate('hostile-', n - 1, { wallet: 'wallet-applies' })
    : signedBigUpdate('hostile-', n - 2, { claim: true })
}

/** The one update a bundle of it holds, as bundle JSON. */
function bundleOf(bytes: Uint8Array): string {
  return encodeBundleJson({ updates: [{ sequenceId: 1n, bytes }] })
}

/** A tiny (about 30 bytes) update that decodes: one claim with a junk signature. */
function tinyUpdate(): Uint8Array {
  return encodeUpdate({
    inboxId: 'tiny',
    clientTimestampNs: 1n,
    actions: [{ kind: 'claim_handle', handle: 'tiny', signature: { kind: 'erc_191', bytes: new Uint8Array(8) } }],
  } as Parameters<typeof encodeUpdate>[0])
}

function write(name: string, make: () => Uint8Array | string | Promise<Uint8Array | string>): Promise<string> {
  mkdirSync(CACHE, { recursive: true })
  const path = join(CACHE, name)
  if (existsSync(path)) return Promise.resolve(path)
  return Promise.resolve(make()).then((data) => {
    writeFileSync(`${path}.tmp`, data)
    renameSync(`${path}.tmp`, path)
    return path
  })
}

export const inputs = {
  update: (n: number) => write(`update-${n}.bin`, () => bigUpdate(n)),
  applyingUpdate: (n: number) => write(`update-${n}-applies.bin`, () => bigUpdate(n, true)),
  updateBundle: async (n: number) => {
    const bin = await inputs.update(n)
    return write(`update-${n}.json`, () => bundleOf(readFileSync(bin)))
  },
  hex: (mb: number) => write(`hex-${mb}mb.txt`, () => '0a'.repeat((mb * 1024 * 1024) / 2)),
  tiny: (count: number) =>
    write(`tiny-${count}.bin`, () => {
      const bytes = tinyUpdate()
      return encodeGetIdentityUpdatesResponse([
        {
          inboxId: 'a'.repeat(64),
          updates: Array.from({ length: count }, (_, i) => ({ sequenceId: BigInt(i + 1), bytes })),
        },
      ])
    }),
}
