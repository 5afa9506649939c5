// SPDX-License-Identifier: GPL-2.0-or-later
/* The text parts of iperf3's authentication, no keys involved: the token's plaintext, the
 * users file's lines, base64 and the password hash. The parsers read hostile input (the
 * plaintext comes from any client that holds the public key) and are fuzzed
 * (tests/fuzz/fuzz_auth_token.c). */
#include <ctype.h>
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>


#include "linerate/traffic/auth.h"
#include "linerate/traffic/crypto_dl.h"

/* What iperf3's server reads as one word (scanf's %s): any bytes but blanks, so UTF-8 too. */
static bool word_ok(const char *s)
{
	size_t n = strlen(s);

	if (n == 0 || n > LR_AUTH_NAME_MAX)
		return false;
	for (size_t i = 0; i < n; i++)
		if (isspace((unsigned char)s[i]))
			return false;
	return true;
}

int lr_auth_plain_format(const char *user, const char *password, int64_t ts, char *buf, size_t size)
{
	int n;

	if (!word_ok(user) || !word_ok(password))
		return -EINVAL;
	/* the spacing is iperf3's: two blanks after "pwd:", three after "ts:" */
	n = snprintf(buf, size, "user: %s\npwd:  %s\nts:   %" PRId64, user, password, ts);
	return n < 0 || (size_t)n >= size ? -ENOSPC : 0;
}

/* A cursor over the plaintext: no NUL needed, never reads past end. */
struct cur {
	const char *p, *end;
};

static void skip_blanks(struct cur *c)
{
	while (c->p < c->end && isspace((unsigned char)*c->p))
		c->p++;
}

static bool literal(struct cur *c, const char *lit)
{
	size_t n = strlen(lit);

	if ((size_t)(c->end - c->p) < n || memcmp(c->p, lit, n) != 0)
		return false;
	c->p += n;
	return true;
}

/* scanf's %s: blanks skipped, then a run of non-blank bytes (NUL ends it too). */
static bool word(struct cur *c, char out[LR_AUTH_NAME_MAX + 1])
{
	size_t n = 0;

	skip_blanks(c);
	while (c->p < c->end && *c->p && !isspace((unsigned char)*c->p)) {
		if (n == LR_AUTH_NAME_MAX)
			return false;
		out[n++] = *c->p++;
	}
	out[n] = '\0';
	return n > 0;
}

static bool int64_field(struct cur *c, int64_t *v)
{
	bool neg = false;
	uint64_t acc = 0, lim;
	size_t digits = 0;

	skip_blanks(c);
	if (c->p < c->end && (*c->p == '-' || *c->p == '+'))
		neg = *c->p++ == '-';
	lim = neg ? (uint64_t)INT64_MAX + 1 : (uint64_t)INT64_MAX;
	while (c->p < c->end && *c->p >= '0' && *c->p <= '9') {
		unsigned d = (unsigned)(*c->p++ - '0');

		if (acc > (lim - d) / 10)
			return false;
		acc = acc * 10 + d;
		digits++;
	}
	if (!digits)
		return false;
	*v = neg ? (int64_t)(0 - acc) : (int64_t)acc;
	return true;
}

int lr_auth_plain_parse(const char *buf, size_t len, char user[LR_AUTH_NAME_MAX + 1],
			char password[LR_AUTH_NAME_MAX + 1], int64_t *ts)
{
	struct cur c = {buf, buf + len};

	user[0] = password[0] = '\0';
	if (!literal(&c, "user:") || !word(&c, user))
		goto bad;
	skip_blanks(&c);
	if (!literal(&c, "pwd:") || !word(&c, password))
		goto bad;
	skip_blanks(&c);
	if (!literal(&c, "ts:") || !int64_field(&c, ts))
		goto bad;
	for (; c.p < c.end; c.p++)
		if (*c.p && !isspace((unsigned char)*c.p))
			goto bad;
	return 0;
bad:
	user[0] = password[0] = '\0';
	return -EINVAL;
}

