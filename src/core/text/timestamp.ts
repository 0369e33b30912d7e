/**
 * The {timestamp} of the signature text (spec section 3): client_timestamp_ns read as
 * a signed 64-bit two's complement count of nanoseconds since the epoch (a value of
 * 2^63 or more is before 1970), divided by 10^9 rounding toward negative infinity,
 * in RFC 3339 §5.6 date-time form with no fractional seconds and the Z designator.
 */

const NS_PER_S = 1_000_000_000n

/** Seconds since the epoch, floor(signed(ns) / 10^9). */
export function timestampSeconds(clientTimestampNs: bigint): bigint {
  const signed = BigInt.asIntN(64, clientTimestampNs)
  const q = signed / NS_PER_S // truncates toward zero
  return signed < 0n && q * NS_PER_S !== signed ? q - 1n : q
}

/** 2024-04-10T12:00:00Z. Every signed 64-bit value lands in years 1677..2262. */
export function formatTimestamp(clientTimestampNs: bigint): string {
  const seconds = timestampSeconds(clientTimestampNs)
  const iso = new Date(Number(seconds) * 1000).toISOString() // YYYY-MM-DDTHH:MM:SS.000Z
  return `${iso.slice(0, 19)}Z`
}
