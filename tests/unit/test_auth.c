// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * iperf3's authentication (auth.h) on fixed keys (tests/fixtures/auth/README.md): the token
 * Debian's iperf3 3.12 really sent is accepted by the server side within the skew and refused
 * outside it, with the wrong padding or a wrong password; the password hash equals coreutils'
 * sha256sum in the users file; the plaintext parser reads iperf3's text and refuses the rest;
 * base64 and users lines are strict; bad files are refused with their name (and line).
 */
#include <errno.h>
#include <fcntl.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cmocka.h>
#include <jansson.h>

#include "linerate/core/common.h"
#include "linerate/traffic/auth.h"
#include "linerate/traffic/proto.h"

#define FIX	    "tests/fixtures/auth/"
#define CAPTURED_TS 1796148559LL /* the plaintext's ts (README.md: decrypted by openssl) */

static char *captured_token(void)
{
	json_error_t je;
	json_t *o = json_load_file(FIX "params_iperf3_3.12.json", 0, &je);
	char *tok;

	assert_non_null(o);
	tok = strdup(json_string_value(json_object_get(o, "authtoken")));
	json_decref(o);
	assert_non_null(tok);
	return tok;
}

static struct lr_auth_server *server(bool pkcs1, const char *users, int skew)
{
	struct lr_auth_opts o = {.private_key = FIX "server_private.pem",
				 .users = users ? users : FIX "users.csv",
				 .skew_s = skew,
				 .pkcs1 = pkcs1};
	struct lr_auth_server *s;
	char err[LR_AUTH_ERR_MAX];

	if (lr_auth_server_open(&s, &o, err) < 0)
		fail_msg("server open: %s", err);
	return s;
}

static void test_iperf3_312_token_accepted(void **state)
{
	struct lr_auth_server *s = server(true, NULL, 0);
	char *tok = captured_token();
	char why[LR_AUTH_ERR_MAX];

	(void)state;
	assert_int_equal(lr_auth_server_check(s, tok, CAPTURED_TS, why), 0);
	assert_string_equal(why, "user alice");
	/* iperf3's default threshold is 10 s, inclusive */
	assert_int_equal(lr_auth_server_check(s, tok, CAPTURED_TS + 10, why), 0);
	assert_int_equal(lr_auth_server_check(s, tok, CAPTURED_TS - 10, why), 0);
	assert_int_equal(lr_auth_server_check(s, tok, CAPTURED_TS + 11, why), -EACCES);
	assert_non_null(strstr(why, "11 s apart"));
	assert_int_equal(lr_auth_server_check(s, tok, CAPTURED_TS - 11, why), -EACCES);
	lr_auth_server_close(s);

	s = server(true, NULL, 100); /* --time-skew-threshold 100 */
	assert_int_equal(lr_auth_server_check(s, tok, CAPTURED_TS + 100, why), 0);
	assert_int_equal(lr_auth_server_check(s, tok, CAPTURED_TS + 101, why), -EACCES);
	lr_auth_server_close(s);
	free(tok);
}

static void test_iperf3_312_token_refused(void **state)
{
	struct lr_auth_server *s = server(false, NULL, 0); /* OAEP: 3.12 sent PKCS#1 */
	char *tok = captured_token();
	char why[LR_AUTH_ERR_MAX], path[] = "/tmp/lr_auth_users_XXXXXX";
	int fd;

	(void)state;
	assert_int_equal(lr_auth_server_check(s, tok, CAPTURED_TS, why), -EACCES);
	assert_non_null(strstr(why, "--use-pkcs1-padding"));
	assert_int_equal(lr_auth_server_check(s, NULL, CAPTURED_TS, why), -EACCES);
	assert_non_null(strstr(why, "no authentication token"));
	assert_int_equal(lr_auth_server_check(s, "", CAPTURED_TS, why), -EACCES);
	lr_auth_server_close(s);

	/* the users file is read again per test: alice's hash changed (another password) */
	fd = mkstemp(path);
	assert_true(fd >= 0);
	assert_true(dprintf(fd, "alice,%064d\n", 0) > 0);
	close(fd);
	s = server(true, path, 0);
	assert_int_equal(lr_auth_server_check(s, tok, CAPTURED_TS, why), -EACCES);
	assert_non_null(strstr(why, "user alice: unknown, or the password does not match"));
	/* ... and a line gone bad since the start denies, naming the file and line */
	fd = open(path, O_WRONLY | O_TRUNC);
	assert_true(fd >= 0);
	assert_true(dprintf(fd, "# x\nalice\n") > 0);
	close(fd);
	assert_int_equal(lr_auth_server_check(s, tok, CAPTURED_TS, why), -EACCES);
	assert_non_null(strstr(why, " line 2: "));
	lr_auth_server_close(s);
	unlink(path);
	free(tok);
}

