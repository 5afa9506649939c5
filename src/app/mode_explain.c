// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * `linerate --explain DUMP [DUMP2]`: reads saved `ethtool -S` output ("-" = stdin), parses
 * it and writes the explanation (text to stdout, or CSV with --csv). The glue layer: it
 * reads files and prints its one-line errors to stderr itself. Main thread only.
 */
#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "linerate/app/config.h"
#include "linerate/collect/ethdump.h"
#include "linerate/present/explain.h"
#include "linerate/app/run.h"

#define DUMP_MAX (64u << 20) /* a dump of every counter of many NICs is a few MB */

/* Reads all of path ("-" = stdin) into a malloc'd buffer. 0 or -errno (-EFBIG). */
static int slurp(const char *path, char **buf, size_t *len)
{
	FILE *f = strcmp(path, "-") ? fopen(path, "rb") : stdin;
	size_t cap = 1 << 16, n = 0;
	char *b = NULL;
	int err = 0;

	if (!f)
		return -errno;
	errno = 0;
	b = malloc(cap);
	while (b) {
		size_t got = fread(b + n, 1, cap - n, f);

		n += got;
		if (n < cap) {
			if (ferror(f))	/* a directory: EISDIR */
				err = errno ? -errno : -EIO;
			break;
		}
		if (cap >= DUMP_MAX) {
			err = -EFBIG;
			break;
		}
		cap *= 2;
		{
			char *nb = realloc(b, cap);

			if (!nb) {
				free(b);
				b = NULL;
			} else {
				b = nb;
			}
		}
	}
	if (!b)
		err = -ENOMEM;
	if (f != stdin)
		fclose(f);
	if (err) {
		free(b);
		return err;
	}
	*buf = b;
	*len = n;
	return 0;
}

/* 0, or the exit status with one line said: 2 for a dump that is missing, unreadable or not
 * `ethtool -S` output (bad input named on the command line, as --report's), 1 out of memory. */
static int load(const char *path, struct lr_ethdump *d)
{
	char *text = NULL;
	size_t len = 0;
	int err = slurp(path, &text, &len);

	if (err) {
		fprintf(stderr, "linerate: cannot read %s: %s\n", path, strerror(-err));
		return err == -ENOMEM ? 1 : 2;
	}
	err = lr_ethdump_parse(d, text, len);
	free(text);
	if (err) {
		fprintf(stderr, "linerate: %s: %s\n", path, strerror(-err));
		return 1;
	}
	if (!d->n) {
		fprintf(stderr,
			"linerate: %s: no `ethtool -S` counters found (%zu lines not "
			"understood)\n",
			path, d->garbage);
		lr_ethdump_free(d);
		return 2;
	}
	return 0;
}

/* A write error: 0 when it was stdout's and its reader has gone (`| head`), else 1 with one
 * line naming it. */
static int write_failed(bool on_stdout, const char *name, int err)
{
	if (on_stdout && lr_output_stdout_gone())
		return 0;
	fprintf(stderr, "linerate: writing %s: %s\n", name, strerror(-err));
	return 1;
}

int lr_run_explain(const struct lr_config *cfg)
{
	struct lr_ethdump d1, d2;
	struct lr_explain_opts o = {0};
	const char *p1 = cfg->explain[0], *p2 = cfg->explain[1];
	FILE *csv = NULL;
	int rc = 1, err;

	memset(&d1, 0, sizeof(d1));
	memset(&d2, 0, sizeof(d2));
	if (!p1) {
		fprintf(stderr, "linerate: --explain needs a saved `ethtool -S` output file\n");
		return 2;
	}
	if (p2 && !strcmp(p1, "-") && !strcmp(p2, "-")) {
		fprintf(stderr, "linerate: --explain: only one dump can come from stdin\n");
		return 2;
	}
	rc = load(p1, &d1);
	if (!rc && p2)
		rc = load(p2, &d2);
	if (rc)
		goto out;
	rc = 1;
	o.label1 = p1;
	o.label2 = p2;
	/* --csv -: CSV alone on stdout; --csv FILE: the text on stdout, the CSV in FILE */
	if (cfg->csv && strcmp(cfg->csv, "-")) {
		csv = fopen(cfg->csv, "w");
		if (!csv) {
			fprintf(stderr, "linerate: cannot write %s: %s\n", cfg->csv,
				strerror(errno));
			goto out;
		}
	}
	if (!cfg->csv || csv) {
		err = lr_explain_write(stdout, &d1, p2 ? &d2 : NULL, &o);
		if (err) {
			rc = write_failed(true, "the explanation", err);
			goto out;
		}
	}
	if (cfg->csv) {
		const char *name = csv ? cfg->csv : "stdout";
		bool to_stdout = !csv;

		o.csv = true;
		err = lr_explain_write(csv ? csv : stdout, &d1, p2 ? &d2 : NULL, &o);
		if (csv) {
			if (fclose(csv) && !err)
				err = -errno;
			csv = NULL;
		}
		if (err) {
			rc = write_failed(to_stdout, name, err);
			goto out;
		}
	}
	rc = 0;
out:
	if (csv)
		fclose(csv);
	lr_ethdump_free(&d1);
	lr_ethdump_free(&d2);
	return rc;
}
