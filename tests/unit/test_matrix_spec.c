// SPDX-License-Identifier: GPL-2.0-or-later
/* The --matrix SPEC grammar: the cartesian product in written order (last key fastest), the
 * command line's values for keys not in SPEC, iperf3's UDP default rate, and one-line errors
 * naming the bad key or value. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <string.h>

#include "linerate/app/cli.h"
#include "linerate/app/config.h"
#include "linerate/run/matrix_spec.h"

static struct lr_traffic_config base(void)
{
	struct lr_traffic_config t;

	memset(&t, 0, sizeof(t));
	t.host = "10.0.0.2";
	t.port = 5201;
	t.parallel = 1;
	t.affinity = t.server_affinity = -1;
	return t;
}

static void test_product_last_key_fastest(void **state)
{
	struct lr_matrix_spec s;
	struct lr_traffic_config b = base(), tc;
	char err[256] = "";
	/* the 82599 report: streams 1, 2, 4 for TCP and UDP at 1400 bytes */
	static const unsigned want_p[6] = {1, 1, 2, 2, 4, 4};

	(void)state;
	assert_int_equal(lr_matrix_spec_parse("P=1,2,4;u=tcp,udp;l=1400", &s, err, sizeof(err)), 0);
	assert_int_equal(s.n_cases, 6);
	assert_int_equal(s.n_keys, 3);
	assert_int_equal(s.order[0], LR_MK_P);
	assert_int_equal(s.order[2], LR_MK_L);
	for (unsigned i = 0; i < 6; i++) {
		lr_matrix_case(&s, &b, i, &tc);
		assert_int_equal(tc.parallel, want_p[i]);
		assert_int_equal(tc.udp, i % 2 == 1);
		assert_int_equal(tc.length, 1400);
		/* UDP without b= or -b: iperf3's 1 Mbit/s, its UDP_RATE of 1024 x 1024 bit/s (the
		 * rate the client paces at); TCP unlimited */
		assert_true(tc.bitrate_bps == (tc.udp ? 1048576u : 0u));
		assert_string_equal(tc.host, "10.0.0.2");
	}
	/* written order decides, not the key's letter order */
	assert_int_equal(lr_matrix_spec_parse("u=tcp,udp;P=1,2", &s, err, sizeof(err)), 0);
	lr_matrix_case(&s, &b, 1, &tc);
	assert_false(tc.udp);
	assert_int_equal(tc.parallel, 2);
}

static void test_every_key(void **state)
{
	struct lr_matrix_spec s;
	struct lr_traffic_config b = base(), tc;
	char err[256] = "";

	(void)state;
	assert_int_equal(lr_matrix_spec_parse("R=0,1,bidir;b=0,100M,1.5G;w=256K;M=1400;C=cubic,reno;",
					      &s, err, sizeof(err)), 0);
	assert_int_equal(s.n_cases, 18);
	lr_matrix_case(&s, &b, 0, &tc);
	assert_false(tc.reverse);
	assert_false(tc.bidir);
	assert_true(tc.bitrate_set);
	assert_true(tc.bitrate_bps == 0);
	assert_true(tc.window == 256 * 1024);
	assert_int_equal(tc.mss, 1400);
	assert_string_equal(tc.congestion, "cubic");
	lr_matrix_case(&s, &b, 17, &tc);
	assert_true(tc.bidir);
	assert_false(tc.reverse);
	assert_true(tc.bitrate_bps == 1500000000ULL);
	assert_string_equal(tc.congestion, "reno");
	lr_matrix_case(&s, &b, 6, &tc);	/* R=1, b=0, C=cubic */
	assert_true(tc.reverse);
	assert_string_equal(tc.congestion, "cubic");
}

