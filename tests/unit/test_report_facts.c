// SPDX-License-Identifier: GPL-2.0-or-later
/* The report's facts of a run (issue 14): the interface's driver, the streams' -l and congestion
 * control, read from the columns appended to --csv and --streams-csv. On CSVs the real binary
 * wrote (tests/fixtures/report/facts_*), what the facts say equals what this test reads from the
 * CSV text itself by column name; mixed values are told with their counts; CSVs from before the
 * columns say "not recorded"; a name from a CSV is escaped, and one with a control byte refused. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fakes/report_io.h"
#include "linerate/present/report.h"

#define FIX "tests/fixtures/report/"

/* The text of every <span data-k="KEY"> (or <td data-k=...>) of the facts section, joined by
 * '|'. */
static void fact(const char *html, const char *key, char *out, size_t len)
{
	const char *sec = strstr(html, "<section id=\"facts\">"), *end, *p;
	char pat[64];

	assert_non_null(sec);
	end = strstr(sec, "</section>");
	assert_non_null(end);
	snprintf(pat, sizeof(pat), "data-k=\"%s\">", key);
	out[0] = '\0';
	for (p = strstr(sec, pat); p && p < end; p = strstr(p, pat)) {
		const char *close;

		p += strlen(pat);
		close = strchr(p, '<');
		assert_non_null(close);
		snprintf(out + strlen(out), len - strlen(out), "%s%.*s", out[0] ? "|" : "",
			 (int)(close - p), p);
	}
}

/* The distinct values of column NAME over a CSV's data rows (the test's own reading of the
 * file: the header names the column; these fixtures hold no quoted field), joined by '|'. */
static void column_values(const char *path, const char *name, char *out, size_t len)
{
	FILE *f = fopen(path, "r");
	char line[4096];
	int col = -1, k = 0;

	assert_non_null(f);
	assert_non_null(fgets(line, sizeof(line), f));
	line[strcspn(line, "\r\n")] = '\0';
	for (char *save, *t = strtok_r(line, ",", &save); t; t = strtok_r(NULL, ",", &save), k++)
		if (!strcmp(t, name))
			col = k;
	assert_true(col >= 0);
	snprintf(out, len, "|");
	while (fgets(line, sizeof(line), f)) {
		char *p = line, v[64];
		char key[70];

		for (int i = 0; i < col; i++)
			p = strchr(p, ',') + 1;
		snprintf(v, sizeof(v), "%.*s", (int)strcspn(p, ",\r\n"), p);
		snprintf(key, sizeof(key), "|%s|", v);
		if (!strstr(out, key))	/* "|a|b|" */
			snprintf(out + strlen(out), len - strlen(out), "%s|", v);
	}
	fclose(f);
}

/* A real veth run: the facts give the CSV's driver, -l and congestion control, and the "not in
 * these CSVs" line no longer names them. */
static void test_facts_from_a_veth_run(void **state)
{
	const char *const files[] = {FIX "facts_ifaces.csv", FIX "facts_streams.csv"};
	char err[LR_REP_ERR_MAX] = "";
	struct lr_report *r = report_read_files(files, 2, 0, err);
	char *html = report_html(r), got[256], csv[256], want[256];

	(void)state;
	column_values(files[0], "driver", csv, sizeof(csv));
	/* one value over this side's veth and the peer's (the server's rows, side=peer) */
	assert_string_equal(csv, "|veth|");
	fact(html, "driver", got, sizeof(got));
	assert_string_equal(got, "driver veth|driver veth");
	column_values(files[1], "length", csv, sizeof(csv));
	assert_string_equal(csv, "|32000|");
	fact(html, "length", got, sizeof(got));
	assert_string_equal(got, "-l 32000 bytes");
	column_values(files[1], "congestion", csv, sizeof(csv));
	snprintf(want, sizeof(want), "|%s|", "reno");
	assert_string_equal(csv, want);
	fact(html, "congestion", got, sizeof(got));
	assert_string_equal(got, "congestion control reno");
	fact(html, "not_recorded", got, sizeof(got));
	assert_null(strstr(got, "not recorded here"));
	assert_non_null(strstr(got, "ring sizes"));
	/* the new columns are known ones: only numa_node is left "not shown" */
	assert_non_null(strstr(html, "facts_ifaces.csv: interfaces (--csv), 12 rows, 1 newer"));
	assert_non_null(strstr(html, "facts_streams.csv: streams (--streams-csv), 14 rows</"));
	free(html);
	lr_report_free(r);
}

