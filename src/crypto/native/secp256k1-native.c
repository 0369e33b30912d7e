/*
 * libsecp256k1 (bitcoin-core, as shipped in the npm package secp256k1@5.0.2) for the native
 * addon (./build.mjs): the same sources and recovery step as ../wasm/secp256k1-glue.c, built
 * for the host with the 5x52 field on 128-bit products (__int128) and 4x64 scalars, which
 * WebAssembly lacks. For ../secp256k1-native.ts.
 */
#include "src/secp256k1.c"
#include "src/modules/recovery/main_impl.h"
#include <pthread.h>
#include "napi-bytes.h"

/* One verification context for the process (read-only once built: safe to share between worker threads). */
static secp256k1_context *ctx;
static pthread_once_t ctx_once = PTHREAD_ONCE_INIT;
static void ctx_build(void) { ctx = secp256k1_context_create(SECP256K1_CONTEXT_VERIFY); }

/* recover(rs: 64 bytes, digest: 32 bytes, recid: 0..3): the 65-byte uncompressed key, or null when none recovers. */
static napi_value inbox_recover(napi_env env, napi_callback_info info) {
  napi_value argv[3];
  if (!inbox_args(env, info, argv, 3)) return NULL;
  const unsigned char *rs = inbox_bytes(env, argv[0], 64, "recover: r || s");
  if (!rs) return NULL;
  const unsigned char *digest = inbox_bytes(env, argv[1], 32, "recover: digest");
  if (!digest) return NULL;
  double id = -1;
  napi_valuetype t;
  if (argv[2] == NULL || napi_typeof(env, argv[2], &t) != napi_ok || t != napi_number ||
      napi_get_value_double(env, argv[2], &id) != napi_ok || !(id == 0 || id == 1 || id == 2 || id == 3)) {
    napi_throw_range_error(env, NULL, "recover: recid must be 0, 1, 2 or 3");
    return NULL;
  }
  int recid = (int)id;
  secp256k1_ecdsa_recoverable_signature sig;
  secp256k1_pubkey pub;
  unsigned char key[65];
  size_t len = sizeof key;
  if (!secp256k1_ecdsa_recoverable_signature_parse_compact(ctx, &sig, rs, recid) ||
      !secp256k1_ecdsa_recover(ctx, &pub, &sig, digest) ||
      !secp256k1_ec_pubkey_serialize(ctx, key, &len, &pub, SECP256K1_EC_UNCOMPRESSED) || len != 65)
    return inbox_null(env);
  return inbox_new_bytes(env, key, 65);
}

/* Adds `recover` to the exports; false when the context could not be built. */
bool inbox_secp256k1_exports(napi_env env, napi_value exports) {
  pthread_once(&ctx_once, ctx_build);
  if (!ctx) return false;
  napi_value fn;
  return napi_create_function(env, "recover", NAPI_AUTO_LENGTH, inbox_recover, NULL, &fn) == napi_ok &&
         napi_set_named_property(env, exports, "recover", fn) == napi_ok;
}
