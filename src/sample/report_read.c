// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The reader of recorded runs, shared by the HTML report and the replay: CSVs linerate wrote,
 * known by their header's first columns (docs/csv.md: columns are only ever appended, so
 * later columns are looked up by name
 * and unknown ones ignored). Every row is folded into its series at once (totals, peaks, time
 * buckets), so memory follows the number of series, not the length of the run. The input is
 * untrusted: lines, fields, names, series and rows are bounded, numbers must be finite and not
 * negative, and the first bad thing is one "file:line: why" error.
 */
#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "linerate/sample/report_read.h"
#include "linerate/core/strutil.h"
#include "report_priv.h"

#define RUN_GAP_SECS 60.0	/* files further apart in time than this are two runs */
/* time - elapsed is when the run began: the same in every file of one run (one sampler's
 * clock; microseconds apart in recorded runs), unless the wall clock was stepped meanwhile */
#define START_SLACK_SECS 0.25

/* The known prefix of each kind's header: a file is of a kind when its header starts so. */
static const char *const iface_cols[] = {
	"time", "elapsed", "iface", "interval", "rx_bytes", "tx_bytes", "rx_packets",
	"tx_packets", "rx_bps", "tx_bps", "rx_pps", "tx_pps", "rx_dropped", "tx_dropped",
	"rx_errors", "tx_errors", "rx_fifo", "rx_missed", "rx_over", "nic_fifo", "nic_drop",
	"softirq_max_pct", "softirq_cpu", "link_mbps", "mtu", "wire_util_pct", NULL};
static const char *const cpu_cols[] = {
	"time", "elapsed", "cpu", "interval", "user_pct", "system_pct", "irq_pct", "softirq_pct",
	"idle_pct", "net_rx_per_s", "net_tx_per_s", "softnet_processed_per_s",
	"softnet_dropped_per_s", "softnet_squeezed_per_s", NULL};
static const char *const stream_cols[] = {
	"time", "elapsed", "stream", "direction", "protocol", "bytes", "bps", "packets", "pps",
	"retransmits", "lost", "out_of_order", "jitter_ms", "cwnd_bytes", "rtt_us", NULL};
static const char *const queue_cols[] = {
	"time", "elapsed", "iface", "queue", "interval", "rx_packets", "rx_bytes", "tx_packets",
	"tx_bytes", "rx_drops", "tx_drops", "rx_pps", "tx_pps", "cpu", "cpu_softirq_pct", NULL};
static const char *const ledger_cols[] = {
	"time", "elapsed", "interval", "direction", "side", "host", "stage", "counter", "count",
	"unit", "datagrams", "approx", NULL};
static const char *const matrix_cols[] = {
	"case", "proto", "streams", "length", "reverse", "bitrate_target", "window", "mss",
	"congestion", "seconds", "sender_bps", "receiver_bps", NULL};

/* The interface CSV's appended qdisc columns, by enum lr_rep_qdisc_col. */
static const char *const qdisc_cols[LR_RQ__COUNT] = {
	"qdisc_drops", "qdisc_overlimits", "qdisc_requeues", "qdisc_backlog_bytes",
	"qdisc_backlog_packets",
};

const char *lr_rep_qdisc_col_name(enum lr_rep_qdisc_col q)
{
	return qdisc_cols[q];
}

static int qdisc_col_of(const char *name)
{
	for (int q = 0; q < LR_RQ__COUNT; q++)
		if (!strcmp(qdisc_cols[q], name))
			return q;
	return -1;
}

static const char *const *const known[] = {
	[LR_REP_IFACES] = iface_cols, [LR_REP_CPUS] = cpu_cols, [LR_REP_STREAMS] = stream_cols,
	[LR_REP_QUEUES] = queue_cols, [LR_REP_MATRIX] = matrix_cols, [LR_REP_LEDGER] = ledger_cols,
};

const char *lr_rep_col_name(enum lr_rep_kind kind, unsigned idx)
{
	return known[kind][idx];
}

int lr_rep_col_index(enum lr_rep_kind kind, const char *name)
{
	for (int i = 0; known[kind][i]; i++)
		if (!strcmp(known[kind][i], name))
			return i;
	return -1;
}

double lr_rep_row_num(const struct lr_rep_row *row, unsigned idx)
{
	double v;

	if (idx >= row->n_known || !*row->field[idx] || lr_parse_double(row->field[idx], &v) ||
	    !(v >= 0 && v <= 9.2e18))	/* the reader's bound: it refused such a row already */
		return NAN;
	return v;
}

