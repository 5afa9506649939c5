// SPDX-License-Identifier: GPL-2.0-or-later
/* iperf3's remaining options (cli_iperf3.c): each reaches the config with iperf3's meaning, a
 * bad value is one line naming the option, and the one not implemented (-L) is refused by name,
 * never silently accepted. */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <cmocka.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

#include "linerate/app/cli.h"
#include "linerate/app/config.h"

#define ARGV(...) ((char **)(const char *[]){"linerate", __VA_ARGS__, NULL})
#define ARGC(...) ((int)(sizeof((const char *[]){"linerate", __VA_ARGS__}) / sizeof(char *)))
#define PARSE(cfg, err, ...) lr_cli_parse(ARGC(__VA_ARGS__), ARGV(__VA_ARGS__), true, cfg, err, sizeof(err))

static void test_client_options_reach_the_config(void **state)
{
	struct lr_config cfg;
	char err[256];
	const struct lr_traffic_config *t = &cfg.traffic;

	(void)state;
	assert_int_equal(PARSE(&cfg, err, "-c", "h", "--headless", "-n", "100M", "-N", "-S",
			       "0x10", "-4", "-Z", "--fq-rate", "50M", "--cport", "40000",
			       "--repeating-payload", "--extra-data", "x y", "--dont-fragment",
			       "--skip-rx-copy", "--cntl-ka=7/3/4", "--get-server-output", "-O",
			       "2"),
			 0);
	assert_int_equal(t->num_bytes, 100ULL << 20);
	assert_true(t->nodelay);
	assert_int_equal(t->tos, 16);
	assert_int_equal(t->family, AF_INET);
	assert_true(t->zerocopy);
	assert_int_equal(t->fq_rate_bps, 50000000);
	assert_int_equal(t->cport, 40000);
	assert_true(t->repeating_payload);
	assert_string_equal(t->extra_data, "x y");
	assert_true(t->dont_fragment && t->skip_rx_copy && t->get_server_output);
	assert_true(t->cntl_ka);
	assert_int_equal(t->ka_idle, 7);
	assert_int_equal(t->ka_intv, 3);
	assert_int_equal(t->ka_cnt, 4);
	assert_int_equal(t->omit_s, 2);
	/* --dscp names as iperf3's: EF = 46, AF41 = 34; TOS is DSCP << 2 */
	assert_int_equal(PARSE(&cfg, err, "-c", "h", "--dscp", "EF"), 0);
	assert_int_equal(t->tos, 46 << 2);
	assert_int_equal(PARSE(&cfg, err, "-c", "h", "--dscp", "af41", "-6", "-k", "10K",
			       "-u", "--udp-counters-64bit", "--json-stream"),
			 0);
	assert_int_equal(t->tos, 34 << 2);
	assert_int_equal(t->family, AF_INET6);
	assert_int_equal(t->blockcount, 10240);
	assert_true(t->udp_64bit && cfg.json_stream && cfg.json);
}

static void test_server_options(void **state)
{
	struct lr_config cfg;
	char err[256];

	(void)state;
	assert_int_equal(PARSE(&cfg, err, "-s", "--idle-timeout", "5", "--server-bitrate-limit",
			       "1G/3"),
			 0);
	assert_int_equal(cfg.traffic.idle_timeout_s, 5);
	assert_int_equal(cfg.traffic.server_rate_limit_bps, 1000000000ULL);
	assert_int_equal(cfg.traffic.server_rate_limit_ms, 3000);
	assert_int_equal(PARSE(&cfg, err, "-s", "--server-bitrate-limit", "1G/2.5"), 0);
	assert_int_equal(cfg.traffic.server_rate_limit_ms, 2500);
	assert_int_equal(PARSE(&cfg, err, "-s", "--server-bitrate-limit", "1G"), 0);
	assert_int_equal(cfg.traffic.server_rate_limit_ms, 5000);	/* iperf3's default */
	assert_int_equal(PARSE(&cfg, err, "-s", "--server-bitrate-limit", "1G/0"), -EINVAL);
	assert_int_equal(PARSE(&cfg, err, "-s", "--server-bitrate-limit", "1G/61"), -EINVAL);
	assert_int_equal(PARSE(&cfg, err, "-c", "h", "--idle-timeout", "5"), -EINVAL);
	assert_string_equal(err, "--idle-timeout is a server option: it needs -s");
}

