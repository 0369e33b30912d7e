/* Freestanding shim (./build.mjs): a bump allocator (the sources allocate once, at context creation). */
#ifndef INBOX_SHIM_STDLIB_H
#define INBOX_SHIM_STDLIB_H
#include <stddef.h>
void *malloc(size_t n);
void free(void *p);
void *realloc(void *p, size_t n);
void abort(void) __attribute__((noreturn));
#endif
