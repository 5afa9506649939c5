// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The replay's recording: every interface, CPU and stream row of the CSVs, read through the
 * report's reader (its row callback, so --replay and --report accept and refuse the same
 * files), held as numbers by the known column index, then ordered by time into ticks (the
 * distinct row times). Owns the rows; the playback and the snapshots are replay.c's. [main]
 */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "linerate/run/replay.h"
#include "linerate/core/array.h"
#include "linerate/core/strutil.h"
#include "linerate/sample/report_read.h"
#include "replay_priv.h"

static int side_of(const char *side)
{
	return !strcmp(side, "peer") ? RP_PEER : RP_LOCAL;
}

static int too_many(char *why, size_t len, const char *what)
{
	snprintf(why, len, "more than %u %s rows: too long to replay (--report reads any length)",
		 LR_REPLAY_ROWS_MAX, what);
	return -EINVAL;
}

static void set_host(struct lr_replay *rp, int side, const char *host)
{
	if (!rp->host[side][0] && host[0])
		lr_strlcpy(rp->host[side], host, sizeof(rp->host[side]));
}

static int series_of(struct lr_replay *rp, const char *name, int side, char *why, size_t len)
{
	struct rp_series *p;

	for (size_t n = 0; n < rp->n_series; n++) {
		size_t k = (rp->series_hint + n) % rp->n_series;

		if (rp->series[k].side == side && !strcmp(rp->series[k].name, name))
			return (int)k;
	}
	if (strlen(name) >= LR_IFNAMSIZ) {
		snprintf(why, len, "iface '%.40s' is longer than an interface name", name);
		return -EINVAL;
	}
	if (lr_array_grow(&rp->series, &rp->cap_series, rp->n_series + 1, sizeof(*rp->series)))
		return -ENOMEM;
	p = &rp->series[rp->n_series];
	memset(p, 0, sizeof(*p));
	lr_strlcpy(p->name, name, sizeof(p->name));
	p->side = side;
	return (int)rp->n_series++;
}

/* name is in the comma list */
static bool listed(const char *list, const char *name)
{
	size_t n = strlen(name);

	for (const char *p = list; p; p = strchr(p, ',') ? strchr(p, ',') + 1 : NULL)
		if (!strncmp(p, name, n) && (p[n] == ',' || !p[n]))
			return true;
	return false;
}

static int iface_row(struct lr_replay *rp, const struct lr_rep_row *row, char *why, size_t len)
{
	int side = side_of(row->side), s;
	struct rp_ifrow *r;

	if (rp->only && !listed(rp->only, row->field[2]))
		return 0;
	s = series_of(rp, row->field[2], side, why, len);
	if (s < 0)
		return s;
	rp->series_hint = (size_t)s + 1;
	if (row->driver[0])	/* whether its speed is a line rate goes by its driver */
		lr_strlcpy(rp->series[s].driver, row->driver, sizeof(rp->series[s].driver));
	if (rp->n_ifrows >= LR_REPLAY_ROWS_MAX)
		return too_many(why, len, "interface");
	if (lr_array_grow(&rp->ifrows, &rp->cap_ifrows, rp->n_ifrows + 1, sizeof(*rp->ifrows)))
		return -ENOMEM;
	r = &rp->ifrows[rp->n_ifrows];
	r->seq = (uint32_t)rp->n_ifrows++;
	r->series = (uint32_t)s;
	for (unsigned i = 0; i < RP_IF_COLS; i++)
		r->v[i] = i == 2 ? NAN : lr_rep_row_num(row, i);
	for (unsigned q = 0; q < LR_RQ__COUNT; q++)	/* the reader checked: a number or empty */
		r->qdisc[q] = row->qdisc[q] && *row->qdisc[q] ? strtod(row->qdisc[q], NULL) : NAN;
	r->time = r->v[0];
	set_host(rp, side, row->host);
	rp->have[side] = true;
	return 0;
}

static int cpu_row(struct lr_replay *rp, const struct lr_rep_row *row, char *why, size_t len)
{
	struct rp_cpurow *r;
	int side = side_of(row->side);

	if (rp->n_cpurows >= LR_REPLAY_ROWS_MAX)
		return too_many(why, len, "CPU");
	if (lr_array_grow(&rp->cpurows, &rp->cap_cpurows, rp->n_cpurows + 1, sizeof(*rp->cpurows)))
		return -ENOMEM;
	r = &rp->cpurows[rp->n_cpurows];
	r->seq = (uint32_t)rp->n_cpurows++;
	r->side = (uint8_t)side;
	for (unsigned i = 0; i < RP_CPU_COLS; i++)
		r->v[i] = (float)lr_rep_row_num(row, i);
	r->time = lr_rep_row_num(row, 0);
	r->elapsed = lr_rep_row_num(row, 1);
	r->interval = lr_rep_row_num(row, 3);
	r->cpu = (int)lr_rep_row_num(row, 2);	/* the reader checked: a whole number */
	set_host(rp, side, row->host);
	rp->have[side] = true;
	return 0;
}

