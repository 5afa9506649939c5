// SPDX-License-Identifier: GPL-2.0-or-later
/* libFuzzer: the server's reading of an iperf3 authentication token (auth.h), hostile client
 * input: the base64 layer, the decrypted plaintext's parser and the users-file line parser must
 * never crash, overrun or leak; whatever they accept must be well-formed (words without blanks,
 * within bounds) and survive a format/parse or encode/decode round trip. A base64 body of one
 * RSA block also goes through the whole check with the test key. */
#include <ctype.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "linerate/traffic/auth.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static struct lr_auth_server *srv;

static void check_word(const char *w)
{
	size_t n = strlen(w);

	if (n == 0 || n > LR_AUTH_NAME_MAX)
		abort();
	for (size_t i = 0; i < n; i++)
		if (isspace((unsigned char)w[i]))
			abort();
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char user[LR_AUTH_NAME_MAX + 1], pwd[LR_AUTH_NAME_MAX + 1], buf[512], *str, *enc;
	char h[65], why[LR_AUTH_ERR_MAX];
	uint8_t dec[LR_AUTH_TOKEN_MAX], dec2[LR_AUTH_TOKEN_MAX];
	size_t n = 0, n2 = 0;
	int64_t ts;

	if (size > LR_AUTH_TOKEN_MAX)
		return 0;
	if (!srv) {
		struct lr_auth_opts o = {.private_key = "tests/fixtures/auth/server_private.pem",
					 .users = "tests/fixtures/auth/users.csv"};
		char err[LR_AUTH_ERR_MAX];

		if (lr_auth_server_open(&srv, &o, err) < 0)
			abort(); /* run from the repository's root (scripts/fuzz.sh does) */
	}
	/* the plaintext, as if it had decrypted */
	if (lr_auth_plain_parse((const char *)data, size, user, pwd, &ts) == 0) {
		int64_t ts2;
		char u2[LR_AUTH_NAME_MAX + 1], p2[LR_AUTH_NAME_MAX + 1];

		check_word(user);
		check_word(pwd);
		if (lr_auth_plain_format(user, pwd, ts, buf, sizeof(buf)) < 0 ||
		    lr_auth_plain_parse(buf, strlen(buf), u2, p2, &ts2) < 0 || strcmp(u2, user) ||
		    strcmp(p2, pwd) || ts2 != ts)
			abort();
		lr_auth_user_hash(user, pwd, h);
		if (strlen(h) != 64)
			abort();
	}
	str = malloc(size + 1);
	if (!str)
		return 0;
	memcpy(str, data, size);
	str[size] = '\0';
	/* a users-file line */
	if (lr_auth_users_line(str, user, h) == 1) {
		check_word(user);
		if (strlen(h) != 64 || strchr(user, ','))
			abort();
	}
	/* the token's base64 */
	if (lr_auth_b64_decode(str, size, dec, sizeof(dec), &n) == 0) {
		if (lr_auth_b64_encode(dec, n, &enc) < 0)
			abort();
		if (lr_auth_b64_decode(enc, strlen(enc), dec2, sizeof(dec2), &n2) < 0 || n2 != n ||
		    memcmp(dec, dec2, n))
			abort();
		free(enc);
		/* one RSA block: the whole check (a random block must not pass) */
		if (n == 256 && lr_auth_server_check(srv, str, 0, why) == 0)
			abort();
	}
	free(str);
	return 0;
}
