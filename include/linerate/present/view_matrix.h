/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The dashboard's Matrix pane: the grid's progress (cases done, the running one highlighted,
 * ETA) and the finished rows, newest last. It takes the Streams pane's band of the detail view
 * (lr_view_ctx.streams_pane). Pure drawing. [present] */
#ifndef LINERATE_VIEW_MATRIX_H
#define LINERATE_VIEW_MATRIX_H

#include <stdbool.h>

#include "linerate/present/frame.h"

struct lr_matrix_row;
struct lr_view_ctx;

struct lr_view_matrix {
	const struct lr_matrix_row *rows;	/* finished, in order */
	unsigned n_rows, n_cases;
	unsigned running;		/* 1-based case running, 0 none (ended) */
	const char *running_name;	/* "P=2 u=tcp" */
	double eta_s;			/* < 0 unknown */
	double running_s;		/* the running case's seconds so far, < 0 unknown */
	const char *ended_text;		/* the title's word once nothing runs; NULL "ended" */
	bool no_keys;			/* a replay: no "s skips, q ends" in the title */
};

/* arg: a const struct lr_view_matrix * (the signature of lr_view_ctx.streams_pane). */
void lr_view_matrix(struct lr_frame *f, struct lr_rect r, const struct lr_view_ctx *ctx, void *arg);

#endif