static int stream_row(struct lr_replay *rp, const struct lr_rep_row *row, char *why, size_t len)
{
	struct rp_strow *r;

	if (!strcmp(row->field[2], "latency"))
		return 0;	/* the latency probes' row: no stream to replay */
	if (rp->n_strows >= LR_REPLAY_ROWS_MAX)
		return too_many(why, len, "stream");
	if (lr_array_grow(&rp->strows, &rp->cap_strows, rp->n_strows + 1, sizeof(*rp->strows)))
		return -ENOMEM;
	r = &rp->strows[rp->n_strows];
	r->seq = (uint32_t)rp->n_strows++;
	for (unsigned i = 0; i < RP_ST_COLS; i++)
		r->v[i] = i >= 2 && i <= 4 ? NAN : lr_rep_row_num(row, i);
	r->time = r->v[0];
	r->id = (int)lr_rep_row_num(row, 2);
	r->send = !strcmp(row->field[3], "send");	/* the reader checked: send or recv */
	r->udp = !strcmp(row->field[4], "udp");
	r->target_col = row->target_bps != NULL;	/* the reader checked: a number or empty */
	r->target = row->target_bps && *row->target_bps ? strtod(row->target_bps, NULL) : NAN;
	rp->have[RP_LOCAL] = true;
	return 0;
}

static int queue_row(struct lr_replay *rp, const struct lr_rep_row *row, char *why, size_t len)
{
	int side = side_of(row->side), s;
	struct rp_qrow *r;
	const char *src = row->field[15];

	if (rp->only && !listed(rp->only, row->field[2]))
		return 0;
	s = series_of(rp, row->field[2], side, why, len);
	if (s < 0)
		return s;
	if (rp->n_qrows >= LR_REPLAY_ROWS_MAX)
		return too_many(why, len, "queue");
	if (lr_array_grow(&rp->qrows, &rp->cap_qrows, rp->n_qrows + 1, sizeof(*rp->qrows)))
		return -ENOMEM;
	r = &rp->qrows[rp->n_qrows];
	r->seq = (uint32_t)rp->n_qrows++;
	r->series = (uint32_t)s;
	for (unsigned i = 0; i < RP_Q_COLS; i++)
		r->v[i] = i == 2 ? NAN : lr_rep_row_num(row, i);
	r->time = r->v[0];
	r->queue = (unsigned)r->v[3];	/* the reader checked: a whole number <= 2^20 */
	r->source = !strcmp(src, "qstats") ? LR_QSRC_QSTATS : LR_QSRC_ETHTOOL;
	return 0;
}

/* The report reader's row callback: interface, CPU, stream and queue rows are kept; matrix
 * rows are kept by the reader itself (as text: replay_matrix.c reads them at the start). */
static int on_row(void *arg, const struct lr_rep_row *row, char *why, size_t len)
{
	struct lr_replay *rp = arg;

	switch (row->kind) {
	case LR_REP_IFACES:
		return iface_row(rp, row, why, len);
	case LR_REP_CPUS:
		return cpu_row(rp, row, why, len);
	case LR_REP_STREAMS:
		return stream_row(rp, row, why, len);
	case LR_REP_QUEUES:
		return queue_row(rp, row, why, len);
	case LR_REP_MATRIX:
	case LR_REP_LEDGER:	/* the report's: the replay has no ledger pane yet */
		break;
	}
	return 0;
}

int lr_replay_new(struct lr_replay **out)
{
	struct lr_replay *rp = calloc(1, sizeof(*rp));

	if (!rp || lr_report_new(&rp->rep)) {
		free(rp);
		return -ENOMEM;
	}
	rp->rep->row_fn = on_row;
	rp->rep->row_arg = rp;
	rp->built = RP_NONE;
	*out = rp;
	return 0;
}

void lr_replay_set_ifaces(struct lr_replay *rp, const char *list)
{
	rp->only = list;
}

int lr_replay_add(struct lr_replay *rp, FILE *f, const char *name, char *err, size_t errlen)
{
	return lr_report_read(rp->rep, f, name, err, errlen);
}

/* Rows by time, then in the order read (peer rows may step back a little: kept stable). */
static int cmp_time_seq(double ta, uint32_t sa, double tb, uint32_t sb)
{
	if (ta != tb)
		return ta < tb ? -1 : 1;
	return sa < sb ? -1 : sa > sb;
}

static int cmp_ifrow(const void *a, const void *b)
{
	const struct rp_ifrow *x = a, *y = b;

	return cmp_time_seq(x->time, x->seq, y->time, y->seq);
}

static int cmp_cpurow(const void *a, const void *b)
{
	const struct rp_cpurow *x = a, *y = b;

	return cmp_time_seq(x->time, x->seq, y->time, y->seq);
}

static int cmp_strow(const void *a, const void *b)
{
	const struct rp_strow *x = a, *y = b;

	return cmp_time_seq(x->time, x->seq, y->time, y->seq);
}

static int cmp_qrow(const void *a, const void *b)
{
	const struct rp_qrow *x = a, *y = b;

	return cmp_time_seq(x->time, x->seq, y->time, y->seq);
}

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return (x > y) - (x < y);
}

