/**
 * What the two ECDSA curves share: an s in either half of the order is accepted, and the
 * replay key carries its low-half twin (./eip191 for secp256k1, ./p256 for P-256).
 */

/** s in the lower half of the curve order n (n - s when s is above n / 2), and whether it was high. */
export function lowHalfS(s: bigint, n: bigint): { low: bigint; high: boolean } {
  const high = s > n >> 1n
  return { low: high ? n - s : s, high }
}
