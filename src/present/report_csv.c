// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The report's reader: CSVs linerate wrote, known by their header's first columns (DESIGN.md
 * sections 4, 10, 12: columns are only ever appended, so later columns are looked up by name
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

#include "linerate/present/report.h"
#include "linerate/core/strutil.h"

#define SLACK_SECS 1.0	/* elapsed may step back this much (peer rows arrive late) */
#define RUN_GAP_SECS 60.0	/* files further apart in time than this are two runs */

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
static const char *const matrix_cols[] = {
	"case", "proto", "streams", "length", "reverse", "bitrate_target", "window", "mss",
	"congestion", "seconds", "sender_bps", "receiver_bps", NULL};

static const char *const *const known[] = {
	[LR_REP_IFACES] = iface_cols, [LR_REP_CPUS] = cpu_cols, [LR_REP_STREAMS] = stream_cols,
	[LR_REP_QUEUES] = queue_cols, [LR_REP_MATRIX] = matrix_cols,
};

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
	unsigned ncols;
	double elapsed_seen;	/* the largest elapsed so far in this file */
	size_t hint;	/* the series after the last row's: rows come in the same order each tick */
};

static int bad(struct reader *rd, const char *fmt, ...) LR_PRINTF(2, 3);
static int bad(struct reader *rd, const char *fmt, ...)
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

/* A number field: 0 known, 1 empty (unknown), -1 bad. Never negative, always finite. */
static int num(const char *s, double *v)
{
	if (!*s) {
		*v = NAN;
		return 1;
	}
	if (lr_parse_double(s, v) || *v < 0 || !isfinite(*v))
		return -1;
	return 0;
}

static bool known_num(double v)
{
	return !isnan(v);
}

static void *grow(void *p, size_t *cap, size_t n, size_t size, size_t max)
{
	size_t ncap;
	void *np;

	if (n < *cap)
		return p;
	if (n >= max)
		return NULL;
	ncap = *cap ? *cap * 2 : 16;
	if (ncap > max)
		ncap = max;
	np = realloc(p, ncap * size);
	if (np)
		*cap = ncap;
	return np;
}

static void band_reset(struct lr_rep_band *b)
{
	b->min = INFINITY;
	b->max = -INFINITY;
	b->sum = 0;
	b->n = 0;
}

static void band_add(struct lr_rep_band *b, double v)
{
	if (v < b->min)
		b->min = v;
	if (v > b->max)
		b->max = v;
	b->sum += v;
	b->n++;
}

static void band_merge(struct lr_rep_band *into, const struct lr_rep_band *a,
		       const struct lr_rep_band *b)
{
	struct lr_rep_band m = *a;

	if (b->n) {
		if (b->min < m.min)
			m.min = b->min;
		if (b->max > m.max)
			m.max = b->max;
		m.sum += b->sum;
		m.n += b->n;
	}
	*into = m;
}

/* Halves the resolution of every series: bucket k now holds old buckets 2k and 2k+1. */
static void widen(struct lr_report *r)
{
	const unsigned half = LR_REP_BUCKETS / 2;

	for (size_t s = 0; s < r->n_ifaces; s++) {
		struct lr_rep_band (*b)[LR_RM__COUNT] = r->ifaces[s].band;

		for (unsigned k = 0; k < half; k++)
			for (unsigned m = 0; m < LR_RM__COUNT; m++)
				band_merge(&b[k][m], &b[2 * k][m], &b[2 * k + 1][m]);
		for (unsigned k = half; k < LR_REP_BUCKETS; k++)
			for (unsigned m = 0; m < LR_RM__COUNT; m++)
				band_reset(&b[k][m]);
	}
	for (size_t s = 0; s < r->n_cpus; s++) {
		struct lr_rep_band *b = r->cpus[s].band;

		for (unsigned k = 0; k < half; k++)
			band_merge(&b[k], &b[2 * k], &b[2 * k + 1]);
		for (unsigned k = half; k < LR_REP_BUCKETS; k++)
			band_reset(&b[k]);
	}
	r->bucket_secs *= 2;
}

/* The bucket of a row ending at `elapsed` (widening the buckets until it fits). */
static unsigned bucket_of(struct lr_report *r, double elapsed)
{
	while (elapsed / r->bucket_secs >= LR_REP_BUCKETS)
		widen(r);
	return (unsigned)(elapsed / r->bucket_secs);
}

