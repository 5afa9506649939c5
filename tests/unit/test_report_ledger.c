// SPDX-License-Identifier: GPL-2.0-or-later
/* --report over a --ledger-csv (tests/fixtures/report/ledger_tbf.csv: a real UDP test through a
 * tbf qdisc on the sender's veth, README.md there): the Loss ledger section sums each line's
 * intervals, and the sums meet the witnesses recorded beside the capture, not this code's
 * arithmetic: the qdisc line equals `tc -s qdisc`'s dropped delta (+36027), the sent line the
 * server's own count (44674) within the datagrams of the test's last instant; a line no
 * interval knew (the receiver's count, live) is unknown, never 0, and the far end's stages say
 * they were known in 4 of the 5 intervals (its first frame came with the second). A damaged
 * row is one error naming its line. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "fakes/report_io.h"
#include "linerate/present/report.h"

#define FIX "tests/fixtures/report/"
#define TC_DROPPED 36027	/* tc -s qdisc show dev lr..c0: dropped, after minus before */
#define SERVER_RECEIVED 44674	/* the server's -J end.sum_received.packets */

static const char *row_of(const char *html, const char *stage)
{
	char want[64];
	const char *p;

	snprintf(want, sizeof(want), "<tr data-stage=\"%s\">", stage);
	p = strstr(html, want);
	assert_non_null(p);
	return p;
}

static double value_in(const char *row, const char *key)
{
	char want[64];
	const char *p;

	snprintf(want, sizeof(want), "data-k=\"%s\" data-v=\"", key);
	p = strstr(row, want);
	if (!p || p > strstr(row, "</tr>"))
		return NAN;
	return strtod(p + strlen(want), NULL);
}

static void test_ledger_sums_meet_the_witnesses(void **state)
{
	static const char *const files[] = {FIX "ledger_tbf.csv"};
	char err[LR_REP_ERR_MAX];
	struct lr_report *r = report_read_files(files, 1, 0, err);
	char *html = report_html(r);
	const char *sec = strstr(html, "<section id=\"ledger\">"), *row;

	(void)state;
	assert_non_null(sec);
	assert_non_null(strstr(sec, "data-direction=\"up\""));
	assert_null(strstr(sec, "data-direction=\"down\""));
	assert_near(value_in(row_of(sec, "qdisc"), "count"), TC_DROPPED, 0);
	assert_near(value_in(row_of(sec, "sent"), "count"), SERVER_RECEIVED, 0.001 * SERVER_RECEIVED);
	row = row_of(sec, "received");
	assert_true(isnan(value_in(row, "count")));
	assert_non_null(strstr(row, "data-k=\"count\">unknown<"));
	row = row_of(sec, "transport");
	assert_near(value_in(row, "count"), 0, 0);
	assert_non_null(strstr(row, "(4 of 5 intervals)"));
	assert_non_null(strstr(html, "loss ledger (--ledger-csv)"));
	free(html);
	lr_report_free(r);
}

/* --bidir (ledger_bidir.csv: the tbf on the client's veth only): one table per direction, each
 * line summed over its own direction's intervals: up's qdisc line is the client's tc dropped
 * delta (+18301), down's the server's (+0); each sent line the far end's own count. */
static void test_ledger_bidir_per_direction(void **state)
{
	static const char *const files[] = {FIX "ledger_bidir.csv"};
	char err[LR_REP_ERR_MAX];
	struct lr_report *r = report_read_files(files, 1, 0, err);
	char *html = report_html(r);
	const char *up = strstr(html, "data-direction=\"up\""), *down, *row;

	(void)state;
	assert_non_null(up);
	down = strstr(up, "data-direction=\"down\"");
	assert_non_null(down);
	assert_true(row_of(up, "qdisc") < down);
	assert_near(value_in(row_of(up, "qdisc"), "count"), 18301, 0);
	assert_near(value_in(row_of(up, "sent"), "count"), 26792, 0.001 * 26792);
	/* the server's first frame came with the second interval, its qdisc's name with it: the
	 * first interval's line, unknown, is a line of its own ("qdisc drops") */
	row = strstr(down, "<td>noqueue 0:</td>");
	assert_non_null(row);
	assert_near(value_in(row, "count"), 0, 0);
	assert_near(value_in(row_of(down, "sent"), "count"), 26720, 0.001 * 26720);
	row = strstr(up, "<h3>down: the server sent (-R or --bidir)</h3>");
	assert_true(row && row < down);
	free(html);
	lr_report_free(r);
}

static void test_bad_rows_named(void **state)
{
	static const char *const bad[] = {
		"up,local,vm,qdisc,tbf 8001:,12x,skbs,12,0",	/* count not a number */
		"sideways,local,vm,qdisc,tbf 8001:,12,skbs,12,0",	/* direction */
		"up,remote,vm,qdisc,tbf 8001:,12,skbs,12,0",	/* side */
		"up,local,vm,qdisc,tbf 8001:,12,skbs,12,2",	/* approx */
	};
	char text[1024], err[LR_REP_ERR_MAX];

	(void)state;
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		struct lr_report *r;

		assert_int_equal(lr_report_new(&r), 0);
		snprintf(text, sizeof(text),
			 "time,elapsed,interval,direction,side,host,stage,counter,count,unit,"
			 "datagrams,approx\n1700000000.5,0.5,0.5,%s\n", bad[i]);
		assert_int_equal(report_read_text(r, "l.csv", text, err), -EINVAL);
		assert_non_null(strstr(err, "l.csv:2: "));
		lr_report_free(r);
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_ledger_sums_meet_the_witnesses),
		cmocka_unit_test(test_ledger_bidir_per_direction),
		cmocka_unit_test(test_bad_rows_named),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
