// SPDX-License-Identifier: GPL-2.0-or-later
/* The report tests' shared helpers; see report_io.h. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fakes/report_io.h"
#include "linerate/present/report.h"

struct lr_report *report_read_files(const char *const *paths, int n, int want_rc, char *err)
{
	struct lr_report *r;

	assert_int_equal(lr_report_new(&r), 0);
	for (int i = 0; i < n; i++) {
		FILE *f = fopen(paths[i], "r");
		int rc;

		assert_non_null(f);
		rc = lr_report_read(r, f, paths[i], err, LR_REP_ERR_MAX);
		fclose(f);
		if (rc != (i == n - 1 ? want_rc : 0))
			fail_msg("%s: rc %d: %s", paths[i], rc, err);
	}
	return r;
}

int report_read_text(struct lr_report *r, const char *name, const char *text, char *err)
{
	FILE *f = fmemopen((void *)text, strlen(text), "r");
	int rc;

	assert_non_null(f);
	rc = lr_report_read(r, f, name, err, LR_REP_ERR_MAX);
	fclose(f);
	return rc;
}

char *report_html(const struct lr_report *r)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);

	assert_non_null(f);
	assert_int_equal(lr_report_write_html(r, f), 0);
	fclose(f);
	return buf;
}

double report_table_value(const char *html, const char *row_attr, const char *key)
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

int csv_col_of(const char *header, const char *name)
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

void csv_field_of(const char *line, int i, char *out, size_t size)
{
	const char *p = line;

	while (i-- > 0)
		p = strchr(p, ',') + 1;
	snprintf(out, size, "%.*s", (int)strcspn(p, ",\n"), p);
}