/* Streams that differ: each value with the number of streams that had it. */
static void test_mixed_values_are_counted(void **state)
{
	const char *const files[] = {FIX "facts_mixed_streams.csv"};
	char err[LR_REP_ERR_MAX] = "";
	struct lr_report *r = report_read_files(files, 1, 0, err);
	char *html = report_html(r), got[256];

	(void)state;
	fact(html, "length", got, sizeof(got));
	assert_string_equal(got, "-l 32000 bytes on 2 streams, 1460 bytes on 1");
	fact(html, "congestion", got, sizeof(got));
	assert_string_equal(got, "congestion control reno on 2 streams, bbr on 1");
	fact(html, "traffic", got, sizeof(got));
	assert_string_equal(got, "TCP, 3 streams sent, target 100 Mbit/s per stream (-b), ");
	/* no interface CSV: the driver is missing for that reason, not for an old linerate */
	fact(html, "not_recorded", got, sizeof(got));
	assert_non_null(strstr(got, "; not recorded here: driver (no interface CSV)"));
	assert_string_equal(strstr(got, "; not"), "; not recorded here: driver (no interface CSV)");
	free(html);
	lr_report_free(r);
}

/* CSVs from before the columns still make a report, and say what they do not record. */
static void test_old_csvs_say_not_recorded(void **state)
{
	const char *const files[] = {FIX "loopback_ifaces.csv", FIX "loopback_streams.csv"};
	char err[LR_REP_ERR_MAX] = "";
	struct lr_report *r = report_read_files(files, 2, 0, err);
	char *html = report_html(r), got[512];

	(void)state;
	fact(html, "driver", got, sizeof(got));
	assert_string_equal(got, "driver not recorded");
	fact(html, "length", got, sizeof(got));
	assert_string_equal(got, "-l not recorded");
	fact(html, "congestion", got, sizeof(got));
	assert_string_equal(got, "congestion control (-C) not recorded");
	fact(html, "not_recorded", got, sizeof(got));
	assert_string_equal(strstr(got, "; not"), "; not recorded here: driver, -b, -l, -C (CSVs "
						  "from a linerate before those columns)");
	free(html);
	lr_report_free(r);

	/* an interface CSV alone: no traffic recorded, and its driver column missing */
	r = report_read_files((const char *const[]){FIX "headless_ifaces.csv"}, 1, 0, err);
	html = report_html(r);
	fact(html, "not_recorded", got, sizeof(got));
	assert_string_equal(strstr(got, "; not"), "; not recorded here: -P, -b, -l, -C (no streams "
						  "CSV); driver (CSVs from a linerate before those "
						  "columns)");
	free(html);
	lr_report_free(r);
}

#define IF_HEAD                                                                                  \
	"time,elapsed,iface,interval,rx_bytes,tx_bytes,rx_packets,tx_packets,rx_bps,tx_bps,rx_pps," \
	"tx_pps,rx_dropped,tx_dropped,rx_errors,tx_errors,rx_fifo,rx_missed,rx_over,nic_fifo,"      \
	"nic_drop,softirq_max_pct,softirq_cpu,link_mbps,mtu,wire_util_pct,side,host,numa_node,"     \
	"driver\n"
#define IF_ROW "1700000000.2,0.2,eth0,0.2,1,1,1,1,40,40,5,5,0,0,0,0,0,0,0,,,,,,1500,,local,h,,"

/* A driver name from a file is escaped in the page; one with a control byte is refused by
 * line; a loopback's (none) says so; a driver that changed says so. */
static void test_driver_names_from_a_file(void **state)
{
	struct lr_report *r;
	char err[LR_REP_ERR_MAX] = "", *html, got[256];

	(void)state;
	assert_int_equal(lr_report_new(&r), 0);
	assert_int_equal(report_read_text(r, "t.csv", IF_HEAD IF_ROW "<b>x</b>\n", err), 0);
	html = report_html(r);
	fact(html, "driver", got, sizeof(got));
	assert_string_equal(got, "driver &lt;b&gt;x&lt;/b&gt;");
	free(html);
	lr_report_free(r);

	assert_int_equal(lr_report_new(&r), 0);
	assert_int_equal(report_read_text(r, "t.csv", IF_HEAD IF_ROW "\"a\x01\"\n", err), -EINVAL);
	assert_string_equal(err, "t.csv:2: driver holds a control character");
	lr_report_free(r);

	assert_int_equal(lr_report_new(&r), 0);
	assert_int_equal(report_read_text(r, "t.csv", IF_HEAD IF_ROW "\n", err), 0);
	html = report_html(r);
	fact(html, "driver", got, sizeof(got));
	assert_string_equal(got, "no driver reported");
	free(html);
	lr_report_free(r);

	assert_int_equal(lr_report_new(&r), 0);
	assert_int_equal(report_read_text(r, "t.csv", IF_HEAD IF_ROW "e1000e\n" IF_ROW "igb\n", err), 0);
	html = report_html(r);
	fact(html, "driver", got, sizeof(got));
	assert_string_equal(got, "driver igb (changed during the run)");
	free(html);
	lr_report_free(r);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_facts_from_a_veth_run),
		cmocka_unit_test(test_mixed_values_are_counted),
		cmocka_unit_test(test_old_csvs_say_not_recorded),
		cmocka_unit_test(test_driver_names_from_a_file),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
