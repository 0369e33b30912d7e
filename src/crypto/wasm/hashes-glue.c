/*
 * The fast backend's hashes in WebAssembly, built by ./build.mjs from C sources the npm
 * registry serves, for ./hashes-wasm.ts:
 *
 *   Keccak-256  the Keccak team's XKCP (keccak@3.0.4, src/libkeccak-64: KeccakP-1600-opt64
 *               and the sponge), rate 1088, capacity 512, the original padding 0x01 that
 *               Ethereum uses (not FIPS 202's 0x06).
 *   SHA-256     libsecp256k1's (secp256k1@5.0.2, src/secp256k1/src/hash_impl.h).
 *   SHA-512     LibTomCrypt's, as orlp/ed25519 ships it (ed25519@0.0.5, src/sha512.c).
 *
 * The caller asks input(n) for a buffer of n bytes (linear memory grows when needed), writes
 * the message there, calls keccak256(n), sha256(n) or sha512(n), and reads the digest at
 * digest(). One message at a time: each call starts a fresh state.
 */
#include <stddef.h>
#include <stdint.h>
#include "KeccakSpongeWidth1600.h"
#include "sha512.h"
#include "include/secp256k1.h"
#include "src/util.h"
#include "src/hash_impl.h"

extern unsigned char __heap_base;
static unsigned char out[64];
static size_t capacity = 0;

__attribute__((export_name("digest"))) unsigned char *inbox_digest(void) { return out; }

/* The input buffer (at the heap's base, 16-byte aligned), at least n bytes; 0 when memory cannot grow. */
__attribute__((export_name("input"))) unsigned char *inbox_input(size_t n) {
  uintptr_t base = ((uintptr_t)&__heap_base + 15) & ~(uintptr_t)15;
  if (n > capacity) {
    uintptr_t have = __builtin_wasm_memory_size(0) * 65536;
    if (base + n > have) {
      size_t pages = (base + n - have + 65535) / 65536;
      if (__builtin_wasm_memory_grow(0, pages) == (size_t)-1) return 0;
    }
    capacity = n;
  }
  return (unsigned char *)base;
}

static const unsigned char *message(void) {
  return (const unsigned char *)(((uintptr_t)&__heap_base + 15) & ~(uintptr_t)15);
}

__attribute__((export_name("keccak256"))) int inbox_keccak256(size_t n) {
  if (n > capacity) return 0;
  return KeccakWidth1600_Sponge(1088, 512, message(), n, 0x01, out, 32) == 0;
}

__attribute__((export_name("sha256"))) int inbox_sha256(size_t n) {
  secp256k1_sha256 h;
  if (n > capacity) return 0;
  secp256k1_sha256_initialize(&h);
  secp256k1_sha256_write(&h, message(), n);
  secp256k1_sha256_finalize(&h, out);
  return 1;
}

__attribute__((export_name("sha512"))) int inbox_sha512(size_t n) {
  if (n > capacity) return 0;
  return sha512(message(), n, out) == 0;
}