/* Hands an accepted row to the report's row callback (--replay). */
static int pass_row(struct reader *rd, const struct fields *fs)
{
	struct lr_report *r = rd->r;
	struct lr_rep_row row = {
		.kind = rd->file->kind,
		.field = (const char *const *)fs->f,
		.side = rd->side_col >= 0 && *fs->f[rd->side_col] ? fs->f[rd->side_col] : "local",
		.host = rd->host_col >= 0 ? fs->f[rd->host_col] : "",
		.target_bps = rd->target_col >= 0 ? fs->f[rd->target_col] : NULL,
		.driver = rd->driver_col >= 0 ? fs->f[rd->driver_col] : "",
		.qdisc = {NULL},
		.file = rd->name,
		.line = rd->line,
	};
	char why[LR_REP_ERR_MAX] = "";
	int rc;

	while (known[row.kind][row.n_known])
		row.n_known++;
	for (int q = 0; q < LR_RQ__COUNT; q++)
		row.qdisc[q] = rd->qdisc_col[q] >= 0 ? fs->f[rd->qdisc_col[q]] : NULL;
	rc = r->row_fn(r->row_arg, &row, why, sizeof(why));
	if (rc == -EINVAL)
		return lr_rep_bad(rd, "%s", why[0] ? why : "row refused");
	return rc;
}

int lr_rep_bad(struct reader *rd, const char *fmt, ...)
{
	char why[LR_REP_ERR_MAX];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(why, sizeof(why), fmt, ap);
	va_end(ap);
	snprintf(rd->err, rd->errlen, "%s:%lu: %s", rd->name, rd->line, why);
	return -EINVAL;
}

/* RFC 4180 fields, unquoted in place. -1 on a stray quote or too many fields. */
static int split(struct fields *fs, size_t len)
{
	char *p = fs->buf, *end = fs->buf + len, *w;

	fs->n = 0;
	for (;;) {
		if (fs->n == LR_REP_FIELDS_MAX)
			return -1;
		fs->f[fs->n++] = w = p;
		if (p < end && *p == '"') {
			for (p++;; p++) {
				if (p == end)
					return -1;	/* unterminated quote */
				if (*p == '"') {
					if (p + 1 < end && p[1] == '"') {
						*w++ = '"';
						p++;
						continue;
					}
					p++;
					break;
				}
				*w++ = *p;
			}
			if (p < end && *p != ',')
				return -1;
		} else {
			while (p < end && *p != ',') {
				if (*p == '"')
					return -1;
				w++, p++;
			}
		}
		if (p == end) {
			*w = '\0';
			return 0;
		}
		*w = '\0';
		p++;	/* past the comma */
	}
}

int lr_report_kind_of_header(const char *line, unsigned *extra)
{
	struct fields *fs = malloc(sizeof(*fs));
	size_t len = strlen(line);
	int kind = -1;

	if (!fs || len > LR_REP_LINE_MAX) {
		free(fs);
		return -1;
	}
	memcpy(fs->buf, line, len + 1);
	if (split(fs, len)) {
		free(fs);
		return -1;
	}
	for (unsigned k = 0; k < LR_ARRAY_SIZE(known) && kind < 0; k++) {
		unsigned i = 0;

		while (known[k][i] && i < fs->n && !strcmp(known[k][i], fs->f[i]))
			i++;
		if (!known[k][i]) {
			kind = (int)k;
			if (extra)
				*extra = fs->n - i;
		}
	}
	free(fs);
	return kind;
}

/* Bounded line read: 1 a line, 0 at EOF, -1 too long/NUL/truncated (why set), -2 I/O. */
static int read_line(FILE *f, struct fields *fs, size_t *len, const char **why)
{
	size_t n = 0;
	int c;

	while ((c = getc_unlocked(f)) != EOF && c != '\n') {
		if (n == LR_REP_LINE_MAX) {
			*why = "line longer than 4096 bytes";
			return -1;
		}
		if (!c) {
			*why = "NUL byte (not a text CSV)";
			return -1;
		}
		fs->buf[n++] = (char)c;
	}
	if (c == EOF && ferror(f))
		return -2;
	if (c == EOF && !n)
		return 0;
	if (c == EOF) {
		*why = "truncated last line (no newline at its end)";
		return -1;
	}
	if (n && fs->buf[n - 1] == '\r')
		n--;
	fs->buf[n] = '\0';
	*len = n;
	return 1;
}

