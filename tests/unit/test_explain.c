// SPDX-License-Identifier: GPL-2.0-or-later
/* `--explain` output: golden text and CSV for one dump (i40e FIFO overflow, the X710 story)
 * and for two dumps (mlx5, rx ring exhaustion, PFC, a counter reset), built from the fixture
 * names with made-up values (tests/fixtures/explain/); CSV quoting; hints only on evidence;
 * write errors; the run_explain glue's exit codes. */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cmocka.h>

#include "linerate/app/config.h"
#include "linerate/collect/ethdump.h"
#include "linerate/present/explain.h"
#include "linerate/app/run.h"

#define FIX "tests/fixtures/explain/"

static char *read_all(const char *path, size_t *len)
{
	FILE *f = fopen(path, "rb");
	char *buf;
	long n;

	if (!f)
		fail_msg("cannot open %s", path);
	assert_int_equal(fseek(f, 0, SEEK_END), 0);
	n = ftell(f);
	assert_true(n >= 0);
	rewind(f);
	buf = malloc((size_t)n + 1);
	assert_non_null(buf);
	assert_int_equal(fread(buf, 1, (size_t)n, f), (size_t)n);
	buf[n] = '\0';
	fclose(f);
	*len = (size_t)n;
	return buf;
}

static void load(const char *path, struct lr_ethdump *d)
{
	size_t len;
	char *text = read_all(path, &len);

	assert_int_equal(lr_ethdump_parse(d, text, len), 0);
	free(text);
}

static void parse_str(const char *text, struct lr_ethdump *d)
{
	assert_int_equal(lr_ethdump_parse(d, text, strlen(text)), 0);
}

/* Runs the explanation into memory; returns a malloc'd string. */
static char *explain(const struct lr_ethdump *d1, const struct lr_ethdump *d2,
		     const struct lr_explain_opts *o)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);

	assert_non_null(f);
	assert_int_equal(lr_explain_write(f, d1, d2, o), 0);
	fclose(f);
	return buf;
}

static void assert_golden(const char *got, const char *golden_path)
{
	size_t len;
	char *want;

	if (getenv("LR_UPDATE_GOLDEN")) {	/* as the view tests: rewrite, then read git diff */
		FILE *f = fopen(golden_path, "w");

		assert_non_null(f);
		fputs(got, f);
		fclose(f);
	}
	want = read_all(golden_path, &len);

	if (strcmp(got, want)) {
		const char *g = got, *w = want;
		int line = 1;

		while (*g && *g == *w) {
			line += *g == '\n';
			g++;
			w++;
		}
		print_message("%s differs at line %d\n--- got:\n%s\n", golden_path, line, got);
		free(want);
		fail();
	}
	free(want);
}

static void test_one_dump_golden(void **state)
{
	struct lr_explain_opts o = {.label1 = "i40e-fifo.txt"};
	struct lr_ethdump d;
	char *out;

	(void)state;
	load(FIX "i40e-fifo.txt", &d);
	out = explain(&d, NULL, &o);
	assert_golden(out, FIX "i40e-fifo.out");
	free(out);
	o.csv = true;
	out = explain(&d, NULL, &o);
	assert_golden(out, FIX "i40e-fifo.csv");
	free(out);
	lr_ethdump_free(&d);
}

static void test_two_dumps_golden(void **state)
{
	struct lr_explain_opts o = {.label1 = "mlx5-before.txt", .label2 = "mlx5-after.txt"};
	struct lr_ethdump d1, d2;
	char *out;

	(void)state;
	load(FIX "mlx5-before.txt", &d1);
	load(FIX "mlx5-after.txt", &d2); /* CRLF and a trailing prompt line */
	out = explain(&d1, &d2, &o);
	assert_golden(out, FIX "mlx5-delta.out");
	free(out);
	o.csv = true;
	out = explain(&d1, &d2, &o);
	assert_golden(out, FIX "mlx5-delta.csv");
	free(out);
	lr_ethdump_free(&d1);
	lr_ethdump_free(&d2);
}

