/*
 * Argument checks shared by the addon's entry points (./inbox-crypto.c): every input is a
 * Uint8Array of an exact length, or the call throws a TypeError naming the argument. The C
 * below these checks never reads past a length it did not check.
 */
#ifndef INBOX_NAPI_BYTES_H
#define INBOX_NAPI_BYTES_H
#include <node_api.h>
#include <stdio.h>

/* The call's first `n` arguments, NULL where missing; false when they cannot be read. */
static bool inbox_args(napi_env env, napi_callback_info info, napi_value *argv, size_t n) {
  size_t argc = n;
  for (size_t i = 0; i < n; i++) argv[i] = NULL;
  return napi_get_cb_info(env, info, &argc, argv, NULL, NULL) == napi_ok;
}

/* The bytes of `value` when it is a Uint8Array of exactly `len` bytes; else a thrown TypeError and NULL. */
static const unsigned char *inbox_bytes(napi_env env, napi_value value, size_t len, const char *name) {
  bool is = false;
  napi_typedarray_type type;
  size_t length = 0;
  void *data = NULL;
  if (value != NULL && napi_is_typedarray(env, value, &is) == napi_ok && is &&
      napi_get_typedarray_info(env, value, &type, &length, &data, NULL, NULL) == napi_ok && type == napi_uint8_array &&
      length == len)
    return data != NULL ? (const unsigned char *)data : (const unsigned char *)"";
  char message[96];
  snprintf(message, sizeof message, "%s: expected a Uint8Array of %zu bytes", name, len);
  napi_throw_type_error(env, NULL, message);
  return NULL;
}

/* A new Uint8Array holding a copy of `len` bytes at `src` (NULL after a thrown error). */
static napi_value inbox_new_bytes(napi_env env, const unsigned char *src, size_t len) {
  napi_value buffer, out;
  void *data;
  if (napi_create_arraybuffer(env, len, &data, &buffer) != napi_ok) return NULL;
  for (size_t i = 0; i < len; i++) ((unsigned char *)data)[i] = src[i];
  if (napi_create_typedarray(env, napi_uint8_array, len, buffer, 0, &out) != napi_ok) return NULL;
  return out;
}

static napi_value inbox_null(napi_env env) {
  napi_value v;
  napi_get_null(env, &v);
  return v;
}
#endif
