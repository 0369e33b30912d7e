/**
 * A stable hash of a TanStack Query key for the app's queries: bigints (block numbers,
 * chain ids, sequence ids) as `{"$bigint":"…"}` instead of the throw of TanStack's
 * default JSON hash, and object keys sorted. Shared by features that key queries on
 * bigints (the same scheme as features/network/queries.ts hashNodeKey).
 */
export function hashQueryKey(key: readonly unknown[]): string {
  return JSON.stringify(key, (_k, v: unknown) =>
    typeof v === 'bigint'
      ? { $bigint: v.toString() }
      : v instanceof Uint8Array
        ? { $bytes: Array.from(v, (b) => b.toString(16).padStart(2, '0')).join('') }
        : v && typeof v === 'object' && !Array.isArray(v)
          ? Object.fromEntries(
              Object.keys(v)
                .sort()
                .map((k) => [k, (v as Record<string, unknown>)[k]]),
            )
          : v,
  )
}