/* Structure the goldens rely on, checked independently of their exact text. */
static void test_order_and_sections(void **state)
{
	struct lr_ethdump d;
	char *out;
	const char *fifo, *drop, *err, *pause, *other, *traffic;

	(void)state;
	parse_str("NIC statistics:\n"
		  "     rx_packets: 100\n"
		  "     tx_timeout_count: 1\n"
		  "     rx_pause_frames: 2\n"
		  "     rx_crc_errors: 3\n"
		  "     rx_dropped: 4\n"
		  "     rx_missed_errors: 5\n"
		  "     rx_zero: 0\n",
		  &d);
	out = explain(&d, NULL, NULL);
	fifo = strstr(out, "\nFIFO ");
	drop = strstr(out, "\nDROP ");
	err = strstr(out, "\nERROR ");
	pause = strstr(out, "\nPAUSE ");
	other = strstr(out, "\nOTHER ");
	traffic = strstr(out, "\nTRAFFIC ");
	assert_non_null(fifo);
	assert_true(fifo < drop && drop < err && err < pause && pause < other && other < traffic);
	assert_non_null(strstr(out, "dump 1: 7 counters, 6 non-zero"));
	assert_null(strstr(out, "rx_zero"));
	assert_non_null(strstr(out, "ethtool -G IF rx N"));
	free(out);
	lr_ethdump_free(&d);
}

static void test_hints_need_evidence(void **state)
{
	struct lr_ethdump d1, d2;
	char *out;

	(void)state;
	/* traffic only: no hint at all */
	parse_str("     rx_packets: 100\n     tx_bytes: 5\n     rx_missed_errors: 0\n", &d1);
	out = explain(&d1, NULL, NULL);
	assert_null(strstr(out, "hint:"));
	assert_null(strstr(out, "FIFO"));
	free(out);
	lr_ethdump_free(&d1);
	/* a CRC counter that went backwards is a reset, not a cabling problem */
	parse_str("     rx_crc_errors: 50\n     rx_packets: 1\n", &d1);
	parse_str("     rx_crc_errors: 3\n     rx_packets: 9\n", &d2);
	out = explain(&d1, &d2, NULL);
	assert_non_null(strstr(out, "reset"));
	assert_non_null(strstr(out, "went backwards"));
	assert_null(strstr(out, "physical layer"));
	free(out);
	lr_ethdump_free(&d1);
	lr_ethdump_free(&d2);
}

static void test_nothing_moved(void **state)
{
	struct lr_ethdump d1, d2;
	struct lr_explain_opts o = {.csv = true};
	char *out;

	(void)state;
	parse_str("     rx_packets: 100\n     rx_missed_errors: 7\n", &d1);
	parse_str("     rx_packets: 100\n     rx_missed_errors: 7\n", &d2);
	out = explain(&d1, &d2, NULL);
	assert_non_null(strstr(out, "Nothing moved"));
	assert_null(strstr(out, "hint:"));
	free(out);
	out = explain(&d1, &d2, &o);
	assert_string_equal(out, "counter,category,value,delta,queue,dir\n");
	free(out);
	lr_ethdump_free(&d1);
	lr_ethdump_free(&d2);
	parse_str("NIC statistics:\n     rx_packets: 0\n", &d1);
	out = explain(&d1, NULL, NULL);
	assert_non_null(strstr(out, "Every counter is zero."));
	free(out);
	lr_ethdump_free(&d1);
}

