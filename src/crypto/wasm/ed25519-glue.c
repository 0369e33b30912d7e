/*
 * The point arithmetic of Ed25519ph verification, [S]B - [k]A, from SUPERCOP's ref10
 * (as shipped in the npm package ed25519@0.0.5), compiled to WebAssembly by ./build.mjs:
 * one variable-time double-scalar multiplication (sliding windows, odd multiples of A,
 * the precomputed multiples of B) instead of two separate scalar multiplications.
 * For ./ed25519ph-wasm.ts.
 *
 * The caller writes S (32 bytes, little-endian, < L) at io, k (32 bytes, < L) at io + 32
 * and the public key (32 bytes, as given) at io + 64, calls combine(), and reads the
 * canonical encoding of [S]B - [k]A at io + 96 when it returns 1. It returns 0 when the key
 * does not decode (the caller then asks noble, which throws 'bad-point').
 *
 * Decoding is ref10's ge_frombytes_negate_vartime: y is the low 255 bits taken mod p
 * (y >= p accepted), x from the square root, its sign from bit 255 (x = 0 with the sign bit
 * set accepted), small-order and mixed-order points accepted: curve25519-dalek's
 * CompressedEdwardsY::decompress, and noble's zip215 decoder, negated. The extended
 * twisted Edwards addition law is complete (d is not a square), so the result is exact for
 * every decoded point.
 */
#include "ge.h"

static unsigned char io[128];

__attribute__((export_name("io"))) unsigned char *inbox_io(void) { return io; }

__attribute__((export_name("combine"))) int inbox_combine(void) {
  ge_p3 negA;
  ge_p2 r;
  if (ge_frombytes_negate_vartime(&negA, io + 64) != 0) return 0;
  /* r = [k](-A) + [S]B */
  ge_double_scalarmult_vartime(&r, io + 32, &negA, io);
  ge_tobytes(io + 96, &r);
  return 1;
}
