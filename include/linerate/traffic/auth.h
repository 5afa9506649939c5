/* SPDX-License-Identifier: GPL-2.0-or-later */
/* iperf3's authentication (--username, --rsa-public-key-path, --rsa-private-key-path,
 * --authorized-users-path, --time-skew-threshold, --use-pkcs1-padding), wire-compatible with
 * iperf3 3.12 .. 3.21 (../shared/protocols/docs/wire.md §2, "authtoken"):
 *   the client encrypts "user: U\npwd:  P\nts:   T" (T = its UTC clock, seconds) with the
 *   server's RSA public key (OAEP, or PKCS#1 v1.5 with pkcs1: iperf3 <= 3.16 knows only that;
 *   nothing on the wire says which), base64 without newlines, as the params' "authtoken";
 *   the server decrypts, wants |its clock - T| <= the threshold (default 10 s) and a users-file
 *   line "U,hex(sha256("{U}P"))"; else SERVER_ERROR with IEAUTHTEST (142).
 * Our own code on OpenSSL 3's EVP API; the pure parts (plaintext, users lines, base64) are
 * separate so they can be unit-tested and fuzzed. [any] */
#ifndef LINERATE_AUTH_H
#define LINERATE_AUTH_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "linerate/core/common.h"

#define LR_AUTH_IEAUTHTEST 142 /* iperf3's i_errno: "test authorization failed" */
#define LR_AUTH_SKEW_DEF_S 10 /* iperf3's default --time-skew-threshold */
#define LR_AUTH_NAME_MAX                                                                           \
	128 /* username or password, bytes (iperf3 has no limit; the RSA                           \
	     * block has: 214 bytes of plaintext with a 2048-bit key, OAEP) */
#define LR_AUTH_TOKEN_MAX 4096 /* base64 of an RSA block: keys up to 24576 bits */
#define LR_AUTH_ERR_MAX	  256

/* The options, as given (strings borrowed: argv / the environment). */
struct lr_auth_opts {
	const char *username; /* client: --username */
	const char *password; /* client: the IPERF3_PASSWORD environment variable */
	const char *public_key; /* client: --rsa-public-key-path (PEM "PUBLIC KEY") */
	const char *private_key; /* server: --rsa-private-key-path (PEM, not encrypted) */
	const char *users; /* server: --authorized-users-path */
	int skew_s; /* server: --time-skew-threshold, 0 = 10 */
	bool pkcs1; /* --use-pkcs1-padding (either side) */
};

/* Client side configured (needs all three of username, password, public_key). */
static inline bool lr_auth_client_wanted(const struct lr_auth_opts *o)
{
	return o->username || o->public_key;
}
/* Server side configured (needs both private_key and users). */
static inline bool lr_auth_server_wanted(const struct lr_auth_opts *o)
{
	return o->private_key || o->users;
}

/* ---- pure parts (no keys) ---- */

/* The token's plaintext, exactly iperf3's. 0, or -EINVAL when user/password are empty, too
 * long or hold whitespace (iperf3's server reads them with scanf's %s), -ENOSPC. */
int lr_auth_plain_format(const char *user, const char *password, int64_t ts, char *buf,
			 size_t size) LR_MUST_CHECK;
/* Parses a decrypted plaintext (len bytes, no NUL needed) the way iperf3's server reads it:
 * "user:", blanks, a word, blanks, "pwd:", blanks, a word, blanks, "ts:", blanks, a decimal
 * int64; then only blanks or NULs. Words are at most LR_AUTH_NAME_MAX bytes. 0 or -EINVAL. */
int lr_auth_plain_parse(const char *buf, size_t len, char user[LR_AUTH_NAME_MAX + 1],
			char password[LR_AUTH_NAME_MAX + 1], int64_t *ts) LR_MUST_CHECK;
/* hex(sha256("{user}password")), lower case, NUL-terminated: the users file's second field. */
void lr_auth_user_hash(const char *user, const char *password, char hex[65]);
/* One users-file line (no newline; a trailing \r is ignored): 1 for a user (user copied,
 * hex lower-cased into hash), 0 for a blank or '#' comment line, -EINVAL otherwise. */
int lr_auth_users_line(const char *line, char user[LR_AUTH_NAME_MAX + 1],
		       char hash[65]) LR_MUST_CHECK;
/* Standard base64 with padding, no newlines. *out malloc'd, NUL-terminated. 0 or -ENOMEM. */
int lr_auth_b64_encode(const uint8_t *in, size_t len, char **out) LR_MUST_CHECK;
/* Strict: length a multiple of 4, the alphabet, '=' only at the end. Writes at most cap bytes.
 * 0 with *out_len, -EINVAL, or -ENOSPC. */
int lr_auth_b64_decode(const char *in, size_t len, uint8_t *out, size_t cap,
		       size_t *out_len) LR_MUST_CHECK;

/* ---- client ---- */

struct lr_auth_client; /* the public key and the credentials */

/* Loads the key and checks the credentials fit in one RSA block. On error err says what,
 * naming the file ("--rsa-public-key-path FILE: ..."). 0 or -errno. */
int lr_auth_client_open(struct lr_auth_client **out, const struct lr_auth_opts *o,
			char err[LR_AUTH_ERR_MAX]) LR_MUST_CHECK;
/* The "authtoken" for a test starting now (ts = this host's UTC clock). *token malloc'd.
 * 0 or -errno. */
int lr_auth_client_token(const struct lr_auth_client *a, int64_t ts, char **token) LR_MUST_CHECK;
void lr_auth_client_close(struct lr_auth_client *a);

/* ---- server ---- */

struct lr_auth_server; /* the private key, the users file's path, the threshold */

/* Loads the key and reads the users file (which must name at least one user). err names the
 * file and, for a bad line, its number. 0 or -errno. */
int lr_auth_server_open(struct lr_auth_server **out, const struct lr_auth_opts *o,
			char err[LR_AUTH_ERR_MAX]) LR_MUST_CHECK;
/* One test's token (NULL = none sent) at server time now_s. The users file is read again
 * (as iperf3 does, so edits apply to the next test). 0 = authorized; -EACCES with why (the
 * log line: no token, cannot decrypt, skew, unknown user or wrong password, file unreadable). */
int lr_auth_server_check(const struct lr_auth_server *a, const char *token, int64_t now_s,
			 char why[LR_AUTH_ERR_MAX]) LR_MUST_CHECK;
void lr_auth_server_close(struct lr_auth_server *a);

/* Both: the checks of lr_auth_*_open without keeping anything (the CLI's, before any
 * traffic). 0 or -errno with err. */
int lr_auth_opts_check(const struct lr_auth_opts *o, bool server,
		       char err[LR_AUTH_ERR_MAX]) LR_MUST_CHECK;

#endif
