// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * `linerate --report OUT.html FILE...`: reads the CSVs (sample/report_read.c), writes the HTML
 * (present/report_html.c) to OUT.html.tmp and renames it over OUT.html only when every file
 * was read and every byte written, so a bad input or a full disk never leaves half a report.
 * Bad or foreign input is one line naming the file and line, exit 2; a write error exit 1.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "linerate/app/config.h"
#include "linerate/app/run.h"
#include "linerate/present/report.h"

/* The output must not be one of the inputs (the rename would replace it). */
static bool same_file(const char *a, const char *b)
{
	struct stat sa, sb;

	return !stat(a, &sa) && !stat(b, &sb) && sa.st_dev == sb.st_dev && sa.st_ino == sb.st_ino;
}

static int read_all(struct lr_report *r, const struct lr_config *cfg)
{
	char err[LR_REP_ERR_MAX];

	for (int i = 0; i < cfg->n_report_files; i++) {
		const char *path = cfg->report_files[i];
		FILE *f;
		int rc;

		if (same_file(path, cfg->report_out)) {
			fprintf(stderr, "linerate: --report: %s is both an input and the output\n", path);
			return 2;
		}
		f = strcmp(path, "-") ? fopen(path, "re") : stdin;
		if (!f) {
			fprintf(stderr, "linerate: %s: %s\n", path, strerror(errno));
			return 2;
		}
		rc = lr_report_read(r, f, path, err, sizeof(err));
		if (f != stdin)
			fclose(f);
		if (rc) {
			fprintf(stderr, "linerate: %s\n", err);
			return rc == -EINVAL ? 2 : 1;
		}
	}
	return 0;
}

int lr_run_report(const struct lr_config *cfg)
{
	struct lr_report *r = NULL;
	char *tmp = NULL;
	FILE *out = NULL;
	int rc = 1, err;

	if (lr_report_new(&r)) {
		fprintf(stderr, "linerate: --report: out of memory\n");
		return 1;
	}
	rc = read_all(r, cfg);
	if (rc)
		goto out;
	rc = 1;
	if (asprintf(&tmp, "%s.tmp", cfg->report_out) < 0) {
		tmp = NULL;
		fprintf(stderr, "linerate: --report: out of memory\n");
		goto out;
	}
	out = fopen(tmp, "we");
	if (!out) {
		fprintf(stderr, "linerate: --report %s: %s\n", tmp, strerror(errno));
		goto out;
	}
	err = lr_report_write_html(r, out);
	if (fclose(out) && !err)
		err = -errno;
	if (err) {
		fprintf(stderr, "linerate: --report %s: %s\n", tmp, strerror(-err));
		unlink(tmp);
		goto out;
	}
	if (rename(tmp, cfg->report_out)) {
		fprintf(stderr, "linerate: --report %s: %s\n", cfg->report_out, strerror(errno));
		unlink(tmp);
		goto out;
	}
	rc = 0;
out:
	free(tmp);
	lr_report_free(r);
	return rc;
}
