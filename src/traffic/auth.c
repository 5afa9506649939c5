// SPDX-License-Identifier: GPL-2.0-or-later
/* iperf3's authentication with RSA keys (auth.h): the client's token and the server's check,
 * on OpenSSL 3's EVP API. Keys are loaded once (before any traffic, so a bad file is a usage
 * error); the users file is read again for every test, as iperf3 does. */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <openssl/rsa.h>

#include "linerate/traffic/auth.h"
#include "linerate/traffic/crypto_dl.h"

#define TS_MAX_DIGITS 20 /* "-9223372036854775808" */

struct lr_auth_client {
	EVP_PKEY *key;
	bool pkcs1;
	char user[LR_AUTH_NAME_MAX + 1];
	char password[LR_AUTH_NAME_MAX + 1];
};

struct lr_auth_server {
	EVP_PKEY *key;
	bool pkcs1;
	int skew_s;
	char *users; /* the file's path */
};

static int fail(char err[LR_AUTH_ERR_MAX], int rc, const char *fmt, ...) LR_PRINTF(3, 4);
static int fail(char err[LR_AUTH_ERR_MAX], int rc, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(err, LR_AUTH_ERR_MAX, fmt, ap);
	va_end(ap);
	if (lr_crypto.ERR_clear_error)	/* OpenSSL's queue (once loaded): our message says it */
		lr_crypto.ERR_clear_error();
	return rc;
}

/* An encrypted private key would make OpenSSL prompt on the terminal: refuse instead. */
static int no_passphrase(char *buf, int size, int rwflag, void *u)
{
	(void)buf, (void)size, (void)rwflag, (void)u;
	return -1;
}

static int load_key(const char *path, bool private, EVP_PKEY **out, char err[LR_AUTH_ERR_MAX])
{
	const char *opt = private ? "--rsa-private-key-path" : "--rsa-public-key-path";
	FILE *f = fopen(path, "r");
	EVP_PKEY *k;

	if (!f)
		return fail(err, -errno, "%s %s: %s", opt, path, strerror(errno));
	k = private ? lr_crypto.PEM_read_PrivateKey(f, NULL, no_passphrase, NULL)
		    : lr_crypto.PEM_read_PUBKEY(f, NULL, NULL, NULL);
	fclose(f);
	if (!k)
		return fail(err, -EINVAL,
			    private ? "%s %s: not an unencrypted PEM private key (openssl genrsa)"
				    : "%s %s: not a PEM public key (openssl rsa -in KEY -pubout)",
			    opt, path);
	if (!lr_crypto.EVP_PKEY_is_a(k, "RSA")) {
		lr_crypto.EVP_PKEY_free(k);
		return fail(err, -EINVAL, "%s %s: not an RSA key", opt, path);
	}
	*out = k;
	return 0;
}

/* Room for plaintext in one RSA block with this padding (RFC 8017: OAEP with SHA-1 takes 42
 * bytes, PKCS#1 v1.5 11). */
static size_t block_room(EVP_PKEY *k, bool pkcs1)
{
	int size = lr_crypto.EVP_PKEY_get_size(k);
	size_t over = pkcs1 ? 11 : 42;

	return size > 0 && (size_t)size > over ? (size_t)size - over : 0;
}

static int rsa_ctx(EVP_PKEY *k, bool pkcs1, bool encrypt, EVP_PKEY_CTX **out)
{
	EVP_PKEY_CTX *ctx = lr_crypto.EVP_PKEY_CTX_new_from_pkey(NULL, k, NULL);
	/* OAEP keeps OpenSSL's defaults (SHA-1, MGF1 SHA-1, no label): iperf3 sets none either */
	int pad = pkcs1 ? RSA_PKCS1_PADDING : RSA_PKCS1_OAEP_PADDING;

	if (!ctx)
		return -ENOMEM;
	if ((encrypt ? lr_crypto.EVP_PKEY_encrypt_init(ctx)
		     : lr_crypto.EVP_PKEY_decrypt_init(ctx)) <= 0 ||
	    lr_crypto.EVP_PKEY_CTX_set_rsa_padding(ctx, pad) <= 0) {
		lr_crypto.EVP_PKEY_CTX_free(ctx);
		lr_crypto.ERR_clear_error();
		return -EINVAL;
	}
	*out = ctx;
	return 0;
}