/* Keys not in SPEC keep the command line's values; -b given means UDP and TCP use it. */
static void test_base_kept(void **state)
{
	struct lr_matrix_spec s;
	struct lr_traffic_config b = base(), tc;
	char err[256] = "";

	(void)state;
	b.parallel = 3;
	b.reverse = true;
	b.bitrate_bps = 50000000;
	b.bitrate_set = true;
	assert_int_equal(lr_matrix_spec_parse("u=udp,tcp", &s, err, sizeof(err)), 0);
	for (unsigned i = 0; i < 2; i++) {
		lr_matrix_case(&s, &b, i, &tc);
		assert_int_equal(tc.parallel, 3);
		assert_true(tc.reverse);
		assert_true(tc.bitrate_bps == 50000000);
	}
	/* -u without -b (cli set 1M) and a TCP case: unlimited, as iperf3's TCP */
	b = base();
	b.udp = true;
	b.bitrate_bps = 1000000;
	lr_matrix_case(&s, &b, 1, &tc);
	assert_false(tc.udp);
	assert_true(tc.bitrate_bps == 0);
}

#define BAD(spec, msg)                                                              \
	do {                                                                        \
		err[0] = '\0';                                                      \
		assert_int_equal(lr_matrix_spec_parse(spec, &s, err, sizeof(err)), -22); \
		assert_string_equal(err, msg);                                      \
	} while (0)

static void test_errors_name_key_or_value(void **state)
{
	struct lr_matrix_spec s;
	char err[256];

	(void)state;
	BAD("", "--matrix: empty SPEC (e.g. P=1,2,4;u=tcp,udp)");
	BAD("x=1", "--matrix: unknown key 'x' (keys: P l u R b w M C rr)");
	BAD("p=1", "--matrix: unknown key 'p' (keys: P l u R b w M C rr)");
	BAD("PP=1", "--matrix: unknown key 'PP' (keys: P l u R b w M C rr)");
	BAD("P", "--matrix: 'P' is not key=v1,v2,...");
	BAD("P=1;;u=tcp", "--matrix: empty group (groups are key=v1,v2,... joined by ';')");
	BAD("P=1,,2", "--matrix: P: empty value");
	BAD("P=", "--matrix: P: empty value");
	BAD("P=1;P=2", "--matrix: key 'P' given twice");
	BAD("P=0", "--matrix: P: bad value '0' (1 to 128 streams)");
	BAD("P=129", "--matrix: P: bad value '129' (1 to 128 streams)");
	BAD("P=1;u=tcp,sctp", "--matrix: u: bad value 'sctp' (tcp or udp)");
	BAD("R=2", "--matrix: R: bad value '2' (0, 1 or bidir)");
	BAD("b=fast", "--matrix: b: bad value 'fast' (a rate, e.g. 100M, 1.5G, 0)");
	BAD("l=0", "--matrix: l: bad value '0' (bytes, e.g. 1400, 128K)");
	BAD("w=1G", "--matrix: w: bad value '1G' (bytes up to 512M)");
	BAD("M=87", "--matrix: M: bad value '87' (88 to 32767)");
	BAD("C=cu bic", "--matrix: C: bad value 'cu bic' (an algorithm name, e.g. cubic)");
	BAD("C=aaaaaaaaaaaaaaaa", "--matrix: C: bad value 'aaaaaaaaaaaaaaaa' (an algorithm name, e.g. cubic)");
	BAD("P=1,2,3,4,5,6,7,8;l=1,2,3,4,5,6,7,8;b=1,2,3,4,5,6,7,8;M=88,89,90,91,92,93,94,95,96",
	    "--matrix: more than 4096 cases");
	BAD("P=1\n", "--matrix: P: bad value '1?' (1 to 128 streams)");
}

