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

/**
 * 2024-04-10T12:00:00Z. Every signed 64-bit value lands in years 1677..2262. The civil date
 * is computed from the day count (Hinnant's days-to-civil, proleptic Gregorian as Date's),
 * not through a Date and toISOString per call: the text of every update is built with it.
 * Equal to the Date form for every second of the range (./signature-text.test.ts).
 */
export function formatTimestamp(clientTimestampNs: bigint): string {
  const seconds = Number(timestampSeconds(clientTimestampNs)) // |seconds| < 2^34: exact
  const days = Math.floor(seconds / 86400)
  const secondOfDay = seconds - days * 86400
  // Days since 0000-03-01 in 400-year eras of 146,097 days (March first: the leap day is last).
  const z = days + 719468
  const era = Math.floor(z / 146097)
  const dayOfEra = z - era * 146097
  const yearOfEra = Math.floor(
    (dayOfEra - Math.floor(dayOfEra / 1460) + Math.floor(dayOfEra / 36524) - Math.floor(dayOfEra / 146096)) / 365,
  )
  const dayOfYear = dayOfEra - (365 * yearOfEra + Math.floor(yearOfEra / 4) - Math.floor(yearOfEra / 100))
  const monthFromMarch = Math.floor((5 * dayOfYear + 2) / 153)
  const day = dayOfYear - Math.floor((153 * monthFromMarch + 2) / 5) + 1
  const month = monthFromMarch < 10 ? monthFromMarch + 3 : monthFromMarch - 9
  const year = yearOfEra + era * 400 + (month <= 2 ? 1 : 0)
  const hour = Math.floor(secondOfDay / 3600)
  const minute = Math.floor((secondOfDay % 3600) / 60)
  const second = secondOfDay % 60
  return `${year}-${two(month)}-${two(day)}T${two(hour)}:${two(minute)}:${two(second)}Z`
}

const two = (n: number): string => (n < 10 ? `0${n}` : `${n}`)
