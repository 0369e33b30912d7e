/* Freestanding shim for the WebAssembly builds (./build.mjs): no libc, only what the sources use. */
#ifndef INBOX_SHIM_STRING_H
#define INBOX_SHIM_STRING_H
#include <stddef.h>
void *memcpy(void *dst, const void *src, size_t n);
void *memset(void *dst, int c, size_t n);
int memcmp(const void *a, const void *b, size_t n);
#endif
