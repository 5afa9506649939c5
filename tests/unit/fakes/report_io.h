/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Helpers for the report's and replay's tests: read CSVs (files or text) into a report, write
 * its HTML to memory, read back a table cell, and read plain CSV lines by column name. */
#ifndef LINERATE_TEST_REPORT_IO_H
#define LINERATE_TEST_REPORT_IO_H

#include <math.h>
#include <stddef.h>

struct lr_report;

#define REPORT_FIX "tests/fixtures/report/"

/* cmocka 1.1 has no double compare: |a - b| <= eps, with both values in the message. */
#define assert_near(a, b, eps)                                                                   \
	do {                                                                                     \
		double a_ = (a), b_ = (b);                                                       \
		if (!(fabs(a_ - b_) <= (eps)))                                                   \
			fail_msg("%s = %.17g, expected %.17g", #a, a_, b_);                      \
	} while (0)

/* A new report with the n files read; every read but the last must return 0, the last
 * want_rc (its error in err, LR_REP_ERR_MAX bytes). */
struct lr_report *report_read_files(const char *const *paths, int n, int want_rc, char *err);
/* Reads text as if it were the file name: lr_report_read's return, its error in err. */
int report_read_text(struct lr_report *r, const char *name, const char *text, char *err);
/* The report's HTML, malloc'd. */
char *report_html(const struct lr_report *r);
/* The exact value (data-v) the table printed for key in the first row carrying row_attr. */
double report_table_value(const char *html, const char *row_attr, const char *key);
/* Column index of name in a CSV header line (fails the test when absent). */
int csv_col_of(const char *header, const char *name);
/* Field i of a plain (unquoted) CSV line; empty string for an empty field. */
void csv_field_of(const char *line, int i, char *out, size_t size);

#endif
