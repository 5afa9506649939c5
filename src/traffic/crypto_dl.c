// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * libcrypto through dlopen() on first use (include/linerate/traffic/crypto_dl.h says why): one
 * pthread_once for the process, the reason kept for every later caller. Its soname is OpenSSL
 * 3's, the API the callers are written for.
 */
#include <dlfcn.h>
#include <errno.h>
#include <pthread.h>
#include <stdbool.h>
#include <stdio.h>

#include "linerate/traffic/crypto_dl.h"

#define CRYPTO_SONAME "libcrypto.so.3"

struct lr_crypto_fns lr_crypto;
static pthread_once_t once = PTHREAD_ONCE_INIT;
static bool loaded;
static char why[256];

static void load(void)
{
	void *h = dlopen(CRYPTO_SONAME, RTLD_NOW | RTLD_LOCAL);

	if (!h) {
		snprintf(why, sizeof(why), "%s", dlerror());
		return;
	}
#define LR_CRYPTO_SYM(f)                                                                 \
	lr_crypto.f = (__typeof__(lr_crypto.f))dlsym(h, #f);                             \
	if (!lr_crypto.f) {                                                              \
		snprintf(why, sizeof(why), "%s has no %s", CRYPTO_SONAME, #f);           \
		return;                                                                  \
	}
	LR_CRYPTO_FNS(LR_CRYPTO_SYM)
#undef LR_CRYPTO_SYM
	loaded = true;
}

int lr_crypto_load(char *err, size_t len)
{
	pthread_once(&once, load);
	if (loaded)
		return 0;
	if (err && len)
		snprintf(err, len, "cannot load the crypto library (%s)", why);
	return -ELIBACC;
}