/* Our client's token, read by our server: both paddings, and garbage around it. */
static void test_client_token_roundtrip(void **state)
{
	for (int pk = 0; pk < 2; pk++) {
		struct lr_auth_opts co = {.username = "alice",
					  .password = "s3cret",
					  .public_key = FIX "server_public.pem",
					  .pkcs1 = pk};
		struct lr_auth_client *c;
		struct lr_auth_server *s = server(pk, NULL, 0), *other = server(!pk, NULL, 0);
		char err[LR_AUTH_ERR_MAX], *tok;

		(void)state;
		assert_int_equal(lr_auth_client_open(&c, &co, err), 0);
		assert_int_equal(lr_auth_client_token(c, 1234567890, &tok), 0);
		assert_int_equal(strlen(tok), 344); /* base64 of 256 bytes, one line */
		assert_null(strchr(tok, '\n'));
		assert_int_equal(lr_auth_server_check(s, tok, 1234567890, err), 0);
		assert_int_equal(lr_auth_server_check(other, tok, 1234567890, err), -EACCES);
		tok[10] = tok[10] == 'A' ? 'B' : 'A'; /* one bit of the ciphertext */
		assert_int_equal(lr_auth_server_check(s, tok, 1234567890, err), -EACCES);
		tok[300] = '!';
		assert_int_equal(lr_auth_server_check(s, tok, 1234567890, err), -EACCES);
		free(tok);
		lr_auth_client_close(c);

		co.password = "wrong";
		assert_int_equal(lr_auth_client_open(&c, &co, err), 0);
		assert_int_equal(lr_auth_client_token(c, 1234567890, &tok), 0);
		assert_int_equal(lr_auth_server_check(s, tok, 1234567890, err), -EACCES);
		free(tok);
		lr_auth_client_close(c);
		lr_auth_server_close(s);
		lr_auth_server_close(other);
	}
}

static void test_plain_format_parse(void **state)
{
	static const char want[] = "user: alice\npwd:  s3cret\nts:   1796148559";
	char buf[256], u[LR_AUTH_NAME_MAX + 1], p[LR_AUTH_NAME_MAX + 1], big[300];
	int64_t ts = 0;

	(void)state;
	assert_int_equal(lr_auth_plain_format("alice", "s3cret", CAPTURED_TS, buf, sizeof(buf)), 0);
	assert_string_equal(buf, want);
	assert_int_equal(lr_auth_plain_format("al ice", "x", 1, buf, sizeof(buf)), -EINVAL);
	assert_int_equal(lr_auth_plain_format("a", "", 1, buf, sizeof(buf)), -EINVAL);
	assert_int_equal(lr_auth_plain_format("a", "p\tw", 1, buf, sizeof(buf)), -EINVAL);
	assert_int_equal(lr_auth_plain_format("alice", "s3cret", 1, buf, 20), -ENOSPC);

	assert_int_equal(lr_auth_plain_parse(want, strlen(want), u, p, &ts), 0);
	assert_string_equal(u, "alice");
	assert_string_equal(p, "s3cret");
	assert_int_equal(ts, CAPTURED_TS);
	/* scanf's rules: any blanks between the fields, a sign, trailing blanks or NULs */
	static const char loose[] = "user:alice\r\n\tpwd: x  ts:-5 \n\0\0";
	assert_int_equal(lr_auth_plain_parse(loose, sizeof(loose) - 1, u, p, &ts), 0);
	assert_string_equal(p, "x");
	assert_int_equal(ts, -5);
	static const char *const bad[] = {
		"",
		"user: alice",
		"user: alice\npwd:  x",
		"user: alice\npwd:  x\nts:   ",
		"user: alice\npwd:  x\nts:   12z",
		" user: a\npwd: b\nts: 1",
		"user: a\npwd: b\nts: 9223372036854775808",
		"usr: a\npwd: b\nts: 1",
		"user: a\nts: 1\npwd: b",
		"user: \npwd: b\nts: 1",
	};
	for (size_t i = 0; i < LR_ARRAY_SIZE(bad); i++)
		if (lr_auth_plain_parse(bad[i], strlen(bad[i]), u, p, &ts) != -EINVAL)
			fail_msg("accepted: \"%s\"", bad[i]);
	static const char minus[] = "user: a\npwd: b\nts: -9223372036854775808";
	assert_int_equal(lr_auth_plain_parse(minus, strlen(minus), u, p, &ts), 0);
	assert_true(ts == INT64_MIN);
	/* a word longer than LR_AUTH_NAME_MAX */
	memset(big, 'x', sizeof(big));
	memcpy(big, "user: ", 6);
	memcpy(big + 6 + LR_AUTH_NAME_MAX + 1, "\npwd: b\nts: 1", 13);
	assert_int_equal(lr_auth_plain_parse(big, 6 + LR_AUTH_NAME_MAX + 1 + 13, u, p, &ts),
			 -EINVAL);
	/* the buffer's end is respected: the same text cut short */
	assert_int_equal(lr_auth_plain_parse(want, 7, u, p, &ts), -EINVAL);
}

