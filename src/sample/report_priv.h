/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Shared between the report's reader (report_csv.c: lines, header, files) and its row folding
 * (report_rows.c). Private to src/present/report_*.c. [main] */
#ifndef LINERATE_REPORT_PRIV_H
#define LINERATE_REPORT_PRIV_H

#include <stddef.h>

#include "linerate/sample/report_read.h"

/* One parsed line: fields point into buf (unquoted in place). */
struct fields {
	char buf[LR_REP_LINE_MAX + 1];
	char *f[LR_REP_FIELDS_MAX];
	unsigned n;
};

struct reader {
	struct lr_report *r;
	struct lr_rep_file *file;
	const char *name;
	unsigned long line;
	char *err;
	size_t errlen;
	int col[LR_REP_FIELDS_MAX];	/* known-prefix index -> column (identity) */
	int side_col, host_col;	/* appended columns, -1 absent */
	int target_col;		/* streams' appended target_bps, -1 absent */
	int driver_col;		/* interfaces' appended driver, -1 absent */
	int qdisc_col[LR_RQ__COUNT];	/* interfaces' appended qdisc columns, -1 absent */
	int length_col, cc_col;	/* streams' appended length and congestion, -1 absent */
	unsigned ncols;
	double elapsed_seen;	/* the largest elapsed so far in this file */
	size_t hint;	/* the series after the last row's: rows come in the same order each tick */
};

/* Formats "NAME:LINE: why" into the reader's error buffer; returns -EINVAL. */
int lr_rep_bad(struct reader *rd, const char *fmt, ...) LR_PRINTF(2, 3);
/* The name of an appended qdisc column (for errors). */
const char *lr_rep_qdisc_col_name(enum lr_rep_qdisc_col q);
/* The name of column idx of a kind's known prefix (for errors). */
const char *lr_rep_col_name(enum lr_rep_kind kind, unsigned idx);

/* Fold one data row (fields already split, count checked) into the report. 0 or -EINVAL
 * (error set) or -ENOMEM. */
int lr_rep_iface_row(struct reader *rd, const struct fields *fs);
int lr_rep_cpu_row(struct reader *rd, const struct fields *fs);
int lr_rep_stream_row(struct reader *rd, const struct fields *fs);
int lr_rep_queue_row(struct reader *rd, const struct fields *fs);
int lr_rep_matrix_row(struct reader *rd, const struct fields *fs);
int lr_rep_ledger_row(struct reader *rd, const struct fields *fs);
/* Charts each series' held row (report_rows.c): at the end of every file. */
void lr_rep_commit_held(struct lr_report *r);

#endif