static const char *field(const struct reader *rd, const struct fields *fs, int col)
{
	return col >= 0 && (unsigned)col < fs->n ? fs->f[col] : "";
}

/* A name field (interface, host): bounded, printable bytes only (HTML-escaped later). */
static int name_field(struct reader *rd, const char *s, const char *what, char *out, size_t size,
		      bool may_be_empty)
{
	size_t n = strlen(s);

	if ((!n && !may_be_empty) || n >= size)
		return bad(rd, "%s '%.40s' is %s", what, s, n ? "too long" : "empty");
	for (const char *p = s; *p; p++)
		if ((unsigned char)*p < 0x20 || *p == 0x7f)
			return bad(rd, "%s holds a control character", what);
	memcpy(out, s, n + 1);
	return 0;
}

/* time, elapsed and (unless streams) interval: common to every timed row. */
static int row_clock(struct reader *rd, const struct fields *fs, int interval_col, double *time,
		     double *elapsed, double *interval)
{
	struct lr_report *r = rd->r;

	if (num(fs->f[0], time) || *time <= 0)
		return bad(rd, "time '%.40s' is not a Unix time", fs->f[0]);
	if (num(fs->f[1], elapsed))
		return bad(rd, "elapsed '%.40s' is not a number of seconds", fs->f[1]);
	if (*elapsed > 400 * 86400.0)
		return bad(rd, "elapsed %.0f s is longer than any run linerate records", *elapsed);
	if (*elapsed + SLACK_SECS < rd->elapsed_seen)
		return bad(rd, "elapsed goes back from %.3f to %.3f s: two runs in one file?",
			   rd->elapsed_seen, *elapsed);
	if (*elapsed > rd->elapsed_seen)
		rd->elapsed_seen = *elapsed;
	*interval = NAN;
	if (interval_col >= 0) {
		if (num(fs->f[interval_col], interval) || !(*interval > 0) || *interval > 3600)
			return bad(rd, "interval '%.40s' is not a measured number of seconds",
				   fs->f[interval_col]);
		if (!r->interval_rows || *interval < r->interval_min)
			r->interval_min = *interval;
		if (!r->interval_rows || *interval > r->interval_max)
			r->interval_max = *interval;
		r->interval_sum += *interval;
		r->interval_rows++;
	}
	if (*time < rd->file->time_min || rd->file->time_max < 0)
		rd->file->time_min = *time;
	if (*time > rd->file->time_max)
		rd->file->time_max = *time;
	if (*elapsed > r->elapsed_max)
		r->elapsed_max = *elapsed;
	return 0;
}

/* Reads the numeric columns named in cols[] (by known index) into v[]; -1 names the bad one. */
static int nums(struct reader *rd, const struct fields *fs, const unsigned *idx, double *v,
		unsigned n)
{
	for (unsigned k = 0; k < n; k++)
		if (num(fs->f[idx[k]], &v[k]) < 0)
			return bad(rd, "%s '%.40s' is not a number >= 0", known[rd->file->kind][idx[k]],
				   fs->f[idx[k]]);
	return 0;
}

static int side_host(struct reader *rd, const struct fields *fs, char *side, char *host)
{
	const char *s = field(rd, fs, rd->side_col);

	if (*s && strcmp(s, "local") && strcmp(s, "peer"))
		return bad(rd, "side '%.40s' is not local or peer", s);
	lr_strlcpy(side, *s ? s : "local", 8);
	return name_field(rd, field(rd, fs, rd->host_col), "host", host, LR_REP_NAME_MAX, true);
}

static void add(double *sum, double v)
{
	if (known_num(v))
		*sum += v;
}

static void peak(double *p, double *at, double v, double elapsed)
{
	if (known_num(v) && v > *p) {
		*p = v;
		*at = elapsed;
	}
}

