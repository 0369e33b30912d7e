/*
 * libsecp256k1 (bitcoin-core, as shipped in the npm package secp256k1@5.0.2) compiled to
 * WebAssembly by ./build.mjs, with its 10x26 field (32-bit limbs, native 64-bit products)
 * and 8x32 scalars. One entry point: public-key recovery (SEC 1 4.1.6) for ./secp256k1-wasm.ts.
 *
 * The caller writes r || s (64 bytes) at io and the 32-byte digest at io + 64, calls
 * recover(recid), and reads the 65-byte uncompressed key at io + 96 when it returns 1.
 */
#include "src/secp256k1.c"
#include "src/modules/recovery/main_impl.h"

static unsigned char io[96 + 65];
static secp256k1_context *ctx;

__attribute__((export_name("io"))) unsigned char *inbox_io(void) { return io; }

/* Builds the verification context (the ecmult tables): once, before any recover. */
__attribute__((export_name("init"))) int inbox_init(void) {
  if (!ctx) ctx = secp256k1_context_create(SECP256K1_CONTEXT_VERIFY);
  return ctx != 0;
}

/* 1 and the key at io + 96, or 0 when r || s does not parse or no key is recovered. */
__attribute__((export_name("recover"))) int inbox_recover(int recid) {
  secp256k1_ecdsa_recoverable_signature sig;
  secp256k1_pubkey pub;
  size_t len = 65;
  if (!ctx || recid < 0 || recid > 3) return 0;
  if (!secp256k1_ecdsa_recoverable_signature_parse_compact(ctx, &sig, io, recid)) return 0;
  if (!secp256k1_ecdsa_recover(ctx, &pub, &sig, io + 64)) return 0;
  secp256k1_ec_pubkey_serialize(ctx, io + 96, &len, &pub, SECP256K1_EC_UNCOMPRESSED);
  return len == 65;
}
