// SPDX-License-Identifier: GPL-2.0-or-later
/* Command-line parsing: defaults, iperf3's letters, and one-line errors naming the option. */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <string.h>

#include "linerate/app/cli.h"
#include "linerate/app/config.h"

#define ARGV(...) ((char **)(const char *[]){"linerate", __VA_ARGS__, NULL})
#define ARGC(...) ((int)(sizeof((const char *[]){"linerate", __VA_ARGS__}) / sizeof(char *)))
#define PARSE(cfg, err, ...) lr_cli_parse(ARGC(__VA_ARGS__), ARGV(__VA_ARGS__), true, cfg, err, sizeof(err))

static void test_defaults(void **state)
{
	struct lr_config cfg;
	char err[256] = "";

	(void)state;
	assert_int_equal(lr_cli_parse(1, (char **)(const char *[]){"linerate", NULL}, true, &cfg, err, sizeof(err)), 0);
	assert_int_equal(cfg.mode, LR_MODE_DASHBOARD);
	assert_int_equal(cfg.interval_ns, 500000000ULL);
	assert_int_equal(cfg.source, LR_SOURCE_NETLINK);
	assert_int_equal(cfg.traffic.port, 5201);
	assert_int_equal(cfg.traffic.parallel, 1);
}

static void test_headless_options(void **state)
{
	struct lr_config cfg;
	char err[256] = "";

	(void)state;
	assert_int_equal(PARSE(&cfg, err, "--headless", "-i", "0.1", "-t", "30", "--csv", "run.csv",
			       "--cpu-csv", "cpu.csv", "-I", "eth0,eth1", "--source", "proc"),
			 0);
	assert_int_equal(cfg.mode, LR_MODE_HEADLESS);
	assert_int_equal(cfg.interval_ns, 100000000ULL);
	assert_int_equal(cfg.duration_ns, 30000000000ULL);
	assert_string_equal(cfg.csv, "run.csv");
	assert_string_equal(cfg.cpu_csv, "cpu.csv");
	assert_string_equal(cfg.ifaces, "eth0,eth1");
	assert_int_equal(cfg.source, LR_SOURCE_PROC);
}

static void test_traffic_options(void **state)
{
	struct lr_config cfg;
	char err[256] = "";

	(void)state;
	assert_int_equal(PARSE(&cfg, err, "-c", "10.1.1.2", "-u", "-P", "4", "-b", "1.5G", "-l",
			       "1400", "-R", "-p", "5202", "-w", "4M", "-A", "3", "-C", "bbr"),
			 0);
	assert_string_equal(cfg.traffic.host, "10.1.1.2");
	assert_true(cfg.traffic.udp && cfg.traffic.reverse);
	assert_int_equal(cfg.traffic.parallel, 4);
	assert_int_equal(cfg.traffic.bitrate_bps, 1500000000ULL);
	assert_int_equal(cfg.traffic.length, 1400);
	assert_int_equal(cfg.traffic.port, 5202);
	assert_int_equal(cfg.traffic.window, 4 * 1024 * 1024);
	assert_int_equal(cfg.traffic.affinity, 3);
	assert_int_equal(cfg.traffic.server_affinity, -1);
	assert_false(cfg.traffic.no_latency);
	assert_int_equal(PARSE(&cfg, err, "-c", "h", "--no-latency"), 0);
	assert_true(cfg.traffic.no_latency);
	assert_int_equal(PARSE(&cfg, err, "--no-latency"), -22);	/* a client's option */
	assert_string_equal(err, "--no-latency needs -c HOST or --demo");
	/* iperf3's -A n,m: m is asked of the server */
	assert_int_equal(PARSE(&cfg, err, "-c", "h", "-A", "0,1"), 0);
	assert_int_equal(cfg.traffic.affinity, 0);
	assert_int_equal(cfg.traffic.server_affinity, 1);
	assert_int_not_equal(PARSE(&cfg, err, "-c", "h", "-A", "0,"), 0);
	assert_non_null(strstr(err, "-A: invalid CPU '0,'"));
	assert_int_not_equal(PARSE(&cfg, err, "-c", "h", "-A", "1,x"), 0);
	assert_int_not_equal(PARSE(&cfg, err, "-c", "h", "-A", "1024"), 0);
	/* -A node:N (issue 19): node 0 exists on every Linux (or is every CPU without NUMA) */
	assert_int_equal(PARSE(&cfg, err, "-c", "h", "-A", "node:0,1"), 0);
	assert_int_equal(cfg.traffic.affinity, -1);
	assert_int_equal(cfg.traffic.affinity_node, 0);
	assert_int_equal(cfg.traffic.server_affinity, 1);
	assert_true(CPU_COUNT(&cfg.traffic.affinity_cpus) >= 1);
	assert_int_equal(PARSE(&cfg, err, "-c", "h", "-A", "2"), 0);
	assert_int_equal(cfg.traffic.affinity_node, -1);	/* a CPU number again */
	assert_int_not_equal(PARSE(&cfg, err, "-c", "h", "-A", "node:"), 0);
	assert_int_not_equal(PARSE(&cfg, err, "-c", "h", "-A", "node:1024"), 0);
	assert_non_null(strstr(err, "-A: invalid CPU 'node:1024'"));
	assert_int_not_equal(PARSE(&cfg, err, "-c", "h", "-A", "node:1023"), 0);	/* none here */
	assert_non_null(strstr(err, "no such NUMA node"));
	/* UDP without -b gets iperf3's 1 Mbit/s (its UDP_RATE, 1024 * 1024) */
	assert_int_equal(PARSE(&cfg, err, "-c", "h", "-u"), 0);
	assert_int_equal(cfg.traffic.bitrate_bps, 1048576);
}