/* ---------------- client ---------------- */

int lr_auth_client_open(struct lr_auth_client **out, const struct lr_auth_opts *o,
			char err[LR_AUTH_ERR_MAX])
{
	struct lr_auth_client *a;
	char probe[64 + 2 * LR_AUTH_NAME_MAX];
	int rc;

	*out = NULL;
	rc = lr_crypto_load(err, LR_AUTH_ERR_MAX);
	if (rc)
		return rc;
	if (!o->username || !o->public_key)
		return fail(err, -EINVAL, "--username and --rsa-public-key-path go together");
	if (!o->password)
		return fail(err, -EINVAL,
			    "--username: set the password in IPERF3_PASSWORD "
			    "(linerate does not prompt for it)");
	if (lr_auth_plain_format(o->username, "x", 0, probe, sizeof(probe)) < 0)
		return fail(err, -EINVAL, "--username: 1 to %d bytes, no blanks", LR_AUTH_NAME_MAX);
	if (lr_auth_plain_format("x", o->password, 0, probe, sizeof(probe)) < 0)
		return fail(err, -EINVAL,
			    "IPERF3_PASSWORD: 1 to %d bytes, no blanks (iperf3's "
			    "server reads it as one word)",
			    LR_AUTH_NAME_MAX);
	a = calloc(1, sizeof(*a));
	if (!a)
		return fail(err, -ENOMEM, "out of memory");
	rc = load_key(o->public_key, false, &a->key, err);
	if (rc < 0) {
		free(a);
		return rc;
	}
	a->pkcs1 = o->pkcs1;
	snprintf(a->user, sizeof(a->user), "%s", o->username);
	snprintf(a->password, sizeof(a->password), "%s", o->password);
	/* the longest plaintext this client can send: the timestamp at its widest */
	size_t need = strlen("user: \npwd:  \nts:   ") + strlen(a->user) + strlen(a->password) +
		      TS_MAX_DIGITS;

	if (need > block_room(a->key, a->pkcs1)) {
		rc = fail(err, -EINVAL,
			  "--rsa-public-key-path %s: a %d-bit key holds %zu bytes with %s padding; "
			  "the username and password need %zu",
			  o->public_key, lr_crypto.EVP_PKEY_get_bits(a->key), block_room(a->key, a->pkcs1),
			  a->pkcs1 ? "PKCS#1" : "OAEP", need);
		lr_auth_client_close(a);
		return rc;
	}
	*out = a;
	return 0;
}

int lr_auth_client_token(const struct lr_auth_client *a, int64_t ts, char **token)
{
	char plain[64 + 2 * LR_AUTH_NAME_MAX];
	unsigned char *enc = NULL;
	EVP_PKEY_CTX *ctx = NULL;
	size_t enc_len = 0;
	int rc;

	*token = NULL;
	rc = lr_auth_plain_format(a->user, a->password, ts, plain, sizeof(plain));
	if (rc < 0)
		return rc;
	rc = rsa_ctx(a->key, a->pkcs1, true, &ctx);
	if (rc < 0)
		goto out;
	rc = -EINVAL;
	if (lr_crypto.EVP_PKEY_encrypt(ctx, NULL, &enc_len, (unsigned char *)plain, strlen(plain)) <= 0)
		goto out;
	enc = malloc(enc_len);
	if (!enc) {
		rc = -ENOMEM;
		goto out;
	}
	if (lr_crypto.EVP_PKEY_encrypt(ctx, enc, &enc_len, (unsigned char *)plain, strlen(plain)) <= 0)
		goto out;
	rc = lr_auth_b64_encode(enc, enc_len, token);
out:
	lr_crypto.OPENSSL_cleanse(plain, sizeof(plain));
	lr_crypto.ERR_clear_error();
	lr_crypto.EVP_PKEY_CTX_free(ctx);
	free(enc);
	return rc;
}