static int header(struct reader *rd, struct fields *fs)
{
	struct lr_report *r = rd->r;
	unsigned k, n = 0;

	for (k = 0; k < LR_ARRAY_SIZE(known); k++) {
		for (n = 0; known[k][n] && n < fs->n && !strcmp(known[k][n], fs->f[n]);)
			n++;
		if (!known[k][n])
			break;
	}
	if (k == LR_ARRAY_SIZE(known))
		return lr_rep_bad(rd, "not a CSV linerate wrote (the header names no interface, CPU, "
			       "streams, queues, matrix or ledger columns)");
	rd->file->kind = (enum lr_rep_kind)k;
	rd->file->extra_columns = fs->n - n;
	rd->ncols = fs->n;
	rd->side_col = rd->host_col = rd->target_col = rd->driver_col = -1;
	rd->length_col = rd->cc_col = -1;
	for (int q = 0; q < LR_RQ__COUNT; q++)
		rd->qdisc_col[q] = -1;
	for (unsigned i = n; i < fs->n; i++) {
		int q = k == LR_REP_IFACES ? qdisc_col_of(fs->f[i]) : -1;

		if (q >= 0 && rd->qdisc_col[q] < 0) {
			rd->qdisc_col[q] = (int)i;
			rd->file->extra_columns--;
			continue;
		}
		if (!strcmp(fs->f[i], "side") && rd->side_col < 0)
			rd->side_col = (int)i;
		else if (!strcmp(fs->f[i], "host") && rd->host_col < 0)
			rd->host_col = (int)i;
		else if (k == LR_REP_STREAMS && !strcmp(fs->f[i], "target_bps") && rd->target_col < 0)
			rd->target_col = (int)i;
		else if (k == LR_REP_IFACES && !strcmp(fs->f[i], "driver") && rd->driver_col < 0)
			rd->driver_col = (int)i;
		else if (k == LR_REP_STREAMS && !strcmp(fs->f[i], "length") && rd->length_col < 0)
			rd->length_col = (int)i;
		else if (k == LR_REP_STREAMS && !strcmp(fs->f[i], "congestion") && rd->cc_col < 0)
			rd->cc_col = (int)i;
		else if (!*fs->f[i])
			return lr_rep_bad(rd, "column %u of the header is empty", i + 1);
		if (rd->side_col == (int)i || rd->host_col == (int)i || rd->target_col == (int)i ||
		    rd->driver_col == (int)i || rd->length_col == (int)i || rd->cc_col == (int)i)
			rd->file->extra_columns--;
	}
	if (k == LR_REP_MATRIX) {
		rd->file->extra_columns = 0;	/* the matrix table shows every column */
		if (r->matrix_cols)
			return lr_rep_bad(rd, "a second matrix CSV (one run's matrix per report)");
		for (unsigned i = 0; i < fs->n; i++) {
			r->matrix_header[i] = strdup(fs->f[i]);
			if (!r->matrix_header[i])
				return -ENOMEM;
			r->matrix_cols = i + 1;
		}
	}
	return 0;
}

/* Files of one report come from one run: their times must meet (within RUN_GAP_SECS). */
static int same_run(struct reader *rd)
{
	struct lr_report *r = rd->r;
	const struct lr_rep_file *f = rd->file;

	if (f->time_max < 0)
		return 0;
	if (r->time_max >= 0 &&
	    (f->time_min > r->time_max + RUN_GAP_SECS || f->time_max + RUN_GAP_SECS < r->time_min))
		return lr_rep_bad(rd, "recorded at another time than the files before it (not the same run)");
	if (r->start >= 0 && f->start >= 0 && fabs(f->start - r->start) > START_SLACK_SECS) {
		rd->line = 2;
		return lr_rep_bad(rd, "a run that began %.1f s %s the one of the files before it "
			   "(time - elapsed differs: not the same run)", fabs(f->start - r->start),
			   f->start > r->start ? "after" : "before");
	}
	if (r->start < 0)
		r->start = f->start;
	if (r->time_max < 0 || f->time_min < r->time_min)
		r->time_min = f->time_min;
	if (f->time_max > r->time_max)
		r->time_max = f->time_max;
	return 0;
}

