/* Freestanding shim (./build.mjs): libsecp256k1's default callbacks print; here they print nothing. */
#ifndef INBOX_SHIM_STDIO_H
#define INBOX_SHIM_STDIO_H
typedef struct inbox_shim_file FILE;
#define stderr ((FILE *)0)
#define fprintf(...) ((void)0)
#endif