static int iface_row(struct reader *rd, const struct fields *fs)
{
	static const unsigned idx[] = {4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19, 20,
				       23, 24, 25};
	enum { RXB, TXB, RXP, TXP, RXBPS, TXBPS, RXPPS, TXPPS, RXD, TXD, RXE, TXE, RXF, RXM, RXO,
	       NICF, NICD, LINK, MTU, UTIL, N };
	struct lr_report *r = rd->r;
	char name[LR_REP_NAME_MAX], side[8], host[LR_REP_NAME_MAX];
	double time, elapsed, interval, v[N], m[LR_RM__COUNT];
	struct lr_rep_iface *s = NULL;
	unsigned b;
	int err;

	if ((err = row_clock(rd, fs, 3, &time, &elapsed, &interval)) ||
	    (err = name_field(rd, fs->f[2], "iface", name, sizeof(name), false)) ||
	    (err = side_host(rd, fs, side, host)) || (err = nums(rd, fs, idx, v, N)))
		return err;
	for (size_t n = 0; n < r->n_ifaces && !s; n++) {
		size_t k = (rd->hint + n) % r->n_ifaces;

		if (!strcmp(r->ifaces[k].name, name) && !strcmp(r->ifaces[k].side, side) &&
		    !strcmp(r->ifaces[k].host, host))
			s = &r->ifaces[k];
	}
	if (!s) {
		struct lr_rep_iface *p = grow(r->ifaces, &r->cap_ifaces, r->n_ifaces, sizeof(*p),
					      LR_REP_IFACES_MAX);

		if (!p)
			return r->n_ifaces >= LR_REP_IFACES_MAX
				       ? bad(rd, "more than %d interfaces", LR_REP_IFACES_MAX)
				       : -ENOMEM;
		r->ifaces = p;
		s = &p[r->n_ifaces];
		memset(s, 0, sizeof(*s));
		s->band = malloc(sizeof(*s->band) * LR_REP_BUCKETS);
		if (!s->band)
			return -ENOMEM;
		for (unsigned k = 0; k < LR_REP_BUCKETS; k++)
			for (unsigned q = 0; q < LR_RM__COUNT; q++)
				band_reset(&s->band[k][q]);
		r->n_ifaces++;
		memcpy(s->name, name, sizeof(name));
		memcpy(s->side, side, sizeof(side));
		memcpy(s->host, host, sizeof(host));
		for (unsigned q = 0; q < LR_RM__COUNT; q++)
			s->peak[q] = s->peak_at[q] = -1;
		s->util_peak = s->link_mbps = s->mtu = -1;
		s->first_elapsed = elapsed;
	}
	s->rows++;
	rd->hint = (size_t)(s - r->ifaces) + 1;
	s->last_elapsed = elapsed;
	if (known_num(v[RXB]) && known_num(v[TXB])) {
		s->rx_bytes += v[RXB];
		s->tx_bytes += v[TXB];
		s->byte_secs += interval;
	}
	if (known_num(v[RXP]) && known_num(v[TXP])) {
		s->rx_packets += v[RXP];
		s->tx_packets += v[TXP];
		s->packet_secs += interval;
	}
	add(&s->rx_dropped, v[RXD]);
	add(&s->tx_dropped, v[TXD]);
	add(&s->rx_errors, v[RXE]);
	add(&s->tx_errors, v[TXE]);
	add(&s->rx_fifo, v[RXF]);
	add(&s->rx_missed, v[RXM]);
	add(&s->rx_over, v[RXO]);
	add(&s->nic_fifo, v[NICF]);
	add(&s->nic_drop, v[NICD]);
	if (known_num(v[UTIL])) {
		peak(&s->util_peak, &(double){0}, v[UTIL], elapsed);
		s->util_sum += v[UTIL] * interval;
		s->util_secs += interval;
	}
	if (known_num(v[LINK])) {
		s->link_changed |= s->link_mbps >= 0 && s->link_mbps != v[LINK];
		s->link_mbps = v[LINK];
	}
	if (known_num(v[MTU])) {
		s->mtu_changed |= s->mtu >= 0 && s->mtu != v[MTU];
		s->mtu = v[MTU];
	}
	m[LR_RM_RX_BPS] = v[RXBPS];
	m[LR_RM_TX_BPS] = v[TXBPS];
	m[LR_RM_RX_PPS] = v[RXPPS];
	m[LR_RM_TX_PPS] = v[TXPPS];
	/* unknown counters count as none moved: the chart is of what was seen */
	m[LR_RM_DROPS_PS] = ((known_num(v[RXD]) ? v[RXD] : 0) + (known_num(v[TXD]) ? v[TXD] : 0) +
			     (known_num(v[NICD]) ? v[NICD] : 0)) / interval;
	m[LR_RM_FIFO_PS] = ((known_num(v[RXF]) ? v[RXF] : 0) + (known_num(v[RXM]) ? v[RXM] : 0) +
			    (known_num(v[RXO]) ? v[RXO] : 0) + (known_num(v[NICF]) ? v[NICF] : 0)) /
			   interval;
	b = bucket_of(r, elapsed);
	for (unsigned q = 0; q < LR_RM__COUNT; q++) {
		if (!known_num(m[q]))
			continue;
		peak(&s->peak[q], &s->peak_at[q], m[q], elapsed);
		band_add(&s->band[b][q], m[q]);
	}
	return 0;
}

