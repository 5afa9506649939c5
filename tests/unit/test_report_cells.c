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

#include "linerate/present/report.h"

#define FIX "tests/fixtures/report/"

/* cmocka 1.1 has no double compare: |a - b| <= eps, with both values in the message. */
#define assert_near(a, b, eps)                                                                   \
	do {                                                                                     \
		double a_ = (a), b_ = (b);                                                       \
		if (!(fabs(a_ - b_) <= (eps)))                                                   \
			fail_msg("%s = %.17g, expected %.17g", #a, a_, b_);                      \
	} while (0)

static struct lr_report *read_files(const char *const *paths, int n, int want_rc, char *err)
{
	struct lr_report *r;

	assert_int_equal(lr_report_new(&r), 0);
	for (int i = 0; i < n; i++) {
		FILE *f = fopen(paths[i], "r");
		int rc;

		assert_non_null(f);
		rc = lr_report_read(r, f, paths[i], err, LR_REP_ERR_MAX);
		fclose(f);
		if (i == n - 1)
			assert_int_equal(rc, want_rc);
		else
			assert_int_equal(rc, 0);
	}
	return r;
}

static char *html_of(const struct lr_report *r)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);

	assert_non_null(f);
	assert_int_equal(lr_report_write_html(r, f), 0);
	fclose(f);
	return buf;
}

/* The exact value the table printed for key in the row of interface iface. */
static double table_value(const char *html, const char *row_attr, const char *key)
{
	const char *row = strstr(html, row_attr), *end, *k;
	char pat[96];

	assert_non_null(row);
	end = strstr(row, "</tr>");
	snprintf(pat, sizeof(pat), "data-k=\"%s\" data-v=\"", key);
	k = strstr(row, pat);
	assert_non_null(k);
	assert_true(k < end);
	return strtod(k + strlen(pat), NULL);
}

/* Column index of name in a header line. */
static int col_of(const char *header, const char *name)
{
	char buf[1024], *save, *tok;
	int i = 0;

	snprintf(buf, sizeof(buf), "%s", header);
	for (tok = strtok_r(buf, ",\n", &save); tok; tok = strtok_r(NULL, ",\n", &save), i++)
		if (!strcmp(tok, name))
			return i;
	fail_msg("no column %s", name);
	return -1;
}

/* Field i of a plain (unquoted) CSV line; empty string for an empty field. */
static void field_of(const char *line, int i, char *out, size_t size)
{
	const char *p = line;

	while (i-- > 0)
		p = strchr(p, ',') + 1;
	snprintf(out, size, "%.*s", (int)strcspn(p, ",\n"), p);
}

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
	c_if = col_of(hdr, "iface");
	c_side = col_of(hdr, "side");
	c_int = col_of(hdr, "interval");
	c = col_of(hdr, col);
	*secs = 0;
	*full_max = -1;
	for (int pass = 0; pass < 2; pass++) {
		rewind(f);
		assert_non_null(fgets(hdr, sizeof(hdr), f));
		while (fgets(line, sizeof(line), f)) {
			double iv;

			field_of(line, c_if, v, sizeof(v));
			if (strcmp(v, iface))
				continue;
			field_of(line, c_side, v, sizeof(v));
			if (strcmp(v, side))
				continue;
			field_of(line, c_int, v, sizeof(v));
			iv = atof(v);
			if (!pass) {
				iv_max = fmax(iv_max, iv);
				continue;
			}
			field_of(line, c, v, sizeof(v));
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
	struct lr_report *r = read_files(files, 2, 0, err);
	char *html = html_of(r);
	double secs, full, total_drops = 0;

	(void)state;
	for (unsigned i = 0; i < LR_ARRAY_SIZE(rows); i++) {
		const char *p = FIX "drops_ifaces.csv", *n = rows[i].iface, *s = rows[i].side;
		char row[96];
		double util, sum;

		snprintf(row, sizeof(row), "data-iface=\"%s\" data-side=\"%s\"", n, s);
		sum = csv_sum(p, n, s, "rx_dropped", false, &secs, &full);
		total_drops += sum;
		assert_near(table_value(html, row, "rx_dropped"), sum, 0);
		assert_near(table_value(html, row, "tx_dropped"),
			    csv_sum(p, n, s, "tx_dropped", false, &secs, &full), 0);
		assert_near(table_value(html, row, "fifo_missed_over"),
			    csv_sum(p, n, s, "rx_fifo", false, &secs, &full) +
				    csv_sum(p, n, s, "rx_missed", false, &secs, &full) +
				    csv_sum(p, n, s, "rx_over", false, &secs, &full), 0);
		assert_near(table_value(html, row, "nic_drop"),
			    csv_sum(p, n, s, "nic_drop", false, &secs, &full), 0);
		assert_near(table_value(html, row, "errors"),
			    csv_sum(p, n, s, "rx_errors", false, &secs, &full) +
				    csv_sum(p, n, s, "tx_errors", false, &secs, &full), 0);
		util = csv_sum(p, n, s, "wire_util_pct", true, &secs, &full);
		assert_true(secs > 1);	/* the link speed was known: line-rate cells exist */
		assert_near(table_value(html, row, "util_avg_pct"), util / secs, 1e-9);
		/* this run's stop-tick sliver folds into a row below the peak: the full rows' max */
		assert_near(table_value(html, row, "util_peak_pct"), full, 0);
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