static void test_server_and_explain(void **state)
{
	struct lr_config cfg;
	char err[256] = "";

	(void)state;
	assert_int_equal(PARSE(&cfg, err, "-s", "-p", "5301", "-1"), 0);
	assert_int_equal(cfg.mode, LR_MODE_SERVER);
	assert_true(cfg.traffic.one_off);
	assert_int_equal(PARSE(&cfg, err, "--explain", "a.txt", "b.txt", "--csv", "-"), 0);
	assert_int_equal(cfg.mode, LR_MODE_EXPLAIN);
	assert_string_equal(cfg.explain[0], "a.txt");
	assert_string_equal(cfg.explain[1], "b.txt");
}

static void test_errors_name_the_option(void **state)
{
	struct lr_config cfg;
	char err[256];

	(void)state;
	assert_int_equal(PARSE(&cfg, err, "-i", "0"), -22);
	assert_string_equal(err, "-i: invalid interval '0' (0.01 to 60 seconds)");
	assert_int_equal(PARSE(&cfg, err, "-i", "61"), -22);
	assert_int_equal(PARSE(&cfg, err, "-i", "0,5"), -22);	/* no decimal comma, ever */
	assert_int_equal(PARSE(&cfg, err, "-P", "129", "-c", "h"), -22);
	assert_string_equal(err, "-P: invalid stream count '129' (1 to 128)");
	assert_int_equal(PARSE(&cfg, err, "--bogus"), -22);
	assert_string_equal(err, "unknown option '--bogus'");
	assert_int_equal(PARSE(&cfg, err, "-i"), -22);
	assert_string_equal(err, "-i needs a value");
	assert_int_equal(PARSE(&cfg, err, "-u"), -22);
	assert_string_equal(err, "-u needs -c HOST or --demo");
	assert_int_equal(PARSE(&cfg, err, "-c", "h", "-u", "-l", "8"), -22);
	assert_string_equal(err, "-l: 8 is out of range for UDP (16 to 65507)");
	assert_int_equal(PARSE(&cfg, err, "--source", "snmp"), -22);
	assert_int_equal(PARSE(&cfg, err, "-c", "h", "-s"), -22);
	assert_int_equal(PARSE(&cfg, err, "-p", "0"), -22);
	assert_int_equal(PARSE(&cfg, err, "stray"), -22);
	assert_string_equal(err, "unexpected argument 'stray'");
	assert_int_equal(PARSE(&cfg, err, "-b", "fast", "-c", "h"), -22);
	assert_int_equal(PARSE(&cfg, err, "-c", "h", "-R", "--bidir"), -22);
}