static void test_udp_length_checked_per_case(void **state)
{
	struct lr_matrix_spec s;
	struct lr_traffic_config b = base();
	char err[256] = "";

	(void)state;
	assert_int_equal(lr_matrix_spec_parse("u=tcp,udp;l=64,131072", &s, err, sizeof(err)), 0);
	assert_int_equal(lr_matrix_spec_check(&s, &b, err, sizeof(err)), -22);
	assert_string_equal(err, "--matrix: l=131072 is out of range for UDP (16 to 65507), case 4");
	assert_int_equal(lr_matrix_spec_parse("u=tcp,udp;l=64,1400", &s, err, sizeof(err)), 0);
	assert_int_equal(lr_matrix_spec_check(&s, &b, err, sizeof(err)), 0);
}

#define ARGV(...) ((char **)(const char *[]){"linerate", __VA_ARGS__, NULL})
#define ARGC(...) ((int)(sizeof((const char *[]){"linerate", __VA_ARGS__}) / sizeof(char *)))
#define PARSE(cfg, err, ...) lr_cli_parse(ARGC(__VA_ARGS__), ARGV(__VA_ARGS__), true, cfg, err, sizeof(err))

/* The command line: --matrix, --matrix-csv and -O, and what each needs. */
static void test_cli_options(void **state)
{
	struct lr_config cfg;
	char err[256] = "";

	(void)state;
	assert_int_equal(PARSE(&cfg, err, "-c", "h", "--matrix", "P=1,2", "--matrix-csv", "m.csv",
			       "-O", "2", "-t", "3"), 0);
	assert_string_equal(cfg.matrix, "P=1,2");
	assert_string_equal(cfg.matrix_csv, "m.csv");
	assert_true(cfg.omit_ns == 2000000000ULL);
	assert_int_equal(PARSE(&cfg, err, "--matrix", "P=1"), -22);
	assert_string_equal(err, "--matrix needs -c HOST or --demo");
	assert_int_equal(PARSE(&cfg, err, "--demo", "--matrix", "P=1"), -22);
	assert_string_equal(err, "--matrix needs -c HOST");
	assert_int_equal(PARSE(&cfg, err, "-c", "h", "--matrix-csv", "m.csv"), -22);
	assert_string_equal(err, "--matrix-csv needs --matrix");
	/* -O is the engine's, in a single test and in every matrix case alike (whole seconds, as
	 * on iperf3's wire): a case is the single test with the same options */
	assert_int_equal(PARSE(&cfg, err, "-c", "h", "-O", "1.5"), -22);
	assert_string_equal(err, "-O: whole seconds only, as iperf3 sends them");
	assert_int_equal(PARSE(&cfg, err, "-c", "h", "--matrix", "P=1", "-O", "1.5"), -22);
	assert_string_equal(err, "-O: whole seconds only, as iperf3 sends them");
	assert_int_equal(PARSE(&cfg, err, "-c", "h", "--matrix", "P=1", "-O", "1"), 0);
	assert_int_equal(cfg.traffic.omit_s, 1);
	/* a bad SPEC is refused with the other options (main adds the hint to --help) */
	assert_int_equal(PARSE(&cfg, err, "-c", "h", "--matrix", "x=1"), -22);
	assert_string_equal(err, "--matrix: unknown key 'x' (keys: P l u R b w M C rr)");
	assert_int_equal(PARSE(&cfg, err, "-c", "h", "-u", "--matrix", "l=64,70000"), -22);
	assert_non_null(strstr(err, "l=70000 is out of range for UDP"));
	assert_int_equal(PARSE(&cfg, err, "-c", "h", "--matrix", "P=1", "-O", "x"), -22);
	assert_string_equal(err, "-O: invalid omit 'x' (0 to 600 seconds)");
}

/* rr=0,1 (--rr in a case): l sizes both ways, netperf's 1 unset; what --rr excludes is refused
 * per case; and --rr's own command line */