void lr_auth_user_hash(const char *user, const char *password, char hex[65])
{
	static const char digits[] = "0123456789abcdef";
	unsigned char md[EVP_MAX_MD_SIZE];
	unsigned int mdlen = 0;
	EVP_MD_CTX *ctx = lr_crypto_load(NULL, 0) ? NULL : lr_crypto.EVP_MD_CTX_new();
	bool ok = ctx && lr_crypto.EVP_DigestInit_ex(ctx, lr_crypto.EVP_sha256(), NULL) == 1 &&
		  lr_crypto.EVP_DigestUpdate(ctx, "{", 1) == 1 &&
		  lr_crypto.EVP_DigestUpdate(ctx, user, strlen(user)) == 1 &&
		  lr_crypto.EVP_DigestUpdate(ctx, "}", 1) == 1 &&
		  lr_crypto.EVP_DigestUpdate(ctx, password, strlen(password)) == 1 &&
		  lr_crypto.EVP_DigestFinal_ex(ctx, md, &mdlen) == 1 && mdlen == 32;

	if (ctx)
		lr_crypto.EVP_MD_CTX_free(ctx);
	if (!ok) { /* matches no line: the file's hashes are 64 hex digits */
		hex[0] = '\0';
		return;
	}
	for (unsigned i = 0; i < 32; i++) {
		hex[2 * i] = digits[md[i] >> 4];
		hex[2 * i + 1] = digits[md[i] & 15];
	}
	hex[64] = '\0';
}

int lr_auth_users_line(const char *line, char user[LR_AUTH_NAME_MAX + 1], char hash[65])
{
	size_t n = strlen(line);
	const char *comma;
	size_t ulen;

	while (n && (line[n - 1] == '\r' || line[n - 1] == '\n'))
		n--;
	size_t lead = 0;

	while (lead < n && isspace((unsigned char)line[lead]))
		lead++;
	if (lead == n || line[0] == '#')
		return 0;
	comma = memchr(line, ',', n);
	if (!comma)
		return -EINVAL;
	ulen = (size_t)(comma - line);
	if (ulen == 0 || ulen > LR_AUTH_NAME_MAX || n - ulen - 1 != 64)
		return -EINVAL;
	for (size_t i = 0; i < ulen; i++)
		if (isspace((unsigned char)line[i]))
			return -EINVAL;
	for (size_t i = 0; i < 64; i++) {
		unsigned char ch = (unsigned char)comma[1 + i];

		if (!isxdigit(ch))
			return -EINVAL;
		hash[i] = (char)tolower(ch);
	}
	hash[64] = '\0';
	memcpy(user, line, ulen);
	user[ulen] = '\0';
	return 1;
}

int lr_auth_b64_encode(const uint8_t *in, size_t len, char **out)
{
	size_t cap = 4 * ((len + 2) / 3) + 1;

	if (len > (size_t)INT32_MAX / 2)
		return -EINVAL;
	if (lr_crypto_load(NULL, 0))
		return -ELIBACC;
	*out = malloc(cap);
	if (!*out)
		return -ENOMEM;
	/* EVP_EncodeBlock: one line, no newline, NUL-terminated, as iperf3's BIO with NO_NL */
	lr_crypto.EVP_EncodeBlock((unsigned char *)*out, in, (int)len);
	return 0;
}

static int b64_val(unsigned char ch)
{
	if (ch >= 'A' && ch <= 'Z')
		return ch - 'A';
	if (ch >= 'a' && ch <= 'z')
		return ch - 'a' + 26;
	if (ch >= '0' && ch <= '9')
		return ch - '0' + 52;
	if (ch == '+')
		return 62;
	if (ch == '/')
		return 63;
	return -1;
}

int lr_auth_b64_decode(const char *in, size_t len, uint8_t *out, size_t cap, size_t *out_len)
{
	size_t o = 0;

	if (len % 4)
		return -EINVAL;
	for (size_t i = 0; i < len; i += 4) {
		int v[4], pad = 0;
		bool last = i + 4 == len;

		for (int k = 0; k < 4; k++) {
			unsigned char ch = (unsigned char)in[i + k];

			if (ch == '=' && last && k >= 2 && (k == 3 || in[i + 3] == '=')) {
				v[k] = 0;
				pad++;
				continue;
			}
			v[k] = b64_val(ch);
			if (v[k] < 0)
				return -EINVAL;
		}
		uint32_t w = (uint32_t)v[0] << 18 | (uint32_t)v[1] << 12 | (uint32_t)v[2] << 6 |
			     (uint32_t)v[3];
		size_t n = 3 - (size_t)pad;

		if (o + n > cap)
			return -ENOSPC;
		out[o++] = (uint8_t)(w >> 16);
		if (n > 1)
			out[o++] = (uint8_t)(w >> 8);
		if (n > 2)
			out[o++] = (uint8_t)w;
	}
	*out_len = o;
	return 0;
}