static void test_bad_values_name_the_option(void **state)
{
	struct lr_config cfg;
	char err[256];

	(void)state;
	assert_int_equal(PARSE(&cfg, err, "-c", "h", "-S", "256"), -EINVAL);
	assert_string_equal(err, "-S: invalid TOS '256' (0 to 255, e.g. 0x10)");
	assert_int_equal(PARSE(&cfg, err, "-c", "h", "--dscp", "AF51"), -EINVAL);
	assert_int_equal(PARSE(&cfg, err, "-c", "h", "-n", "1M", "-t", "3"), -EINVAL);
	assert_string_equal(err, "-n and -t exclude each other");
	/* iperf3 3.12: "only one test end condition (-t, -n, -k) may be specified" */
	assert_int_equal(PARSE(&cfg, err, "-c", "h", "-n", "1M", "-k", "10"), -EINVAL);
	assert_string_equal(err, "-n and -k exclude each other");
	assert_int_equal(PARSE(&cfg, err, "-c", "h", "-L", "0"), -EINVAL);
	assert_string_equal(err, "-L/--flowlabel: invalid flow label '0' (1 to 0xfffff)");
	assert_int_equal(PARSE(&cfg, err, "-c", "h", "-L", "0x100000"), -EINVAL);
	assert_int_equal(PARSE(&cfg, err, "-c", "h", "-L", "0xfffff"), 0);
	assert_int_equal(cfg.traffic.flowlabel, 0xfffff);
	assert_int_equal(PARSE(&cfg, err, "-s", "-L", "5"), -EINVAL);
	assert_string_equal(err, "-L/--flowlabel is a client option: it needs -c");
	assert_int_equal(PARSE(&cfg, err, "-s", "--json-stream"), 0);	/* iperf3 3.17+ -s's */
	assert_true(cfg.json_stream && cfg.json);
	assert_int_equal(PARSE(&cfg, err, "-c", "h", "--cntl-ka=1/x"), -EINVAL);
	assert_int_equal(PARSE(&cfg, err, "-c", "h", "-O", "1.5"), -EINVAL);
	assert_string_equal(err, "-O: whole seconds only, as iperf3 sends them");
	assert_int_equal(PARSE(&cfg, err, "-s", "-O", "1"), -EINVAL);
}

#define AFIX "tests/fixtures/auth/"

/* iperf3's authentication options: each on its side, the password from IPERF3_PASSWORD only,
 * the files read at parse time (test_auth.c covers what is wrong with a file). */
/* -d[LEVEL] on both sides as iperf3's: no level (or a negative one) is the most, 4; the output
 * goes to stderr, so -d takes the headless form as -J does. */
static void test_debug_levels(void **state)
{
	struct lr_config cfg;
	char err[256];

	(void)state;
	assert_int_equal(PARSE(&cfg, err, "-c", "h"), 0);
	assert_int_equal(cfg.debug, -1);
	assert_int_equal(PARSE(&cfg, err, "-c", "h", "-d"), 0);
	assert_int_equal(cfg.debug, 4);
	assert_true(cfg.headless);
	assert_int_equal(PARSE(&cfg, err, "-s", "--debug=3"), 0);
	assert_int_equal(cfg.debug, 3);
	assert_int_equal(PARSE(&cfg, err, "-s", "-d0"), 0);
	assert_int_equal(cfg.debug, 0);
	assert_int_equal(PARSE(&cfg, err, "-c", "h", "--debug=-2"), 0);
	assert_int_equal(cfg.debug, 4);
	assert_int_equal(PARSE(&cfg, err, "-c", "h", "--debug=x"), -EINVAL);
	assert_non_null(strstr(err, "-d/--debug"));
	/* the last of cli_iperf3.c's table is known to getopt: refused by name, not "unknown" */
	assert_int_equal(PARSE(&cfg, err, "-c", "h", "--nstreams", "2"), -EINVAL);
	assert_non_null(strstr(err, "--nstreams: no SCTP"));
}

/* --server-max-duration N: a server's, 0 (none) to iperf3's MAX_TIME (86400) */
static void test_server_max_duration(void **state)
{
	struct lr_config cfg;
	char err[256];

	(void)state;
	assert_int_equal(PARSE(&cfg, err, "-s", "--server-max-duration", "30"), 0);
	assert_int_equal(cfg.traffic.server_max_duration_s, 30);
	assert_int_equal(PARSE(&cfg, err, "-c", "h", "--server-max-duration", "30"), -EINVAL);
	assert_non_null(strstr(err, "--server-max-duration is a server option"));
	assert_int_equal(PARSE(&cfg, err, "-s", "--server-max-duration", "86401"), -EINVAL);
	assert_non_null(strstr(err, "--server-max-duration: invalid"));
}

/* --json-stream-full-output: the client's, with or without --json-stream (iperf3 ignores it
 * alone); linerate -s refuses it by name */
static void test_json_stream_full(void **state)
{
	struct lr_config cfg;
	char err[256];

	(void)state;
	assert_int_equal(PARSE(&cfg, err, "-c", "h", "--json-stream", "--json-stream-full-output"), 0);
	assert_true(cfg.json_stream && cfg.json_stream_full);
	assert_int_equal(PARSE(&cfg, err, "-c", "h", "--json-stream-full-output"), 0);
	assert_true(cfg.json_stream_full && !cfg.json_stream);
	assert_int_equal(PARSE(&cfg, err, "-s", "--json-stream", "--json-stream-full-output"), -EINVAL);
	assert_non_null(strstr(err, "--json-stream-full-output is a client option"));
}