static void test_rr_key_and_option(void **state)
{
	struct lr_matrix_spec s;
	struct lr_traffic_config b = base(), tc;
	struct lr_config cfg;
	char err[256];

	(void)state;
	assert_int_equal(lr_matrix_spec_parse("rr=0,1;l=64", &s, err, sizeof(err)), 0);
	lr_matrix_case(&s, &b, 0, &tc);
	assert_int_equal(tc.rr_req_bytes, 0);
	assert_int_equal(tc.length, 64);
	lr_matrix_case(&s, &b, 1, &tc);
	assert_int_equal(tc.rr_req_bytes, 64);
	assert_int_equal(tc.rr_resp_bytes, 64);
	assert_int_equal(lr_matrix_spec_parse("rr=1;u=udp", &s, err, sizeof(err)), 0);
	lr_matrix_case(&s, &b, 0, &tc);
	assert_int_equal(tc.rr_req_bytes, 1);
	assert_int_equal(tc.length, 16);	/* iperf3's smallest datagram on the wire */
	assert_int_equal(lr_matrix_spec_check(&s, &b, err, sizeof(err)), 0);
	BAD("rr=2", "--matrix: rr: bad value '2' (0 or 1)");
	BAD("rr=1;rr=0", "--matrix: key 'rr' given twice");
	BAD("r=1", "--matrix: unknown key 'r' (keys: P l u R b w M C rr)");
	assert_int_equal(lr_matrix_spec_parse("rr=1;R=0,1", &s, err, sizeof(err)), 0);
	assert_int_equal(lr_matrix_spec_check(&s, &b, err, sizeof(err)), -22);
	assert_string_equal(err, "--matrix: rr=1 excludes R=1, case 2");

	assert_int_equal(PARSE(&cfg, err, "-c", "h", "-J", "--rr", "-l", "64,1K"), 0);
	assert_int_equal(cfg.traffic.rr_req_bytes, 64);
	assert_int_equal(cfg.traffic.rr_resp_bytes, 1024);
	assert_int_equal(cfg.traffic.length, 1024);
	assert_int_equal(PARSE(&cfg, err, "-c", "h", "-J", "--rr", "-u"), 0);
	assert_int_equal(cfg.traffic.rr_req_bytes, 1);
	assert_int_equal(cfg.traffic.rr_resp_bytes, 1);
	assert_int_equal(cfg.traffic.length, 16);
	assert_int_equal(PARSE(&cfg, err, "-c", "h", "-J", "--rr", "-l", "200"), 0);
	assert_int_equal(cfg.traffic.rr_resp_bytes, 200);
	assert_int_equal(PARSE(&cfg, err, "-c", "h", "-J", "-l", "1,1"), -22);
	assert_string_equal(err, "-l REQ,RESP: two sizes are --rr's");
	/* in a terminal too: --rr prints its table, it draws no dashboard */
	assert_int_equal(PARSE(&cfg, err, "-c", "h", "--rr"), 0);
	assert_int_equal(cfg.mode, LR_MODE_HEADLESS);
	assert_int_equal(PARSE(&cfg, err, "-c", "h", "-J", "--rr", "-R"), -22);
	assert_string_equal(err, "--rr excludes -R");
	assert_int_equal(PARSE(&cfg, err, "-c", "h", "-J", "--rr", "--matrix", "rr=0,1"), -22);
	assert_string_equal(err, "--rr excludes --matrix (its key rr=0,1 runs it)");
	assert_int_equal(PARSE(&cfg, err, "-c", "h", "-J", "--rr", "-u", "-l", "1,70000"), -22);
	assert_string_equal(err, "-l: 1,70000 is out of range for UDP_RR (1 to 65507)");
	assert_int_equal(PARSE(&cfg, err, "-s", "--rr"), -22);
	assert_string_equal(err, "--rr needs -c HOST");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_product_last_key_fastest),
		cmocka_unit_test(test_every_key),
		cmocka_unit_test(test_base_kept),
		cmocka_unit_test(test_errors_name_key_or_value),
		cmocka_unit_test(test_udp_length_checked_per_case),
		cmocka_unit_test(test_cli_options),
		cmocka_unit_test(test_rr_key_and_option),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