static void test_csv_quoting_and_duplicates(void **state)
{
	struct lr_ethdump d1, d2;
	struct lr_explain_opts o = {.csv = true};
	char *out;

	(void)state;
	parse_str("     rx,weird: 5\n     say \"hi\": 6\n     rxq0: rx_bytes: 7\n"
		  "     rx_over_errors: 1\n     rx_over_errors: 2\n",
		  &d1);
	parse_str("     rx,weird: 6\n     say \"hi\": 6\n     rxq0: rx_bytes: 9\n"
		  "     rx_over_errors: 1\n     rx_over_errors: 12\n",
		  &d2);
	out = explain(&d1, NULL, &o);
	assert_non_null(strstr(out, "\"rx,weird\",other,5,,,\n"));
	assert_non_null(strstr(out, "\"say \"\"hi\"\"\",other,6,,,\n"));
	assert_non_null(strstr(out, "\nrxq0: rx_bytes,traffic,7,,0,rx\n"));
	free(out);
	/* the second rx_over_errors is matched with the second: +10, the first did not move */
	out = explain(&d1, &d2, &o);
	assert_string_equal(out, "counter,category,value,delta,queue,dir\n"
				 "rx_over_errors,fifo,12,10,,\n"
				 "\"rx,weird\",other,6,1,,\n"
				 "rxq0: rx_bytes,traffic,9,2,0,rx\n");
	free(out);
	lr_ethdump_free(&d1);
	lr_ethdump_free(&d2);
}

static void test_driver_option(void **state)
{
	struct lr_ethdump d;
	struct lr_explain_opts o = {.csv = true};
	char *out;

	(void)state;
	parse_str("     rx_queue_0_drops: 5\n", &d);
	out = explain(&d, NULL, &o);
	assert_non_null(strstr(out, "rx_queue_0_drops,drop,5,"));
	free(out);
	o.driver = "igb";
	out = explain(&d, NULL, &o);
	assert_non_null(strstr(out, "rx_queue_0_drops,fifo,5,"));
	free(out);
	lr_ethdump_free(&d);
}

static void test_write_error(void **state)
{
	struct lr_ethdump d;
	FILE *full = fopen("/dev/full", "w");

	(void)state;
	if (!full)
		skip();
	parse_str("     rx_missed_errors: 5\n", &d);
	assert_true(lr_explain_write(full, &d, NULL, NULL) < 0);
	fclose(full);
	lr_ethdump_free(&d);
}

/* The glue: exit codes and which file it names. stdout/stderr go to the test log. */
static void test_run_explain_exit_codes(void **state)
{
	struct lr_config cfg;
	char csv_path[] = "/tmp/lr_explain_XXXXXX";
	int fd = mkstemp(csv_path);
	size_t len;
	char *csv;

	(void)state;
	assert_true(fd >= 0);
	memset(&cfg, 0, sizeof(cfg));
	/* a dump named on the command line that is missing, unreadable or not one: usage, 2 */
	cfg.explain[0] = FIX "no-such-dump.txt";
	assert_int_equal(lr_run_explain(&cfg), 2);
	cfg.explain[0] = "/dev/null"; /* readable, but no counters */
	assert_int_equal(lr_run_explain(&cfg), 2);
	cfg.explain[0] = "/"; /* a directory: EISDIR */
	assert_int_equal(lr_run_explain(&cfg), 2);
	cfg.explain[0] = FIX "mlx5-before.txt";
	cfg.explain[1] = FIX "mlx5-after.txt";
	cfg.csv = csv_path;
	assert_int_equal(lr_run_explain(&cfg), 0);
	csv = read_all(csv_path, &len);
	assert_golden(csv, FIX "mlx5-delta.csv");
	free(csv);
	cfg.csv = "/dev/full";
	assert_int_equal(lr_run_explain(&cfg), 1);
	cfg.explain[0] = cfg.explain[1] = "-";
	assert_int_equal(lr_run_explain(&cfg), 2);
	cfg.explain[0] = cfg.explain[1] = NULL;
	assert_int_equal(lr_run_explain(&cfg), 2);
	unlink(csv_path);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_one_dump_golden),
		cmocka_unit_test(test_two_dumps_golden),
		cmocka_unit_test(test_order_and_sections),
		cmocka_unit_test(test_hints_need_evidence),
		cmocka_unit_test(test_nothing_moved),
		cmocka_unit_test(test_csv_quoting_and_duplicates),
		cmocka_unit_test(test_driver_option),
		cmocka_unit_test(test_write_error),
		cmocka_unit_test(test_run_explain_exit_codes),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