static void test_hash_matches_sha256sum(void **state)
{
	char line[256], hex[65], u[LR_AUTH_NAME_MAX + 1], h[65];
	FILE *f = fopen(FIX "users.csv", "r");
	bool seen = false;

	(void)state;
	assert_non_null(f);
	lr_auth_user_hash("alice", "s3cret", hex);
	while (fgets(line, sizeof(line), f))
		if (lr_auth_users_line(line, u, h) == 1) {
			assert_string_equal(u, "alice");
			assert_string_equal(h, hex); /* coreutils' sha256sum wrote it */
			seen = true;
		}
	fclose(f);
	assert_true(seen);
}

static void test_users_lines(void **state)
{
	char u[LR_AUTH_NAME_MAX + 1], h[65];
	static const char hx[] = "9FB9349969765CB57B343DAF1872140068C079C5FDF209F18422B11D5B96FAFC";
	char line[128];

	(void)state;
	assert_int_equal(lr_auth_users_line("", u, h), 0);
	assert_int_equal(lr_auth_users_line("  \r\n", u, h), 0);
	assert_int_equal(lr_auth_users_line("#alice,x", u, h), 0);
	snprintf(line, sizeof(line), "bob,%s\r\n", hx);
	assert_int_equal(lr_auth_users_line(line, u, h), 1);
	assert_string_equal(u, "bob");
	assert_string_equal(h, "9fb9349969765cb57b343daf1872140068c079c5fdf209f18422b11d5b96fafc");
	static const char *const bad[] = {
		"alice",
		"alice,",
		",abc",
		"alice,123",
		("al ice,9fb9349969765cb57b343daf1872140068c079c5fdf209f18422b11d5b96fafc"),
	};
	for (size_t i = 0; i < LR_ARRAY_SIZE(bad); i++)
		if (lr_auth_users_line(bad[i], u, h) != -EINVAL)
			fail_msg("accepted: \"%s\"", bad[i]);
	snprintf(line, sizeof(line), "bob,%s,extra", hx);
	assert_int_equal(lr_auth_users_line(line, u, h), -EINVAL);
	snprintf(line, sizeof(line), "bob,%.63sg", hx);
	assert_int_equal(lr_auth_users_line(line, u, h), -EINVAL);
}

static void test_base64(void **state)
{
	uint8_t out[16];
	size_t n = 0;
	char *e;

	(void)state;
	/* RFC 4648 §10's vectors */
	static const char *const plain[] = {"", "f", "fo", "foo", "foob", "fooba", "foobar"};
	static const char *const enc[] = {"",	      "Zg==",	  "Zm8=",    "Zm9v",
					  "Zm9vYg==", "Zm9vYmE=", "Zm9vYmFy"};
	for (size_t i = 0; i < LR_ARRAY_SIZE(plain); i++) {
		assert_int_equal(
			lr_auth_b64_encode((const uint8_t *)plain[i], strlen(plain[i]), &e), 0);
		assert_string_equal(e, enc[i]);
		free(e);
		assert_int_equal(lr_auth_b64_decode(enc[i], strlen(enc[i]), out, sizeof(out), &n),
				 0);
		assert_int_equal(n, strlen(plain[i]));
		assert_memory_equal(out, plain[i], n);
	}
	static const char *const bad[] = {"Zg=",  "Zg=a",     "Z===", "Zm9v\n",
					  "Zm=v", "Zg==Zg==", "Zm9*"};
	for (size_t i = 0; i < LR_ARRAY_SIZE(bad); i++)
		if (lr_auth_b64_decode(bad[i], strlen(bad[i]), out, sizeof(out), &n) != -EINVAL)
			fail_msg("accepted: \"%s\"", bad[i]);
	assert_int_equal(lr_auth_b64_decode("Zm9vYmFy", 8, out, 5, &n), -ENOSPC);
}