void lr_auth_client_close(struct lr_auth_client *a)
{
	if (!a)
		return;
	lr_crypto.EVP_PKEY_free(a->key);
	lr_crypto.OPENSSL_cleanse(a->password, sizeof(a->password));
	free(a);
}

/* ---------------- server ---------------- */

/* Reads the users file. With user != NULL, *found tells whether user,hash is in it. 0, or
 * -errno with err naming the file (and the line). */
static int read_users(const char *path, const char *user, const char *hash, bool *found,
		      unsigned *n_users, char err[LR_AUTH_ERR_MAX])
{
	FILE *f = fopen(path, "r");
	char u[LR_AUTH_NAME_MAX + 1], h[65];
	char *line = NULL;
	size_t cap = 0;
	unsigned lineno = 0;
	int rc = 0;

	*n_users = 0;
	if (found)
		*found = false;
	if (!f)
		return fail(err, -errno, "--authorized-users-path %s: %s", path, strerror(errno));
	while (getline(&line, &cap, f) >= 0) {
		int r = lr_auth_users_line(line, u, h);

		lineno++;
		if (r < 0) {
			rc = fail(err, -EINVAL,
				  "--authorized-users-path %s line %u: not USER,SHA256HEX (64 hex "
				  "digits of sha256(\"{USER}PASSWORD\"))",
				  path, lineno);
			break;
		}
		if (r == 0)
			continue;
		(*n_users)++;
		/* CRYPTO_memcmp: the time taken says nothing about how much of the hash matched */
		if (found && !strcmp(u, user) && !lr_crypto.CRYPTO_memcmp(h, hash, 65))
			*found = true;
	}
	if (!rc && ferror(f))
		rc = fail(err, -EIO, "--authorized-users-path %s: read error", path);
	free(line);
	fclose(f);
	return rc;
}

int lr_auth_server_open(struct lr_auth_server **out, const struct lr_auth_opts *o,
			char err[LR_AUTH_ERR_MAX])
{
	struct lr_auth_server *a;
	unsigned n = 0;
	int rc;

	*out = NULL;
	rc = lr_crypto_load(err, LR_AUTH_ERR_MAX);
	if (rc)
		return rc;
	if (!o->private_key || !o->users)
		return fail(err, -EINVAL,
			    "--rsa-private-key-path and --authorized-users-path go together");
	if (o->skew_s < 0)
		return fail(err, -EINVAL, "--time-skew-threshold: must be positive");
	rc = read_users(o->users, NULL, NULL, NULL, &n, err);
	if (rc < 0)
		return rc;
	if (n == 0)
		return fail(err, -EINVAL, "--authorized-users-path %s: names no user", o->users);
	a = calloc(1, sizeof(*a));
	if (!a)
		return fail(err, -ENOMEM, "out of memory");
	a->users = strdup(o->users);
	rc = a->users ? load_key(o->private_key, true, &a->key, err) : -ENOMEM;
	if (rc < 0) {
		free(a->users);
		free(a);
		return rc == -ENOMEM ? fail(err, rc, "out of memory") : rc;
	}
	a->pkcs1 = o->pkcs1;
	a->skew_s = o->skew_s ? o->skew_s : LR_AUTH_SKEW_DEF_S;
	*out = a;
	return 0;
}

