/*
 * The native addon of the fast backend in Node (./build.mjs builds it at `npm ci`, when a C
 * compiler and Node's headers are there): secp256k1 recovery (./secp256k1-native.c) and the
 * Ed25519ph point step (./ed25519-native.c), through Node-API (ABI-stable across Node
 * versions). ../native-crypto.ts loads it; without it the WebAssembly modules serve.
 */
#include <node_api.h>

bool inbox_secp256k1_exports(napi_env env, napi_value exports);
bool inbox_ed25519_exports(napi_env env, napi_value exports);

NAPI_MODULE_INIT() {
  if (!inbox_secp256k1_exports(env, exports) || !inbox_ed25519_exports(env, exports)) {
    napi_throw_error(env, NULL, "inbox-crypto: the addon's functions could not be set up");
    return NULL;
  }
  return exports;
}
