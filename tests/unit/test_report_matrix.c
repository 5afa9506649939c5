// SPDX-License-Identifier: GPL-2.0-or-later
/* The report of a matrix run, per case (tests/fixtures/report/matrix_times_*: a real 2x2 grid on
 * loopback with the interface and streams CSVs beside it): a small bitrate chart per case, cut
 * from the interface CSV by the case's time_start and time_end, whose axis reaches the peak
 * that this test finds itself in the interface rows of that window (and not a neighbour's: the
 * cases' rates differ by 2x), and no per-stream table mixing the cases. */
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

/* The highest local rx_bps of lo among the interface rows stamped inside [t0, t1]. */
static double window_peak(double t0, double t1)
{
	FILE *f = fopen(FIX "matrix_times_ifaces.csv", "r");
	char line[2048], hdr[2048], v[64];
	int c_t, c_if, c_side, c_bps;
	double peak = -1;

	assert_non_null(f);
	assert_non_null(fgets(hdr, sizeof(hdr), f));
	c_t = csv_col_of(hdr, "time");
	c_if = csv_col_of(hdr, "iface");
	c_side = csv_col_of(hdr, "side");
	c_bps = csv_col_of(hdr, "rx_bps");
	while (fgets(line, sizeof(line), f)) {
		double t;

		csv_field_of(line, c_t, v, sizeof(v));
		t = atof(v);
		csv_field_of(line, c_if, v, sizeof(v));
		if (t < t0 || t > t1 || strcmp(v, "lo"))
			continue;
		csv_field_of(line, c_side, v, sizeof(v));
		if (strcmp(v, "local"))
			continue;
		csv_field_of(line, c_bps, v, sizeof(v));
		peak = fmax(peak, atof(v));
	}
	fclose(f);
	return peak;
}

static void test_a_chart_per_case_cut_at_its_window(void **state)
{
	static const char *const files[] = {FIX "matrix_times_ifaces.csv",
					    FIX "matrix_times_streams.csv",
					    FIX "matrix_times_matrix.csv"};
	char err[LR_REP_ERR_MAX], line[2048], hdr[2048], v[64];
	struct lr_report *r = report_read_files(files, 3, 0, err);
	char *html = report_html(r), *cases;
	FILE *f = fopen(files[2], "r");
	int c_case;
	unsigned n = 0;

	(void)state;
	assert_non_null(f);
	cases = strstr(html, "<div class=\"cases\">");
	assert_non_null(cases);
	assert_non_null(fgets(hdr, sizeof(hdr), f));
	c_case = csv_col_of(hdr, "case");
	assert_int_equal(csv_col_of(hdr, "time_end"), csv_col_of(hdr, "time_start") + 1);
	while (fgets(line, sizeof(line), f)) {
		char want[80];
		const char *fig, *ym;
		double t0, t1, peak, top;

		/* the last two columns (the verdict before them may hold commas, quoted) */
		csv_field_of(line, c_case, v, sizeof(v));
		snprintf(want, sizeof(want), "Case %s:", v);
		{
			const char *end = strrchr(line, ',');
			const char *mid = end - 1;

			while (mid > line && *mid != ',')
				mid--;
			t0 = atof(mid + 1);
			t1 = atof(end + 1);
		}
		peak = window_peak(t0, t1);
		assert_true(peak > 1e6);	/* the case carried traffic in its window */
		fig = strstr(cases, want);
		assert_non_null(fig);
		ym = strstr(fig, "data-ymax=\"");
		assert_non_null(ym);
		top = strtod(ym + strlen("data-ymax=\""), NULL);
		if (!(top >= peak && top <= 2 * peak))
			fail_msg("%s axis top %.0f for a window peak of %.0f", want, top, peak);
		n++;
	}
	fclose(f);
	assert_int_equal(n, 4);
	assert_int_equal(r->n_matrix, 4);
	/* stream 1 comes back in each case: no table per stream id */
	assert_null(strstr(html, "data-stream=\"1\""));
	assert_non_null(strstr(html, "a matrix of 4 cases: 2 TCP, 2 UDP;"));
	free(html);
	lr_report_free(r);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_a_chart_per_case_cut_at_its_window),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