static int cmp_tick(const void *a, const void *b)
{
	const struct rp_tick *x = a, *y = b;

	if (x->time != y->time)
		return x->time < y->time ? -1 : 1;
	/* a tick's interval comes from a row that has one (stream rows have none) */
	return isnan(x->interval) - isnan(y->interval);
}

/* Ticks: the distinct row times, each with the elapsed and interval of a row at that time. */
static int make_ticks(struct lr_replay *rp)
{
	size_t n = rp->n_ifrows + rp->n_cpurows + rp->n_strows, k = 0;
	struct rp_tick *t = malloc((n ? n : 1) * sizeof(*t));

	if (!t)
		return -ENOMEM;
	for (size_t i = 0; i < rp->n_ifrows; i++)
		t[k++] = (struct rp_tick){rp->ifrows[i].time, rp->ifrows[i].v[1], rp->ifrows[i].v[3]};
	for (size_t i = 0; i < rp->n_cpurows; i++)
		t[k++] = (struct rp_tick){rp->cpurows[i].time, rp->cpurows[i].elapsed,
					  rp->cpurows[i].interval};
	for (size_t i = 0; i < rp->n_strows; i++)
		t[k++] = (struct rp_tick){rp->strows[i].time, rp->strows[i].v[1], NAN};
	qsort(t, n, sizeof(*t), cmp_tick);
	k = 0;
	for (size_t i = 0; i < n; i++) {
		if (k && t[k - 1].time == t[i].time)
			continue;
		t[k] = t[i];
		if (isnan(t[k].interval))	/* streams only: the sampling interval before it */
			t[k].interval = k ? t[k - 1].interval : 0;
		k++;
	}
	if (!k)	/* a matrix CSV alone: one tick, with no time (its rows have none) */
		t[k++] = (struct rp_tick){0, 0, 0};
	rp->ticks = t;
	rp->n_ticks = k;
	return 0;
}

/* The interval the run was asked for, as the median of the ticks' measured ones (the last
 * tick of a run, taken at its stop, is short). */
static int typical_interval(struct lr_replay *rp)
{
	double *iv = malloc(rp->n_ticks * sizeof(*iv));

	if (!iv)
		return -ENOMEM;
	for (size_t i = 0; i < rp->n_ticks; i++)
		iv[i] = rp->ticks[i].interval;
	qsort(iv, rp->n_ticks, sizeof(*iv), cmp_double);
	rp->typical_interval = iv[rp->n_ticks / 2];
	free(iv);
	return 0;
}

int lr_replay_start(struct lr_replay *rp, uint64_t now_ns, char *err, size_t errlen)
{
	int e;

	if (!rp->n_ifrows && !rp->n_cpurows && !rp->n_strows && !rp->rep->n_matrix) {
		snprintf(err, errlen, "%s: no interface, CPU, stream or matrix rows to replay",
			 rp->rep->n_files ? rp->rep->files[rp->rep->n_files - 1].name : "--replay");
		return -EINVAL;
	}
	if (rp->n_ifrows)
		qsort(rp->ifrows, rp->n_ifrows, sizeof(*rp->ifrows), cmp_ifrow);
	if (rp->n_cpurows)
		qsort(rp->cpurows, rp->n_cpurows, sizeof(*rp->cpurows), cmp_cpurow);
	if (rp->n_strows)
		qsort(rp->strows, rp->n_strows, sizeof(*rp->strows), cmp_strow);
	if (rp->n_qrows)
		qsort(rp->qrows, rp->n_qrows, sizeof(*rp->qrows), cmp_qrow);
	e = make_ticks(rp);
	if (!e)
		e = lr_replay_matrix_init(rp);
	if (e)
		return e;
	e = typical_interval(rp);
	if (e)
		return e;
	e = lr_replay_states_init(rp);
	if (e)
		return e;
	rp->pos_anchor = rp->ticks[0].time;
	rp->mono_anchor = now_ns;
	return 0;
}

void lr_replay_close(struct lr_replay *rp)
{
	if (!rp)
		return;
	lr_replay_states_free(rp);
	lr_report_free(rp->rep);
	free(rp->ifrows);
	free(rp->cpurows);
	free(rp->strows);
	free(rp->qrows);
	lr_replay_matrix_free(rp);
	free(rp->series);
	free(rp->ticks);
	free(rp);
}

size_t lr_replay_ticks(const struct lr_replay *rp)
{
	return rp->n_ticks;
}

double lr_replay_first_time(const struct lr_replay *rp)
{
	return rp->n_ticks ? rp->ticks[0].time : 0;
}

double lr_replay_last_time(const struct lr_replay *rp)
{
	return rp->n_ticks ? rp->ticks[rp->n_ticks - 1].time : 0;
}

bool lr_replay_has_streams(const struct lr_replay *rp)
{
	return rp->n_strows > 0;
}

double lr_replay_stream_target(const struct lr_replay *rp)
{
	return rp->built == RP_NONE ? -1 : rp->target;
}

const char *lr_replay_host(const struct lr_replay *rp)
{
	return rp->host[RP_LOCAL];
}
