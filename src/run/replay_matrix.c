// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The replay's Matrix pane: the --matrix-csv rows (read as text by the report's reader) as
 * the live pane's rows, and when each appears. A matrix CSV has no time column, so its rows
 * are timed only by the same run's --streams-csv: each case is one test, whose stream rows
 * form a block (the streams vanish between cases: a gap of more than 1.5 sampling steps), and
 * a case's row appears when its block's traffic ended (the last row that moved bytes). The
 * blocks are checked against the rows (as many, or one more for a case cut short; each
 * block's protocol and stream count the case's) before they are believed; otherwise, and
 * without a streams CSV, every row is shown finished from the start and the pane says why.
 * [main]
 */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "linerate/run/replay.h"
#include "linerate/core/strutil.h"
#include "linerate/diagnose/matrix_row.h"
#include "linerate/sample/report_read.h"
#include "replay_priv.h"

#define GAP_STEPS 1.5	/* stream rows further apart than this many steps: another case */

static int mx_cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return (x > y) - (x < y);
}

/* The column called name in the matrix header, or -1. */
static int mx_col(const struct lr_report *rep, const char *name)
{
	for (unsigned i = 0; i < rep->matrix_cols; i++)
		if (!strcmp(rep->matrix_header[i], name))
			return (int)i;
	return -1;
}

static const char *mx_text(const struct lr_report *rep, const struct lr_rep_matrix_row *m,
			const char *name)
{
	int c = mx_col(rep, name);

	return c >= 0 && (unsigned)c < m->n && m->field[c] ? m->field[c] : "";
}

/* A number column; unknown (empty or not a number) is -1, as lr_matrix_row keeps it. */
static double mx_number(const struct lr_report *rep, const struct lr_rep_matrix_row *m,
		     const char *name)
{
	double v;

	return lr_parse_double(mx_text(rep, m, name), &v) || v < 0 ? -1 : v;
}

static void mx_row_of(const struct lr_report *rep, const struct lr_rep_matrix_row *m,
		   struct lr_matrix_row *r)
{
	const char *dir = mx_text(rep, m, "reverse");
	double v;

	lr_matrix_row_init(r);
	v = mx_number(rep, m, "case");
	r->index = v > 0 && v < 1e9 ? (unsigned)v : 0;
	r->udp = !strcmp(mx_text(rep, m, "proto"), "udp");
	v = mx_number(rep, m, "streams");
	r->streams = v > 0 && v < 1e6 ? (unsigned)v : 1;
	v = mx_number(rep, m, "length");
	r->length = v > 0 && v < 1e12 ? (uint64_t)v : 0;
	r->dir = !strcmp(dir, "bidir") ? 2 : !strcmp(dir, "1") ? 1 : 0;
	v = mx_number(rep, m, "bitrate_target");
	r->bitrate_bps = v > 0 && v < 1e15 ? (uint64_t)v : 0;
	r->seconds = mx_number(rep, m, "seconds");
	r->sender_bps = mx_number(rep, m, "sender_bps");
	r->receiver_bps = mx_number(rep, m, "receiver_bps");
	r->receiver_pps = mx_number(rep, m, "receiver_pps");
	v = mx_number(rep, m, "retransmits");
	r->retransmits = v >= 0 && v < 9e18 ? (int64_t)v : -1;
	v = mx_number(rep, m, "lost");
	r->lost = v >= 0 && v < 9e18 ? (int64_t)v : -1;
	r->lost_pct = mx_number(rep, m, "lost_pct");
	r->jitter_ms = mx_number(rep, m, "jitter_ms");
	r->cpu_busy_pct = mx_number(rep, m, "local_cpu_busy_pct");
	r->peer_cpu_busy_pct = mx_number(rep, m, "peer_cpu_busy_pct");
	lr_strlcpy(r->verdict, mx_text(rep, m, "verdict"), sizeof(r->verdict));
}

