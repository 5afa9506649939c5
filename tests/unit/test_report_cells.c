// SPDX-License-Identifier: GPL-2.0-or-later
/* The report's drop, FIFO, error and line-rate cells on a real recording that has them
 * (tests/fixtures/report/drops_*: 300 frames the kernel dropped, a veth's 10 Gbit/s): each equals
 * a sum or a time-weighted mean this test computes itself from the CSV text. (The bitrate,
 * packet, CPU and stream cells: test_report.c, on recordings without drops.) */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <math.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fakes/report_io.h"
#include "linerate/present/report.h"

#define FIX "tests/fixtures/report/"

/* The test's sum of column col over the rows of iface on side, and (weighted) of col x interval
 * over the rows where col is not empty; *secs the intervals of those rows; *full_max the largest
 * value over full intervals (>= a quarter of the longest). */
static double csv_sum(const char *path, const char *iface, const char *side, const char *col,
		      bool weighted, double *secs, double *full_max)
{
	FILE *f = fopen(path, "r");
	char line[2048], hdr[2048], v[64];
	int c_if, c_side, c_int, c;
	double sum = 0, iv_max = 0;

	assert_non_null(f);
	assert_non_null(fgets(hdr, sizeof(hdr), f));
	c_if = csv_col_of(hdr, "iface");
	c_side = csv_col_of(hdr, "side");
	c_int = csv_col_of(hdr, "interval");
	c = csv_col_of(hdr, col);
	*secs = 0;
	*full_max = -1;
	for (int pass = 0; pass < 2; pass++) {
		rewind(f);
		assert_non_null(fgets(hdr, sizeof(hdr), f));
		while (fgets(line, sizeof(line), f)) {
			double iv;

			csv_field_of(line, c_if, v, sizeof(v));
			if (strcmp(v, iface))
				continue;
			csv_field_of(line, c_side, v, sizeof(v));
			if (strcmp(v, side))
				continue;
			csv_field_of(line, c_int, v, sizeof(v));
			iv = atof(v);
			if (!pass) {
				iv_max = fmax(iv_max, iv);
				continue;
			}
			csv_field_of(line, c, v, sizeof(v));
			if (!v[0])
				continue;
			sum += weighted ? atof(v) * iv : atof(v);
			*secs += iv;
			if (iv >= 0.25 * iv_max)
				*full_max = fmax(*full_max, atof(v));
		}
	}
	fclose(f);
	return sum;
}

/* A real run with drops (tests/fixtures/report/README.md: 300 frames the kernel dropped) and a
 * link speed (veth, 10 Gbit/s): the drop, FIFO, error and line-rate cells of both ends equal the
 * CSV's sums and time-weighted means; the drops were really there to be summed. */
static void test_drops_and_line_rate_cells(void **state)
{
	static const char *const files[] = {FIX "drops_ifaces.csv", FIX "drops_cpus.csv"};
	static const struct {
		const char *iface, *side;
	} rows[] = {{"lr83201486a", "local"}, {"lr83201486b", "peer"}};
	char err[LR_REP_ERR_MAX];
	struct lr_report *r = report_read_files(files, 2, 0, err);
	char *html = report_html(r);
	double secs, full, total_drops = 0;

	(void)state;
	for (unsigned i = 0; i < LR_ARRAY_SIZE(rows); i++) {
		const char *p = FIX "drops_ifaces.csv", *n = rows[i].iface, *s = rows[i].side;
		char row[96];
		double util, sum;

		snprintf(row, sizeof(row), "data-iface=\"%s\" data-side=\"%s\"", n, s);
		sum = csv_sum(p, n, s, "rx_dropped", false, &secs, &full);
		total_drops += sum;
		assert_near(report_table_value(html, row, "rx_dropped"), sum, 0);
		assert_near(report_table_value(html, row, "tx_dropped"),
			    csv_sum(p, n, s, "tx_dropped", false, &secs, &full), 0);
		assert_near(report_table_value(html, row, "fifo_missed_over"),
			    csv_sum(p, n, s, "rx_fifo", false, &secs, &full) +
				    csv_sum(p, n, s, "rx_missed", false, &secs, &full) +
				    csv_sum(p, n, s, "rx_over", false, &secs, &full), 0);
		assert_near(report_table_value(html, row, "nic_drop"),
			    csv_sum(p, n, s, "nic_drop", false, &secs, &full), 0);
		assert_near(report_table_value(html, row, "errors"),
			    csv_sum(p, n, s, "rx_errors", false, &secs, &full) +
				    csv_sum(p, n, s, "tx_errors", false, &secs, &full), 0);
		util = csv_sum(p, n, s, "wire_util_pct", true, &secs, &full);
		assert_true(secs > 1);	/* the link speed was known: line-rate cells exist */
		assert_near(report_table_value(html, row, "util_avg_pct"), util / secs, 1e-9);
		/* this run's stop-tick sliver folds into a row below the peak: the full rows' max */
		assert_near(report_table_value(html, row, "util_peak_pct"), full, 0);
	}
	assert_near(total_drops, 300, 0);	/* the kernel's count of the injected frames */
	free(html);
	lr_report_free(r);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_drops_and_line_rate_cells),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
