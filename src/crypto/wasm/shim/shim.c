/* The few libc functions the WebAssembly builds need (./build.mjs), freestanding. */
#include <stddef.h>
#include <stdint.h>

extern unsigned char __heap_base;
static uintptr_t heap_top = 0;

/* Built with -mbulk-memory: these builtins become the memory.copy and memory.fill
 * instructions (a byte loop here would be turned back into a call to itself at -O3). */
void *memcpy(void *dst, const void *src, size_t n) { return __builtin_memcpy(dst, src, n); }

void *memset(void *dst, int c, size_t n) { return __builtin_memset(dst, c, n); }

int memcmp(const void *a, const void *b, size_t n) {
  const unsigned char *x = a, *y = b;
  for (; n; n--, x++, y++) {
    if (*x != *y) return *x < *y ? -1 : 1;
  }
  return 0;
}

void abort(void) { __builtin_trap(); }

/* Bump allocation, 16-byte aligned, growing linear memory as needed; free is a no-op
 * (each module allocates its tables once and keeps them for its lifetime). */
void *malloc(size_t n) {
  if (heap_top == 0) heap_top = (uintptr_t)&__heap_base;
  uintptr_t p = (heap_top + 15) & ~(uintptr_t)15;
  uintptr_t end = p + n;
  uintptr_t have = __builtin_wasm_memory_size(0) * 65536;
  if (end > have) {
    size_t pages = (end - have + 65535) / 65536;
    if (__builtin_wasm_memory_grow(0, pages) == (size_t)-1) return 0;
  }
  heap_top = end;
  return (void *)p;
}

void free(void *p) { (void)p; }

void *realloc(void *p, size_t n) {
  (void)p;
  (void)n;
  __builtin_trap();
}