/* Found by fuzz_cli: a parse that stopped inside "-Xs" left glibc's getopt pointing at the
 * "s" of the old argv, and the next parse read it (mode server, or a use-after-free when that
 * argv was gone). */
static void test_repeated_parse_starts_fresh(void **state)
{
	struct lr_config cfg;
	char err[256];

	(void)state;
	assert_int_equal(PARSE(&cfg, err, "-Xs"), -22);
	assert_int_equal(PARSE(&cfg, err, "--headless"), 0);
	assert_int_equal(cfg.mode, LR_MODE_HEADLESS);
	assert_int_equal(PARSE(&cfg, err, "-1uX", "-c", "h"), -22);
	assert_int_equal(PARSE(&cfg, err, "-c", "h"), 0);
	assert_false(cfg.traffic.udp);
}

/* iperf3 3.22's last options: -b RATE/BURST (1..1000), HOST%DEV (not after an IPv6
 * link-local literal, whose %DEV is its scope), -m, --pacing-timer; SCTP refused by name. */
static void test_iperf3_322_options(void **state)
{
	struct lr_config cfg;
	char err[256];

	(void)state;
	assert_int_equal(PARSE(&cfg, err, "-c", "h%eth1", "-b", "10M/100", "-m"), 0);
	assert_string_equal(cfg.traffic.host, "h");
	assert_string_equal(cfg.traffic.bind_dev, "eth1");
	assert_int_equal(cfg.traffic.burst, 100);
	assert_true(cfg.traffic.bitrate_bps == 10000000);
	assert_true(cfg.traffic.mptcp);
	assert_int_equal(PARSE(&cfg, err, "-c", "fe80::1%eth1"), 0);
	assert_string_equal(cfg.traffic.host, "fe80::1%eth1");
	assert_string_equal(cfg.traffic.bind_dev, "");
	assert_int_equal(PARSE(&cfg, err, "-c", "h", "-b", "1M/0"), -22);
	assert_int_equal(PARSE(&cfg, err, "-c", "h", "-b", "1M/1001"), -22);
	assert_int_equal(PARSE(&cfg, err, "-c", "h", "--pacing-timer", "2K"), 0);
	assert_int_equal(cfg.traffic.pacing_timer_us, 2048);
	assert_int_equal(PARSE(&cfg, err, "-c", "h", "-m", "-u"), -22);
	assert_int_equal(PARSE(&cfg, err, "-s", "--bind-dev", "eth0", "-m"), 0);
	assert_int_equal(PARSE(&cfg, err, "-c", "h", "--sctp"), -22);
	assert_non_null(strstr(err, "--sctp: no SCTP"));
}

/* Inside a cluster the bad letter is named, not the word before it. */
static void test_cluster_errors_name_the_letter(void **state)
{
	struct lr_config cfg;
	char err[256];

	(void)state;
	assert_int_equal(PARSE(&cfg, err, "-Qs"), -22);
	assert_string_equal(err, "unknown option '-Q'");
	assert_int_equal(PARSE(&cfg, err, "-c", "h", "-1Q"), -22);
	assert_string_equal(err, "unknown option '-Q'");
	assert_int_equal(PARSE(&cfg, err, "-1i"), -22);
	assert_string_equal(err, "-i needs a value");
	assert_int_equal(PARSE(&cfg, err, "--csv"), -22);
	assert_string_equal(err, "--csv needs a value");
}

