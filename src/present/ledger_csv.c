// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * --ledger-csv: the running test's ledger, one row per line per interval, each interval
 * flushed whole (docs/csv.md §8). The lines are lr_ledger_lines', as the Loss pane's. Main
 * thread.
 */
#include <errno.h>
#include <stdio.h>
#include <stdio_ext.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "linerate/core/clock.h"
#include "linerate/core/log.h"
#include "linerate/core/strutil.h"
#include "linerate/diagnose/ledger_live.h"
#include "linerate/present/ledger_csv.h"
#include "linerate/sample/csv.h"

struct lr_ledger_csv {
	FILE *f;
	char path[256];
	/* each direction's live ledger's steps already in the file (--bidir writes two) */
	uint64_t written[LR_LDIR__COUNT];
	off_t whole;		/* the file's size after the last whole interval */
	int err;
};

int lr_ledger_csv_open(struct lr_ledger_csv **out, const char *path)
{
	struct lr_ledger_csv *c = calloc(1, sizeof(*c));
	int err;

	if (!c)
		return -ENOMEM;
	lr_strlcpy(c->path, path, sizeof(c->path));
	c->f = fopen(path, "we");
	if (!c->f) {
		err = -errno;
		free(c);
		return err;
	}
	if (fprintf(c->f, "%s\n", LR_LEDGER_CSV_HEADER) < 0 || fflush(c->f)) {
		err = errno ? -errno : -EIO;
		lr_ledger_csv_close(c);
		return err;
	}
	c->whole = ftello(c->f);
	*out = c;
	return 0;
}

static void row(FILE *f, const char *prefix, const struct lr_ledger_line *ln)
{
	fputs(prefix, f);
	fputs(!ln->has_side ? "" : ln->peer ? "peer" : "local", f);
	fputc(',', f);
	lr_csv_field(f, ln->host);
	fputc(',', f);
	lr_csv_field(f, ln->stage);
	fputc(',', f);
	lr_csv_field(f, ln->counter);
	if (ln->known)
		fprintf(f, ",%lld,", (long long)ln->count);
	else
		fputs(",,", f);
	fputs(ln->unit, f);
	if (ln->dg_known)
		fprintf(f, ",%.0f,%d\n", ln->datagrams, ln->approx ? 1 : 0);
	else
		fputs(",,\n", f);
}

/* A failed write may leave part of a row: cut a regular file back to its last whole interval. */
static int cut_back(struct lr_ledger_csv *c, int err)
{
	struct stat st;

	c->err = err;
	__fpurge(c->f);
	if (!fstat(fileno(c->f), &st) && S_ISREG(st.st_mode) && st.st_size > c->whole &&
	    ftruncate(fileno(c->f), c->whole))
		lr_log(LR_LOG_WARN, "%s: cannot cut back to whole rows: %s", c->path,
		       strerror(errno));
	return err;
}

int lr_ledger_csv_write(struct lr_ledger_csv *c, const struct lr_ledger_live *lv,
			const char *direction, uint64_t real_ns, uint64_t elapsed_ns)
{
	struct lr_ledger_line ln[LR_LEDGER_LINES];
	char prefix[96];
	unsigned n, d = lv->total.dir == LR_LDIR_DOWN;

	if (c->err)
		return c->err;
	if (!lv->steps || lv->steps == c->written[d])
		return 0;
	c->written[d] = lv->steps;
	snprintf(prefix, sizeof(prefix), "%llu.%06llu,%.6f,%.6f,%s,",
		 (unsigned long long)(real_ns / LR_NSEC_PER_SEC),
		 (unsigned long long)(real_ns % LR_NSEC_PER_SEC / 1000),
		 (double)elapsed_ns / 1e9, lv->interval_s, direction);
	n = lr_ledger_lines(&lv->interval, lv->sender_local, ln);
	for (unsigned i = 0; i < n; i++)
		row(c->f, prefix, &ln[i]);
	if (fflush(c->f) || ferror(c->f))
		return cut_back(c, errno ? -errno : -EIO);
	c->whole = ftello(c->f);
	return 0;
}

int lr_ledger_csv_close(struct lr_ledger_csv *c)
{
	int err = 0;

	if (!c)
		return 0;
	if (fclose(c->f) && !c->err)	/* an earlier error was reported by the write */
		err = errno ? -errno : -EIO;
	free(c);
	return err;
}