/* -F FILE as iperf3: no -t/-n/-k on the client is -n the file's size; -t stays -t; no UDP;
 * a server takes it too */
static void test_file(void **state)
{
	char path[] = "/tmp/lr-test-file-XXXXXX";
	int fd = mkstemp(path);
	struct lr_config cfg;
	char err[256];

	(void)state;
	assert_true(fd >= 0);
	assert_int_equal(write(fd, "0123456789", 10), 10);
	close(fd);
	assert_int_equal(PARSE(&cfg, err, "-c", "h", "-F", path), 0);
	assert_string_equal(cfg.traffic.file, path);
	assert_int_equal(cfg.traffic.num_bytes, 10);
	assert_int_equal(PARSE(&cfg, err, "-c", "h", "--file", path, "-t", "3"), 0);
	assert_int_equal(cfg.traffic.num_bytes, 0);
	assert_int_equal(PARSE(&cfg, err, "-c", "h", "-F", path, "-n", "1M"), 0);
	assert_int_equal(cfg.traffic.num_bytes, 1 << 20);
	assert_int_equal(PARSE(&cfg, err, "-c", "h", "-F", path, "-u"), -EINVAL);
	assert_non_null(strstr(err, "cannot transfer a file using UDP"));
	assert_int_equal(PARSE(&cfg, err, "-s", "-F", path), 0);
	assert_int_equal(cfg.traffic.num_bytes, 0);
	unlink(path);
}

static void test_auth_options(void **state)
{
	struct lr_config cfg;
	char err[256];
	const struct lr_auth_opts *a = &cfg.traffic.auth;

	(void)state;
	assert_int_equal(PARSE(&cfg, err, "-s", "--rsa-private-key-path", AFIX "server_private.pem",
			       "--authorized-users-path", AFIX "users.csv", "--time-skew-threshold",
			       "30", "--use-pkcs1-padding"),
			 0);
	assert_string_equal(a->private_key, AFIX "server_private.pem");
	assert_string_equal(a->users, AFIX "users.csv");
	assert_int_equal(a->skew_s, 30);
	assert_true(a->pkcs1);
	assert_int_equal(setenv("IPERF3_PASSWORD", "s3cret", 1), 0);
	assert_int_equal(PARSE(&cfg, err, "-c", "h", "--headless", "--username", "alice",
			       "--rsa-public-key-path", AFIX "server_public.pem"),
			 0);
	assert_string_equal(a->username, "alice");
	assert_string_equal(a->password, "s3cret");
	assert_false(a->pkcs1);
	assert_int_not_equal(PARSE(&cfg, err, "-c", "h", "--username", "alice"), 0);
	assert_non_null(strstr(err, "go together"));
	assert_int_not_equal(PARSE(&cfg, err, "-s", "--username", "alice"), 0);
	assert_non_null(strstr(err, "--username is a client option"));
	assert_int_not_equal(PARSE(&cfg, err, "-c", "h", "--authorized-users-path", "u"), 0);
	assert_non_null(strstr(err, "--authorized-users-path is a server option"));
	assert_int_not_equal(PARSE(&cfg, err, "-s", "--authorized-users-path", AFIX "users.csv"), 0);
	assert_non_null(strstr(err, "go together"));
	assert_int_not_equal(PARSE(&cfg, err, "-s", "--time-skew-threshold", "0"), 0);
	assert_non_null(strstr(err, "--time-skew-threshold: invalid"));
	assert_int_not_equal(PARSE(&cfg, err, "-s", "--time-skew-threshold", "5"), 0);
	assert_non_null(strstr(err, "--time-skew-threshold needs"));
	assert_int_not_equal(PARSE(&cfg, err, "-c", "h", "--use-pkcs1-padding"), 0);
	assert_non_null(strstr(err, "--use-pkcs1-padding needs"));
	assert_int_equal(unsetenv("IPERF3_PASSWORD"), 0);
	assert_int_not_equal(PARSE(&cfg, err, "-c", "h", "--username", "alice",
				   "--rsa-public-key-path", AFIX "server_public.pem"),
			     0);
	assert_non_null(strstr(err, "IPERF3_PASSWORD"));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_client_options_reach_the_config),
		cmocka_unit_test(test_server_options),
		cmocka_unit_test(test_bad_values_name_the_option),
		cmocka_unit_test(test_auth_options),
		cmocka_unit_test(test_debug_levels),
		cmocka_unit_test(test_server_max_duration),
		cmocka_unit_test(test_json_stream_full),
		cmocka_unit_test(test_file),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