int lr_report_read(struct lr_report *r, FILE *f, const char *name, char *err, size_t errlen)
{
	struct reader rd = {.r = r, .name = name, .err = err, .errlen = errlen};
	struct fields *fs;
	const char *why = NULL;
	size_t len;
	int rc = 0, got;

	if (r->n_files == LR_REP_FILES_MAX) {
		snprintf(err, errlen, "%s: more than %d files", name, LR_REP_FILES_MAX);
		return -EINVAL;
	}
	fs = malloc(sizeof(*fs));
	if (!fs)
		return -ENOMEM;
	rd.file = &r->files[r->n_files];
	memset(rd.file, 0, sizeof(*rd.file));
	lr_strlcpy(rd.file->name, name, sizeof(rd.file->name));
	rd.file->time_max = -1;
	rd.file->start = -1;
	while (!rc && (got = read_line(f, fs, &len, &why)) != 0) {
		rd.line++;
		if (got == -2) {
			rc = -EIO;
			snprintf(err, errlen, "%s:%lu: %s", name, rd.line, strerror(errno ? errno : EIO));
			break;
		}
		if (got < 0) {
			rc = lr_rep_bad(&rd, "%s", why);
			break;
		}
		if (split(fs, len)) {
			rc = lr_rep_bad(&rd, "%s", fs->n == LR_REP_FIELDS_MAX ? "more than 64 columns"
								    : "a stray or unterminated quote");
			break;
		}
		if (rd.line == 1) {
			rc = header(&rd, fs);
			continue;
		}
		if (rd.line - 1 > LR_REP_ROWS_MAX) {
			rc = lr_rep_bad(&rd, "more than %llu rows", (unsigned long long)LR_REP_ROWS_MAX);
			break;
		}
		if (!strcmp(fs->f[0], "time") || !strcmp(fs->f[0], "case")) {
			rc = lr_rep_bad(&rd, "a second header: two runs in one file?");
			break;
		}
		if (fs->n != rd.ncols) {
			rc = lr_rep_bad(&rd, "%u fields where the header has %u", fs->n, rd.ncols);
			break;
		}
		rd.file->rows++;
		switch (rd.file->kind) {
		case LR_REP_IFACES:
			rc = lr_rep_iface_row(&rd, fs);
			break;
		case LR_REP_CPUS:
			rc = lr_rep_cpu_row(&rd, fs);
			break;
		case LR_REP_STREAMS:
			rc = lr_rep_stream_row(&rd, fs);
			break;
		case LR_REP_QUEUES:
			rc = lr_rep_queue_row(&rd, fs);
			break;
		case LR_REP_MATRIX:
			rc = lr_rep_matrix_row(&rd, fs);
			break;
		case LR_REP_LEDGER:
			rc = lr_rep_ledger_row(&rd, fs);
			break;
		}
		if (!rc && rd.file->start < 0 && rd.file->kind != LR_REP_MATRIX) {
			double t, e;	/* both checked by the row's fold */

			if (!lr_parse_double(fs->f[0], &t) && !lr_parse_double(fs->f[1], &e))
				rd.file->start = t - e;
		}
		if (!rc && r->row_fn)
			rc = pass_row(&rd, fs);
	}
	lr_rep_commit_held(r);	/* a file's last rows are charted even when the read failed */
	if (!rc && !rd.line) {
		rd.line = 1;
		rc = lr_rep_bad(&rd, "empty file: not a CSV linerate wrote");
	}
	if (!rc)
		rc = same_run(&rd);
	if (!rc)
		r->n_files++;
	else if (rc == -ENOMEM)
		snprintf(err, errlen, "%s:%lu: out of memory", name, rd.line);
	free(fs);
	return rc;
}

int lr_report_new(struct lr_report **out)
{
	struct lr_report *r = calloc(1, sizeof(*r));

	if (!r)
		return -ENOMEM;
	r->bucket_secs = 0.01;	/* the shortest -i: a short run keeps every row */
	r->time_max = -1;
	r->start = -1;
	*out = r;
	return 0;
}

void lr_report_free(struct lr_report *r)
{
	if (!r)
		return;
	for (size_t k = 0; k < r->n_ifaces; k++)
		free(r->ifaces[k].band);
	for (size_t k = 0; k < r->n_cpus; k++)
		free(r->cpus[k].band);
	for (size_t k = 0; k < r->n_matrix; k++)
		for (unsigned i = 0; i < r->matrix[k].n; i++)
			free(r->matrix[k].field[i]);
	for (unsigned i = 0; i < r->matrix_cols; i++)
		free(r->matrix_header[i]);
	free(r->ifaces);
	free(r->cpus);
	free(r->streams);
	free(r->queues);
	free(r->matrix);
	free(r->ledger);
	free(r);
}