static void expect_open_error(const struct lr_auth_opts *o, bool srv, const char *want)
{
	char err[LR_AUTH_ERR_MAX] = "";

	if (lr_auth_opts_check(o, srv, err) == 0 || !strstr(err, want))
		fail_msg("error \"%s\" lacks \"%s\"", err, want);
}

static void test_bad_files(void **state)
{
	char path[] = "/tmp/lr_auth_users_XXXXXX";
	int fd = mkstemp(path);
	struct lr_auth_opts o = {.private_key = FIX "server_private.pem", .users = path};
	struct lr_auth_opts c = {
		.username = "alice", .password = "s3cret", .public_key = FIX "server_public.pem"};
	char err[LR_AUTH_ERR_MAX], name[200];

	(void)state;
	assert_true(fd >= 0);
	close(fd);
	snprintf(name, sizeof(name), "--authorized-users-path %s: names no user", path);
	expect_open_error(&o, true, name);
	fd = open(path, O_WRONLY | O_TRUNC);
	assert_true(dprintf(fd, "# users\n\nalice,%064d\nbob;%064d\n", 0, 0) > 0);
	close(fd);
	snprintf(name, sizeof(name), "--authorized-users-path %s line 4: ", path);
	expect_open_error(&o, true, name);
	unlink(path);
	expect_open_error(&o, true, ": No such file or directory");

	o.users = FIX "users.csv";
	o.private_key = FIX "server_public.pem";
	expect_open_error(&o, true,
			  "--rsa-private-key-path " FIX "server_public.pem: not an "
			  "unencrypted PEM private key");
	o.private_key = FIX "encrypted_private.pem";
	expect_open_error(&o, true, "encrypted_private.pem: not an unencrypted");
	o.private_key = FIX "users.csv";
	expect_open_error(&o, true, "users.csv: not an unencrypted");
	o.private_key = NULL;
	expect_open_error(&o, true, "go together");
	o.private_key = FIX "server_private.pem";
	assert_int_equal(lr_auth_opts_check(&o, true, err), 0);

	assert_int_equal(lr_auth_opts_check(&c, false, err), 0);
	c.public_key = FIX "server_private.pem";
	expect_open_error(&c, false,
			  "--rsa-public-key-path " FIX "server_private.pem: not a PEM "
			  "public key");
	c.public_key = FIX "missing.pem";
	expect_open_error(&c, false, "missing.pem: No such file");
	c.public_key = FIX "server_public.pem";
	c.password = NULL;
	expect_open_error(&c, false, "IPERF3_PASSWORD");
	c.password = "two words";
	expect_open_error(&c, false, "IPERF3_PASSWORD: 1 to");
	c.password = "s3cret";
	c.username = "a b";
	expect_open_error(&c, false, "--username: 1 to");
	/* too long for one OAEP block of a 2048-bit key: 214 bytes */
	memset(name, 'u', LR_AUTH_NAME_MAX);
	name[LR_AUTH_NAME_MAX] = '\0';
	c.username = name;
	c.password = name + 20;
	expect_open_error(&c, false, "a 2048-bit key holds 214 bytes with OAEP padding");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_iperf3_312_token_accepted),
		cmocka_unit_test(test_iperf3_312_token_refused),
		cmocka_unit_test(test_client_token_roundtrip),
		cmocka_unit_test(test_plain_format_parse),
		cmocka_unit_test(test_hash_matches_sha256sum),
		cmocka_unit_test(test_users_lines),
		cmocka_unit_test(test_base64),
		cmocka_unit_test(test_bad_files),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