/* The token's plaintext: base64, then one RSA block. 0 with *len, or -EINVAL. */
static int decrypt_token(const struct lr_auth_server *a, const char *token, char *plain, size_t cap,
			 size_t *len)
{
	uint8_t enc[LR_AUTH_TOKEN_MAX];
	size_t enc_len, tlen = strnlen(token, LR_AUTH_TOKEN_MAX + 1);
	EVP_PKEY_CTX *ctx;
	size_t need = 0;
	int rc = -EINVAL;

	if (tlen > LR_AUTH_TOKEN_MAX ||
	    lr_auth_b64_decode(token, tlen, enc, sizeof(enc), &enc_len) < 0)
		return -EINVAL;
	if (enc_len != (size_t)lr_crypto.EVP_PKEY_get_size(a->key))
		return -EINVAL;
	if (rsa_ctx(a->key, a->pkcs1, false, &ctx) < 0)
		return -EINVAL;
	if (lr_crypto.EVP_PKEY_decrypt(ctx, NULL, &need, enc, enc_len) > 0 && need <= cap) {
		*len = cap;
		if (lr_crypto.EVP_PKEY_decrypt(ctx, (unsigned char *)plain, len, enc, enc_len) > 0)
			rc = 0;
	}
	lr_crypto.EVP_PKEY_CTX_free(ctx);
	lr_crypto.ERR_clear_error();
	return rc;
}

int lr_auth_server_check(const struct lr_auth_server *a, const char *token, int64_t now_s,
			 char why[LR_AUTH_ERR_MAX])
{
	char plain[LR_AUTH_TOKEN_MAX], user[LR_AUTH_NAME_MAX + 1], pwd[LR_AUTH_NAME_MAX + 1];
	char hash[65], err[LR_AUTH_ERR_MAX];
	size_t len = 0;
	int64_t ts;
	unsigned n;
	bool found = false;
	int rc = -EACCES;

	if (!token || !token[0])
		return fail(why, -EACCES, "no authentication token (iperf3 --username)");
	if (decrypt_token(a, token, plain, sizeof(plain), &len) < 0) {
		fail(why, -EACCES, "token not decryptable with the private key (%s padding: %s)",
		     a->pkcs1 ? "PKCS#1" : "OAEP",
		     a->pkcs1 ? "the client must use it too"
			      : "an iperf3 <= 3.16 client sends "
				"PKCS#1: --use-pkcs1-padding");
		goto out;
	}
	if (lr_auth_plain_parse(plain, len, user, pwd, &ts) < 0) {
		fail(why, -EACCES, "token decrypted but not iperf3's \"user/pwd/ts\" text");
		goto out;
	}
	/* as iperf3: |server clock - client clock| may not exceed the threshold (no overflow:
	 * ts is compared, never subtracted) */
	if (ts > now_s + a->skew_s || ts < now_s - a->skew_s) {
		unsigned long long d = ts > now_s ? (uint64_t)ts - (uint64_t)now_s
						  : (uint64_t)now_s - (uint64_t)ts;

		fail(why, -EACCES,
		     "user %s: clocks %llu s apart, more than --time-skew-threshold %d", user, d,
		     a->skew_s);
		goto out;
	}
	lr_auth_user_hash(user, pwd, hash);
	if (read_users(a->users, user, hash, &found, &n, err) < 0) {
		fail(why, -EACCES, "%s", err);
		goto out;
	}
	if (!found) {
		fail(why, -EACCES, "user %s: unknown, or the password does not match", user);
		goto out;
	}
	snprintf(why, LR_AUTH_ERR_MAX, "user %s", user);
	rc = 0;
out:
	lr_crypto.OPENSSL_cleanse(plain, sizeof(plain));
	lr_crypto.OPENSSL_cleanse(pwd, sizeof(pwd));
	return rc;
}

void lr_auth_server_close(struct lr_auth_server *a)
{
	if (!a)
		return;
	lr_crypto.EVP_PKEY_free(a->key);
	free(a->users);
	free(a);
}

int lr_auth_opts_check(const struct lr_auth_opts *o, bool server, char err[LR_AUTH_ERR_MAX])
{
	int rc;

	if (server) {
		struct lr_auth_server *s;

		rc = lr_auth_server_open(&s, o, err);
		lr_auth_server_close(s);
	} else {
		struct lr_auth_client *c;

		rc = lr_auth_client_open(&c, o, err);
		lr_auth_client_close(c);
	}
	return rc;
}
