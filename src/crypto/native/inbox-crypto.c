/*
 * The native addon of the fast backend in Node (./build.mjs builds it at `npm ci`, when a C
 * compiler and Node's headers are there): secp256k1 recovery (./secp256k1-native.c) and the
 * Ed25519ph point step (./ed25519-native.c) and, when Node's OpenSSL headers are there, P-256
 * verification (./p256-native.c), through Node-API (ABI-stable across Node
 * versions). ../native-crypto.ts loads it; without it the WebAssembly modules serve.
 */
#include <node_api.h>

bool inbox_secp256k1_exports(napi_env env, napi_value exports);
bool inbox_ed25519_exports(napi_env env, napi_value exports);
#ifdef INBOX_WITH_OPENSSL
bool inbox_p256_exports(napi_env env, napi_value exports);
#endif

NAPI_MODULE_INIT() {
  bool ok = inbox_secp256k1_exports(env, exports) && inbox_ed25519_exports(env, exports);
#ifdef INBOX_WITH_OPENSSL
  ok = ok && inbox_p256_exports(env, exports);
#endif
  if (!ok) {
    napi_throw_error(env, NULL, "inbox-crypto: the addon's functions could not be set up");
    return NULL;
  }
  return exports;
}