static int cpu_row(struct reader *rd, const struct fields *fs)
{
	static const unsigned idx[] = {4, 5, 6, 7, 8, 9, 10, 11, 12, 13};
	struct lr_report *r = rd->r;
	char side[8], host[LR_REP_NAME_MAX];
	double time, elapsed, interval, v[10], cpu;
	struct lr_rep_cpu *s = NULL;
	int err;

	if ((err = row_clock(rd, fs, 3, &time, &elapsed, &interval)) ||
	    (err = side_host(rd, fs, side, host)) || (err = nums(rd, fs, idx, v, 10)))
		return err;
	if (num(fs->f[2], &cpu) || cpu != floor(cpu) || cpu > 1 << 20)
		return bad(rd, "cpu '%.40s' is not a CPU number", fs->f[2]);
	for (size_t n = 0; n < r->n_cpus && !s; n++) {
		size_t k = (rd->hint + n) % r->n_cpus;

		if (r->cpus[k].cpu == (int)cpu && !strcmp(r->cpus[k].side, side) &&
		    !strcmp(r->cpus[k].host, host))
			s = &r->cpus[k];
	}
	if (!s) {
		struct lr_rep_cpu *p = grow(r->cpus, &r->cap_cpus, r->n_cpus, sizeof(*p),
					    LR_REP_CPUS_MAX);

		if (!p)
			return r->n_cpus >= LR_REP_CPUS_MAX
				       ? bad(rd, "more than %d CPUs", LR_REP_CPUS_MAX)
				       : -ENOMEM;
		r->cpus = p;
		s = &p[r->n_cpus];
		memset(s, 0, sizeof(*s));
		s->band = malloc(sizeof(*s->band) * LR_REP_BUCKETS);
		if (!s->band)
			return -ENOMEM;
		for (unsigned k = 0; k < LR_REP_BUCKETS; k++)
			band_reset(&s->band[k]);
		r->n_cpus++;
		s->cpu = (int)cpu;
		memcpy(s->side, side, sizeof(side));
		memcpy(s->host, host, sizeof(host));
		s->softirq_peak = -1;
	}
	s->rows++;
	rd->hint = (size_t)(s - r->cpus) + 1;
	if (known_num(v[3])) {	/* softirq_pct */
		if (v[3] > 100.5)
			return bad(rd, "softirq_pct %.2f is above 100", v[3]);
		peak(&s->softirq_peak, &s->softirq_peak_at, v[3], elapsed);
		s->softirq_sum += v[3] * interval;
		s->softirq_secs += interval;
		band_add(&s->band[bucket_of(r, elapsed)], v[3]);
	}
	return 0;
}