/* Found by fuzz_cli: above 2^63 bit/s llround overflowed and -b came back as 2^63. */
static void test_huge_bitrate_exact(void **state)
{
	struct lr_config cfg;
	char err[256];

	(void)state;
	assert_int_equal(PARSE(&cfg, err, "-c", "h", "-b", "10000000000000000000"), 0);
	assert_true(cfg.traffic.bitrate_bps == 10000000000000000000ULL);
	assert_int_equal(PARSE(&cfg, err, "-c", "h", "-b", "20000000000000000000"), -22);
}

/* iperf3's -T is the title; the theme is --theme only; iperf3's output options and their modes. */
static void test_iperf3_output_options(void **state)
{
	struct lr_config cfg;
	char err[256] = "";

	(void)state;
	assert_int_equal(PARSE(&cfg, err, "-c", "h", "--headless", "-T", "box 7", "--timestamps",
			       "--logfile", "out.log", "--forceflush", "--pidfile", "p"), 0);
	assert_string_equal(cfg.title, "box 7");
	assert_null(cfg.theme);
	assert_string_equal(cfg.timestamps, "%c ");
	assert_string_equal(cfg.logfile, "out.log");
	assert_true(cfg.forceflush);
	assert_string_equal(cfg.pidfile, "p");
	assert_int_equal(PARSE(&cfg, err, "-s", "--timestamps=%H:%M ", "-D"), 0);
	assert_string_equal(cfg.timestamps, "%H:%M ");
	assert_true(cfg.daemon);
	assert_int_equal(PARSE(&cfg, err, "--theme", "mono"), 0);
	assert_string_equal(cfg.theme, "mono");
	assert_null(cfg.title);
	assert_int_equal(PARSE(&cfg, err, "-T", "x"), -EINVAL);
	assert_string_equal(err, "-T shapes iperf3's text output: it needs -s or -c");
	assert_int_equal(PARSE(&cfg, err, "-c", "h", "-D"), -EINVAL);
	assert_string_equal(err, "-D runs a server in the background: it needs -s");
	assert_int_equal(PARSE(&cfg, err, "-s", "--logfile", ""), -EINVAL);
	assert_string_equal(err, "--logfile: empty file name");
	assert_int_equal(PARSE(&cfg, err, "-c", "h", "-i", "0.25"), 0);
	assert_true(cfg.interval_set);
	assert_int_equal(PARSE(&cfg, err, "-c", "h"), 0);
	assert_false(cfg.interval_set);
	assert_int_equal(cfg.format, 'a');
	assert_int_equal(PARSE(&cfg, err, "-c", "h", "--headless", "-f", "K", "-V"), 0);
	assert_int_equal(cfg.format, 'K');
	assert_true(cfg.verbose);
	assert_int_equal(PARSE(&cfg, err, "-c", "h", "-f", "x"), -EINVAL);
	assert_string_equal(err, "-f: invalid format 'x' (one of a A k m g t K M G T)");
}

#define PARSE_AT(tty, cfg, err, ...)                                                           \
	lr_cli_parse(ARGC(__VA_ARGS__), ARGV(__VA_ARGS__), tty, cfg, err, sizeof(err))

