/* SPDX-License-Identifier: GPL-2.0-or-later */
/* OpenSSL's libcrypto, loaded when authentication first needs it instead of at start: about
 * 1.4 MB resident that a run without --username / --rsa-* never uses (issue 33: peak RSS).
 * The table's fields are OpenSSL 3's functions under their own names, typed from its headers;
 * they are valid once lr_crypto_load() has returned 0, and never unloaded. [any] */
#ifndef LINERATE_CRYPTO_DL_H
#define LINERATE_CRYPTO_DL_H

#include <stddef.h>

#include <openssl/crypto.h>
#include <openssl/err.h>
#include <openssl/evp.h>
#include <openssl/pem.h>

#define LR_CRYPTO_FNS(X)                                                                       \
	X(ERR_clear_error) X(OPENSSL_cleanse) X(PEM_read_PrivateKey) X(PEM_read_PUBKEY)         \
	X(EVP_PKEY_is_a) X(EVP_PKEY_free) X(EVP_PKEY_get_size) X(EVP_PKEY_get_bits)             \
	X(EVP_PKEY_CTX_new_from_pkey) X(EVP_PKEY_CTX_free) X(EVP_PKEY_CTX_set_rsa_padding)      \
	X(EVP_PKEY_encrypt_init) X(EVP_PKEY_decrypt_init) X(EVP_PKEY_encrypt) X(EVP_PKEY_decrypt) \
	X(EVP_MD_CTX_new) X(EVP_MD_CTX_free) X(EVP_DigestInit_ex) X(EVP_DigestUpdate)           \
	X(EVP_DigestFinal_ex) X(EVP_sha256) X(EVP_EncodeBlock) X(CRYPTO_memcmp)

/* f is a name, declared: no parentheses can go round it */
#define LR_CRYPTO_FIELD(f) __typeof__(&f) f; /* NOLINT(bugprone-macro-parentheses) */
struct lr_crypto_fns {
	LR_CRYPTO_FNS(LR_CRYPTO_FIELD)
};
#undef LR_CRYPTO_FIELD

extern struct lr_crypto_fns lr_crypto;

/* Loads libcrypto once (thread-safe). 0, or -ELIBACC with the reason in err (len bytes). */
int lr_crypto_load(char *err, size_t len);

#endif
