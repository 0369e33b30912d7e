import { bytesToHex } from '../../crypto/bytes'

/**
 * A stable hash of a TanStack Query key for the app's queries: bigints (block numbers,
 * chain ids, sequence ids) as `{"$bigint":"…"}` instead of the throw of TanStack's
 * default JSON hash, byte arrays as `{"$bytes":"…"}`, and object keys sorted. The hash
 * function of every query client in the app (network profiles and fetches, chain evidence).
 */
export function hashQueryKey(key: readonly unknown[]): string {
  return JSON.stringify(key, (_k, v: unknown) =>
    typeof v === 'bigint'
      ? { $bigint: v.toString() }
      : v instanceof Uint8Array
        ? { $bytes: bytesToHex(v) }
        : v && typeof v === 'object' && !Array.isArray(v)
          ? Object.fromEntries(
              Object.keys(v)
                .sort()
                .map((k) => [k, (v as Record<string, unknown>)[k]]),
            )
          : v,
  )
}
