/** What the core's tests share: the xmtpd inbox log vector (shared/vectors/xmtpd-inbox-log.csv) and a catcher for an expected error. */
import { readFileSync } from 'node:fs'
import { hexToBytes } from '../../src/crypto/bytes'

/** The vector file as it is: a BOM, a header, then `sequence_id,inbox_id,server_timestamp_ns,\x…` rows. */
export const XMTPD_CSV = readFileSync(new URL('../../../shared/vectors/xmtpd-inbox-log.csv', import.meta.url), 'utf8')

/** Its rows in file order: sequence id, inbox id (hex, without `\x`), server timestamp and the update's exact bytes. */
export const XMTPD_ROWS = XMTPD_CSV.replace(/^\uFEFF/, '')
  .split('\n')
  .slice(1)
  .filter((l) => l.trim() !== '')
  .map((l) => {
    const [seq, inbox, ts, upd] = l.split(',')
    return { seq: BigInt(seq!), inbox: inbox!.slice(2), ts: BigInt(ts!), bytes: hexToBytes(upd!.trim().slice(2)) }
  })

/** The error of type `type` that `f` throws; any other error is thrown on, and no error at all is one too. */
export function thrown<E extends Error>(f: () => unknown, type: abstract new (...args: never[]) => E): E {
  try {
    f()
  } catch (e) {
    if (e instanceof type) return e
    throw e
  }
  throw new Error(`expected a ${type.name}`)
}
