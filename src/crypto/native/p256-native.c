/*
 * ECDSA P-256 verification for the native addon (./build.mjs), through the OpenSSL that Node
 * itself links (its headers are in Node's include/node/openssl, its symbols in the node
 * binary): what node:crypto's `verify` does, without its per-call key handle, option parsing
 * and signature conversion. Built only when those headers are there. For ../p256-native.ts,
 * which checks the DER signature, the key and r, s as ../p256-node.ts does, and verifies the
 * low-s twin r || s here.
 */
#define OPENSSL_SUPPRESS_DEPRECATED
#include <openssl/bn.h>
#include <openssl/ec.h>
#include <openssl/ecdsa.h>
#include <openssl/obj_mac.h>
#include <openssl/sha.h>
#include "napi-bytes.h"

/* Tags the externals that hold a key, so a foreign external is refused, never dereferenced. */
static const napi_type_tag KEY_TAG = {0x696e626f78703235ULL, 0x366b65792d746167ULL};

static void key_free(napi_env env, void *data, void *hint) {
  (void)env;
  (void)hint;
  EC_KEY_free((EC_KEY *)data);
}

/* p256Key(key: 65-byte uncompressed SEC1): a key handle, or null when OpenSSL refuses the point. */
static napi_value inbox_p256_key(napi_env env, napi_callback_info info) {
  napi_value argv[1];
  if (!inbox_args(env, info, argv, 1)) return NULL;
  const unsigned char *sec1 = inbox_bytes(env, argv[0], 65, "p256Key: key");
  if (!sec1) return NULL;
  EC_KEY *key = EC_KEY_new_by_curve_name(NID_X9_62_prime256v1);
  const unsigned char *p = sec1;
  if (!key || sec1[0] != 4 || !o2i_ECPublicKey(&key, &p, 65) || EC_KEY_check_key(key) != 1) {
    EC_KEY_free(key);
    return inbox_null(env);
  }
  napi_value handle;
  if (napi_create_external(env, key, key_free, NULL, &handle) != napi_ok) {
    EC_KEY_free(key);
    return NULL;
  }
  if (napi_type_tag_object(env, handle, &KEY_TAG) != napi_ok) return NULL;
  return handle;
}

/* p256Verify(key handle, message, r || s: 64 bytes): whether the ECDSA signature over SHA-256(message) verifies. */
static napi_value inbox_p256_verify(napi_env env, napi_callback_info info) {
  napi_value argv[3];
  if (!inbox_args(env, info, argv, 3)) return NULL;
  bool tagged = false;
  napi_valuetype t;
  void *key = NULL;
  if (argv[0] == NULL || napi_typeof(env, argv[0], &t) != napi_ok || t != napi_external ||
      napi_check_object_type_tag(env, argv[0], &KEY_TAG, &tagged) != napi_ok || !tagged ||
      napi_get_value_external(env, argv[0], &key) != napi_ok) {
    napi_throw_type_error(env, NULL, "p256Verify: expected a key made by p256Key");
    return NULL;
  }
  bool is = false;
  napi_typedarray_type type;
  size_t length = 0;
  void *message = NULL;
  if (argv[1] == NULL || napi_is_typedarray(env, argv[1], &is) != napi_ok || !is ||
      napi_get_typedarray_info(env, argv[1], &type, &length, &message, NULL, NULL) != napi_ok ||
      type != napi_uint8_array) {
    napi_throw_type_error(env, NULL, "p256Verify: message: expected a Uint8Array");
    return NULL;
  }
  const unsigned char *rs = inbox_bytes(env, argv[2], 64, "p256Verify: r || s");
  if (!rs) return NULL;
  unsigned char digest[SHA256_DIGEST_LENGTH];
  SHA256(length ? (const unsigned char *)message : (const unsigned char *)"", length, digest);
  ECDSA_SIG *sig = ECDSA_SIG_new();
  BIGNUM *r = BN_bin2bn(rs, 32, NULL);
  BIGNUM *s = BN_bin2bn(rs + 32, 32, NULL);
  int verdict = -1;
  if (sig && r && s && ECDSA_SIG_set0(sig, r, s) == 1) {
    r = s = NULL; /* owned by sig now */
    verdict = ECDSA_do_verify(digest, sizeof digest, sig, (EC_KEY *)key);
  }
  BN_free(r);
  BN_free(s);
  ECDSA_SIG_free(sig);
  if (verdict < 0) {
    napi_throw_error(env, NULL, "p256Verify: OpenSSL could not verify (not a verdict)");
    return NULL;
  }
  napi_value out;
  napi_get_boolean(env, verdict == 1, &out);
  return out;
}

bool inbox_p256_exports(napi_env env, napi_value exports) {
  napi_value key, verify;
  return napi_create_function(env, "p256Key", NAPI_AUTO_LENGTH, inbox_p256_key, NULL, &key) == napi_ok &&
         napi_set_named_property(env, exports, "p256Key", key) == napi_ok &&
         napi_create_function(env, "p256Verify", NAPI_AUTO_LENGTH, inbox_p256_verify, NULL, &verify) == napi_ok &&
         napi_set_named_property(env, exports, "p256Verify", verify) == napi_ok;
}