/* iperf3's outputs, or no terminal, pick the headless form; --demo has none. */
static void test_headless_chosen(void **state)
{
	struct lr_config cfg;
	char err[256] = "";

	(void)state;
	assert_int_equal(PARSE_AT(false, &cfg, err, "-i", "0.2"), 0);
	assert_int_equal(cfg.mode, LR_MODE_HEADLESS);
	assert_int_equal(PARSE_AT(true, &cfg, err, "-c", "h", "-J"), 0);
	assert_int_equal(cfg.mode, LR_MODE_HEADLESS);
	assert_int_equal(PARSE_AT(true, &cfg, err, "-c", "h", "--logfile", "l"), 0);
	assert_int_equal(cfg.mode, LR_MODE_HEADLESS);
	assert_int_equal(PARSE_AT(true, &cfg, err, "-c", "h", "--json-stream"), 0);
	assert_int_equal(cfg.mode, LR_MODE_HEADLESS);
	assert_int_equal(PARSE_AT(true, &cfg, err, "-c", "h"), 0);
	assert_int_equal(cfg.mode, LR_MODE_DASHBOARD);
	assert_int_equal(PARSE_AT(false, &cfg, err, "-s"), 0);
	assert_true(cfg.mode == LR_MODE_SERVER && cfg.headless);
	assert_int_equal(PARSE_AT(true, &cfg, err, "-s", "-J"), 0);
	assert_true(cfg.mode == LR_MODE_SERVER && cfg.headless);
	assert_int_equal(PARSE_AT(true, &cfg, err, "-s"), 0);
	assert_false(cfg.headless);
	assert_int_equal(PARSE_AT(false, &cfg, err, "--explain", "d"), 0);
	assert_int_equal(cfg.mode, LR_MODE_EXPLAIN);
	assert_int_equal(PARSE_AT(false, &cfg, err, "--demo"), -EINVAL);
	assert_string_equal(err, "--demo runs in the dashboard: it needs a terminal on stdin and stdout");
	assert_int_equal(PARSE_AT(true, &cfg, err, "--demo", "--headless"), -EINVAL);
	assert_string_equal(err, "--demo runs in the dashboard: it has no --headless (run linerate -s "
				 "and linerate -c 127.0.0.1)");
	assert_int_equal(PARSE_AT(false, &cfg, err, "--theme", "mono"), -EINVAL);
	assert_int_equal(PARSE_AT(false, &cfg, err, "-c", "h", "--no-start"), -EINVAL);
}

/* --expect: parsed before any traffic; a bad COND is one line naming it; only a headless -c. */
static void test_expect(void **state)
{
	struct lr_config cfg;
	char err[256] = "";

	(void)state;
	assert_int_equal(PARSE(&cfg, err, "-c", "h", "--headless", "--expect", "loss<=0.1%,rate>=9.4G"),
			 0);
	assert_int_equal(cfg.expect.n, 2);
	assert_int_equal(cfg.expect.c[1].metric, LR_EXPECT_RATE);
	assert_int_equal(PARSE(&cfg, err, "-c", "h", "-J", "--expect", "loss<=0.1"), -EINVAL);
	assert_string_equal(err, "--expect: 'loss<=0.1': a percentage needs % after the number "
				 "(loss<=0.1%, cpu<90%)");
	assert_int_equal(PARSE(&cfg, err, "--headless", "--expect", "retr<=1"), -EINVAL);
	assert_string_equal(err, "--expect needs -c HOST or --demo");
	assert_int_equal(PARSE(&cfg, err, "-c", "h", "--expect", "retr<=1"), -EINVAL);	/* a tty */
	assert_non_null(strstr(err, "--expect judges one headless test"));
	assert_int_equal(PARSE(&cfg, err, "-c", "h", "--headless", "--matrix", "P=1,2", "--expect",
			       "retr<=1"), -EINVAL);
	assert_non_null(strstr(err, "--expect judges one headless test"));
	assert_int_equal(PARSE(&cfg, err, "-s", "--expect", "retr<=1"), -EINVAL);
	assert_string_equal(err, "--expect is a client option: a server takes it from the client (-c)");
	assert_int_equal(PARSE(&cfg, err, "-c", "h", "--headless"), 0);
	assert_int_equal(cfg.expect.n, 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_defaults),
		cmocka_unit_test(test_headless_options),
		cmocka_unit_test(test_traffic_options),
		cmocka_unit_test(test_server_and_explain),
		cmocka_unit_test(test_errors_name_the_option),
		cmocka_unit_test(test_repeated_parse_starts_fresh),
		cmocka_unit_test(test_cluster_errors_name_the_letter),
		cmocka_unit_test(test_iperf3_322_options),
		cmocka_unit_test(test_huge_bitrate_exact),
		cmocka_unit_test(test_iperf3_output_options),
		cmocka_unit_test(test_headless_chosen),
		cmocka_unit_test(test_expect),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