/* The stream rows cut into blocks (one test each) where they pause; fills rp->mx_blocks. */
static int mx_blocks(struct lr_replay *rp)
{
	double *dt, step;
	size_t n = 0, k = 0;

	if (!rp->n_strows)
		return 0;
	dt = malloc(rp->n_strows * sizeof(*dt));
	rp->mx_block = calloc(rp->n_strows, sizeof(*rp->mx_block));
	if (!dt || !rp->mx_block) {
		free(dt);
		return -ENOMEM;
	}
	for (size_t i = 1; i < rp->n_strows; i++)
		if (rp->strows[i].time > rp->strows[i - 1].time)
			dt[n++] = rp->strows[i].time - rp->strows[i - 1].time;
	qsort(dt, n, sizeof(*dt), mx_cmp_double);
	step = n ? dt[n / 2] : 0;	/* the sampling step: the median distance */
	free(dt);
	for (size_t i = 0; i < rp->n_strows; i++) {
		const struct rp_strow *r = &rp->strows[i];
		struct rp_mx_block *b;
		double span;

		if (!i || r->time - rp->strows[i - 1].time > GAP_STEPS * step) {
			b = &rp->mx_block[k++];
			b->start = b->end = r->time;
			b->first = i;
			b->udp = r->udp;
		}
		b = &rp->mx_block[k - 1];
		b->n = i + 1 - b->first;
		b->mixed |= r->udp != b->udp;
		/* the first row of a stream counts from its start: bytes over its rate */
		span = r->v[6] > 0 && r->v[5] >= 0 ? r->v[5] * 8 / r->v[6] : 0;
		if (r->time - span < b->start)
			b->start = r->time - span;
		if (r->v[5] > 0)
			b->end = r->time;
	}
	rp->n_mx_blocks = k;
	return 0;
}

/* Distinct (stream, direction) of a block. */
static unsigned mx_block_streams(const struct lr_replay *rp, const struct rp_mx_block *b)
{
	unsigned n = 0;

	for (size_t i = b->first; i < b->first + b->n; i++) {
		bool seen = false;

		for (size_t j = b->first; j < i && !seen; j++)
			seen = rp->strows[j].id == rp->strows[i].id &&
			       rp->strows[j].send == rp->strows[i].send;
		n += !seen;
	}
	return n;
}

/* Each row's block: the same protocol and stream count (both directions for --bidir). */
static bool mx_blocks_match(const struct lr_replay *rp)
{
	if (rp->n_mx_blocks != rp->n_mx && rp->n_mx_blocks != rp->n_mx + 1)
		return false;
	for (unsigned i = 0; i < rp->n_mx; i++) {
		const struct lr_matrix_row *m = &rp->mx[i];
		const struct rp_mx_block *b = &rp->mx_block[i];

		if (b->mixed || b->udp != m->udp ||
		    mx_block_streams(rp, b) != m->streams * (m->dir == 2 ? 2u : 1u))
			return false;
	}
	return true;
}

int lr_replay_matrix_init(struct lr_replay *rp)
{
	const struct lr_report *rep = rp->rep;
	int err;

	if (!rep->n_matrix)
		return 0;
	rp->mx = calloc(rep->n_matrix, sizeof(*rp->mx));
	if (!rp->mx)
		return -ENOMEM;
	for (size_t i = 0; i < rep->n_matrix; i++)
		mx_row_of(rep, &rep->matrix[i], &rp->mx[i]);
	rp->n_mx = (unsigned)rep->n_matrix;
	err = mx_blocks(rp);
	if (err)
		return err;
	if (!rp->n_strows)
		rp->mx_why = "no times in the matrix CSV";
	else if (!mx_blocks_match(rp))
		rp->mx_why = "its rows do not match the streams CSV's tests";
	else
		rp->mx_timed = true;
	return 0;
}

void lr_replay_matrix_free(struct lr_replay *rp)
{
	free(rp->mx);
	free(rp->mx_block);
}

unsigned lr_replay_matrix_rows(const struct lr_replay *rp)
{
	return rp->n_mx;
}

const char *lr_replay_matrix_untimed(const struct lr_replay *rp)
{
	return rp->n_mx && !rp->mx_timed ? rp->mx_why : NULL;
}

void lr_replay_matrix_view(const struct lr_replay *rp, double pos, struct lr_matrix_progress *v,
			   char *name, size_t len)
{
	unsigned done = 0;

	memset(v, 0, sizeof(*v));
	v->rows = rp->mx;
	v->eta_s = v->running_s = -1;
	v->replay = true;
	name[0] = '\0';
	v->running_name = name;
	if (!rp->mx_timed) {
		v->n_rows = v->n_cases = rp->n_mx;
		v->untimed = true;
		return;
	}
	v->n_cases = (unsigned)rp->n_mx_blocks;
	while (done < rp->n_mx && rp->mx_block[done].end <= pos)
		done++;
	v->n_rows = done;
	if (done < rp->n_mx_blocks && pos < rp->mx_block[done].end) {
		const struct rp_mx_block *b = &rp->mx_block[done];
		const struct lr_matrix_row *m = done < rp->n_mx ? &rp->mx[done] : NULL;

		v->running = done + 1;
		if (pos >= b->start)
			v->running_s = pos - b->start;
		v->eta_s = rp->mx_block[rp->n_mx_blocks - 1].end - pos;
		if (m)
			snprintf(name, len, "P=%u u=%s", m->streams, m->udp ? "udp" : "tcp");
		else
			snprintf(name, len, "cut short: no row");
	}
}