static int stream_row(struct reader *rd, const struct fields *fs)
{
	static const unsigned idx[] = {5, 6, 7, 8, 9, 10, 11, 12, 13, 14};
	enum { BYTES, BPS, PKTS, PPS, RETR, LOST, OOO, JIT, CWND, RTT, N };
	struct lr_report *r = rd->r;
	double time, elapsed, interval, v[N], id;
	struct lr_rep_stream *s = NULL;
	const char *dir = fs->f[3], *proto = fs->f[4];
	int err;

	if ((err = row_clock(rd, fs, -1, &time, &elapsed, &interval)) ||
	    (err = nums(rd, fs, idx, v, N)))
		return err;
	if (num(fs->f[2], &id) || id != floor(id) || id > 1 << 20)
		return bad(rd, "stream '%.40s' is not a stream number", fs->f[2]);
	if (strcmp(dir, "send") && strcmp(dir, "recv"))
		return bad(rd, "direction '%.40s' is not send or recv", dir);
	if (strcmp(proto, "tcp") && strcmp(proto, "udp"))
		return bad(rd, "protocol '%.40s' is not tcp or udp", proto);
	for (size_t k = 0; k < r->n_streams && !s; k++)
		if (r->streams[k].id == (int)id && !strcmp(r->streams[k].direction, dir))
			s = &r->streams[k];
	if (!s) {
		struct lr_rep_stream *p = grow(r->streams, &r->cap_streams, r->n_streams,
					       sizeof(*p), LR_REP_STREAMS_MAX);

		if (!p)
			return r->n_streams >= LR_REP_STREAMS_MAX
				       ? bad(rd, "more than %d streams", LR_REP_STREAMS_MAX)
				       : -ENOMEM;
		r->streams = p;
		s = &p[r->n_streams++];
		memset(s, 0, sizeof(*s));
		s->id = (int)id;
		lr_strlcpy(s->direction, dir, sizeof(s->direction));
		lr_strlcpy(s->protocol, proto, sizeof(s->protocol));
		s->jitter_max_ms = s->rtt_last_us = s->cwnd_last_bytes = -1;
		s->peak_bps = -1;
		s->first_elapsed = elapsed;
		/* the first row counts from the stream's start: its span is bytes / rate */
		if (known_num(v[BPS]) && v[BPS] > 0 && known_num(v[BYTES]))
			s->secs = v[BYTES] * 8 / v[BPS];
	} else {
		s->secs += elapsed - s->last_elapsed;
	}
	s->rows++;
	s->last_elapsed = elapsed;
	add(&s->bytes, v[BYTES]);
	add(&s->packets, v[PKTS]);
	add(&s->retransmits, v[RETR]);
	add(&s->lost, v[LOST]);
	add(&s->out_of_order, v[OOO]);
	peak(&s->peak_bps, &(double){0}, v[BPS], elapsed);
	peak(&s->jitter_max_ms, &(double){0}, v[JIT], elapsed);
	if (known_num(v[RTT]))
		s->rtt_last_us = v[RTT];
	if (known_num(v[CWND]))
		s->cwnd_last_bytes = v[CWND];
	return 0;
}

static int queue_row(struct reader *rd, const struct fields *fs)
{
	static const unsigned idx[] = {5, 6, 7, 8, 9, 10, 11};
	enum { RXP, RXB, TXP, TXB, RXD, TXD, RXPPS, N };
	struct lr_report *r = rd->r;
	char name[LR_REP_NAME_MAX], side[8], host[LR_REP_NAME_MAX];
	double time, elapsed, interval, v[N], q, cpu;
	struct lr_rep_queue *s = NULL;
	int err;

	if ((err = row_clock(rd, fs, 4, &time, &elapsed, &interval)) ||
	    (err = name_field(rd, fs->f[2], "iface", name, sizeof(name), false)) ||
	    (err = side_host(rd, fs, side, host)) || (err = nums(rd, fs, idx, v, N)))
		return err;
	if (num(fs->f[3], &q) || q != floor(q) || q > 1 << 20)
		return bad(rd, "queue '%.40s' is not a queue number", fs->f[3]);
	if (num(fs->f[13], &cpu) < 0 || (known_num(cpu) && (cpu != floor(cpu) || cpu > 1 << 20)))
		return bad(rd, "cpu '%.40s' is not a CPU number", fs->f[13]);
	for (size_t k = 0; k < r->n_queues && !s; k++)
		if (r->queues[k].queue == (int)q && !strcmp(r->queues[k].iface, name) &&
		    !strcmp(r->queues[k].side, side) && !strcmp(r->queues[k].host, host))
			s = &r->queues[k];
	if (!s) {
		struct lr_rep_queue *p = grow(r->queues, &r->cap_queues, r->n_queues, sizeof(*p),
					      LR_REP_QUEUES_MAX);

		if (!p)
			return r->n_queues >= LR_REP_QUEUES_MAX
				       ? bad(rd, "more than %d queues", LR_REP_QUEUES_MAX)
				       : -ENOMEM;
		r->queues = p;
		s = &p[r->n_queues++];
		memset(s, 0, sizeof(*s));
		memcpy(s->iface, name, sizeof(name));
		memcpy(s->side, side, sizeof(side));
		memcpy(s->host, host, sizeof(host));
		s->queue = (int)q;
		s->cpu = -1;
	}
	s->rows++;
	add(&s->rx_packets, v[RXP]);
	add(&s->rx_bytes, v[RXB]);
	add(&s->tx_packets, v[TXP]);
	add(&s->tx_bytes, v[TXB]);
	add(&s->rx_drops, v[RXD]);
	add(&s->tx_drops, v[TXD]);
	if (known_num(v[RXPPS]) && v[RXPPS] > s->peak_rx_pps)
		s->peak_rx_pps = v[RXPPS];
	if (known_num(cpu))
		s->cpu = (int)cpu;
	return 0;
}

