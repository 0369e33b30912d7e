/*
 * The point arithmetic of Ed25519ph verification, [S]B - [k]A, for the native addon
 * (./build.mjs) from libsodium 1.0.16 (as shipped in the npm package sodium@3.0.2):
 * ge25519_double_scalarmult_vartime on its 51-bit-limb field (fe_51: 128-bit products).
 * The same step as ../wasm/ed25519-glue.c (SUPERCOP ref10, whose 25.5-bit limbs suit
 * WebAssembly) with the same decoding: libsodium's ge25519_frombytes_negate_vartime is ref10's
 * (y = the low 255 bits mod p, y >= p accepted; x = 0 with the sign bit set accepted;
 * small-order and mixed-order points accepted). For ../ed25519ph-native.ts.
 */
#include "private/ed25519_ref10.h"
#include "napi-bytes.h"

/* utils.c's, the one helper of it that ed25519_ref10.c uses (fe25519_iszero). */
int sodium_is_zero(const unsigned char *n, const size_t nlen) {
  volatile unsigned char d = 0U;
  for (size_t i = 0U; i < nlen; i++) d |= n[i];
  return 1 & ((d - 1) >> 8);
}

/* combine(S, k, key: 32 bytes each; S, k < 2^255): the encoding of [S]B - [k]A, or null when the key decodes to no point. */
static napi_value inbox_combine(napi_env env, napi_callback_info info) {
  napi_value argv[3];
  if (!inbox_args(env, info, argv, 3)) return NULL;
  const unsigned char *S = inbox_bytes(env, argv[0], 32, "combine: S");
  if (!S) return NULL;
  const unsigned char *k = inbox_bytes(env, argv[1], 32, "combine: k");
  if (!k) return NULL;
  const unsigned char *key = inbox_bytes(env, argv[2], 32, "combine: key");
  if (!key) return NULL;
  if ((S[31] | k[31]) & 0x80) {
    /* The sliding windows read 256 bits; a scalar below L has bit 255 clear. */
    napi_throw_range_error(env, NULL, "combine: a scalar has bit 255 set (not below L)");
    return NULL;
  }
  ge25519_p3 negA;
  ge25519_p2 r;
  unsigned char out[32];
  if (ge25519_frombytes_negate_vartime(&negA, key) != 0) return inbox_null(env);
  /* r = [k](-A) + [S]B */
  ge25519_double_scalarmult_vartime(&r, k, &negA, S);
  ge25519_tobytes(out, &r);
  return inbox_new_bytes(env, out, 32);
}

bool inbox_ed25519_exports(napi_env env, napi_value exports) {
  napi_value fn;
  return napi_create_function(env, "combine", NAPI_AUTO_LENGTH, inbox_combine, NULL, &fn) == napi_ok &&
         napi_set_named_property(env, exports, "combine", fn) == napi_ok;
}