static char *dup_field(const char *s)
{
	return strdup(s);
}

static int matrix_row(struct reader *rd, const struct fields *fs)
{
	struct lr_report *r = rd->r;
	struct lr_rep_matrix_row *p = grow(r->matrix, &r->cap_matrix, r->n_matrix, sizeof(*p),
					   LR_REP_MATRIX_MAX);
	struct lr_rep_matrix_row *row;
	double v;

	if (!p)
		return r->n_matrix >= LR_REP_MATRIX_MAX
			       ? bad(rd, "more than %d matrix rows", LR_REP_MATRIX_MAX)
			       : -ENOMEM;
	r->matrix = p;
	for (unsigned k = 9; k <= 11; k++)	/* seconds, sender_bps, receiver_bps: charted */
		if (num(fs->f[k], &v) < 0)
			return bad(rd, "%s '%.40s' is not a number >= 0", matrix_cols[k], fs->f[k]);
	row = &p[r->n_matrix];
	memset(row, 0, sizeof(*row));
	for (unsigned k = 0; k < fs->n && k < r->matrix_cols; k++) {
		row->field[k] = dup_field(fs->f[k]);
		if (!row->field[k]) {
			while (k--)
				free(row->field[k]);
			return -ENOMEM;
		}
		row->n++;
	}
	r->n_matrix++;
	return 0;
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
		return bad(rd, "not a CSV linerate wrote (the header names no interface, CPU, "
			       "streams, queues or matrix columns)");
	rd->file->kind = (enum lr_rep_kind)k;
	rd->file->extra_columns = fs->n - n;
	rd->ncols = fs->n;
	rd->side_col = rd->host_col = -1;
	for (unsigned i = n; i < fs->n; i++) {
		if (!strcmp(fs->f[i], "side") && rd->side_col < 0)
			rd->side_col = (int)i;
		else if (!strcmp(fs->f[i], "host") && rd->host_col < 0)
			rd->host_col = (int)i;
		else if (!*fs->f[i])
			return bad(rd, "column %u of the header is empty", i + 1);
		if (rd->side_col == (int)i || rd->host_col == (int)i)
			rd->file->extra_columns--;
	}
	if (k == LR_REP_MATRIX) {
		rd->file->extra_columns = 0;	/* the matrix table shows every column */
		if (r->matrix_cols)
			return bad(rd, "a second matrix CSV (one run's matrix per report)");
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
		return bad(rd, "recorded at another time than the files before it (not the same run)");
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
	while (!rc && (got = read_line(f, fs, &len, &why)) != 0) {
		rd.line++;
		if (got == -2) {
			rc = -EIO;
			snprintf(err, errlen, "%s:%lu: %s", name, rd.line, strerror(errno ? errno : EIO));
			break;
		}
		if (got < 0) {
			rc = bad(&rd, "%s", why);
			break;
		}
		if (split(fs, len)) {
			rc = bad(&rd, "%s", fs->n == LR_REP_FIELDS_MAX ? "more than 64 columns"
								    : "a stray or unterminated quote");
			break;
		}
		if (rd.line == 1) {
			rc = header(&rd, fs);
			continue;
		}
		if (rd.line - 1 > LR_REP_ROWS_MAX) {
			rc = bad(&rd, "more than %llu rows", (unsigned long long)LR_REP_ROWS_MAX);
			break;
		}
		if (!strcmp(fs->f[0], "time") || !strcmp(fs->f[0], "case")) {
			rc = bad(&rd, "a second header: two runs in one file?");
			break;
		}
		if (fs->n != rd.ncols) {
			rc = bad(&rd, "%u fields where the header has %u", fs->n, rd.ncols);
			break;
		}
		rd.file->rows++;
		switch (rd.file->kind) {
		case LR_REP_IFACES:
			rc = iface_row(&rd, fs);
			break;
		case LR_REP_CPUS:
			rc = cpu_row(&rd, fs);
			break;
		case LR_REP_STREAMS:
			rc = stream_row(&rd, fs);
			break;
		case LR_REP_QUEUES:
			rc = queue_row(&rd, fs);
			break;
		case LR_REP_MATRIX:
			rc = matrix_row(&rd, fs);
			break;
		}
	}
	if (!rc && !rd.line) {
		rd.line = 1;
		rc = bad(&rd, "empty file: not a CSV linerate wrote");
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
	free(r);
}
