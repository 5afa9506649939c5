// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The report's rows: each row of a CSV folded into its series at once (exact totals and peaks,
 * and the time buckets the charts draw, min/max/mean, widened by pairs as the run grows so a
 * run of any length fits LR_REP_BUCKETS and no peak is lost). Numbers must be finite and not
 * negative, names bounded and printable; the first bad field is one "file:line: why" error.
 */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "linerate/sample/report_read.h"
#include "linerate/sample/ifrate.h"
#include "linerate/core/array.h"
#include "linerate/core/strutil.h"
#include "report_priv.h"

#define SLACK_SECS 1.0	/* elapsed may step back this much (peer rows arrive late) */

/* Above any counter, rate or size linerate writes (a u64 counter's delta of 2^63 bytes is
 * 37 years at 64 Tbit/s), and below it every field converts to int64_t and uint64_t. */
#define NUM_MAX 9.2e18

/* A number field: 0 known, 1 empty (unknown), -1 bad. Never negative, always finite. */
static int num(const char *s, double *v)
{
	if (!*s) {
		*v = NAN;
		return 1;
	}
	if (lr_parse_double(s, v) || !(*v >= 0 && *v <= NUM_MAX))
		return -1;
	return 0;
}

static bool known_num(double v)
{
	return !isnan(v);
}

/* An optional CPU number field (empty: unknown): 0 or -1 bad, as num(). */
static int cpu_num(const char *s, double *v)
{
	int rc = num(s, v);

	return rc < 0 || (!rc && (*v != floor(*v) || *v > 1 << 20)) ? -1 : rc;
}

/* The array p of n entries with room for one more, or NULL: at max entries, or out of memory
 * (p as it was). */
static void *grow(void *p, size_t *cap, size_t n, size_t size, size_t max)
{
	if (n >= max || lr_array_grow(&p, cap, n + 1, size))
		return NULL;
	return p;
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
		return lr_rep_bad(rd, "%s '%.40s' is %s", what, s, n ? "too long" : "empty");
	for (const char *p = s; *p; p++)
		if ((unsigned char)*p < 0x20 || *p == 0x7f)
			return lr_rep_bad(rd, "%s holds a control character", what);
	memcpy(out, s, n + 1);
	return 0;
}

/* time, elapsed and (unless streams) interval: common to every timed row. */
static int row_clock(struct reader *rd, const struct fields *fs, int interval_col, double *time,
		     double *elapsed, double *interval)
{
	struct lr_report *r = rd->r;

	if (num(fs->f[0], time) || *time <= 0 || *time > 1e10)	/* year 2286: beyond, garbage */
		return lr_rep_bad(rd, "time '%.40s' is not a Unix time", fs->f[0]);
	if (num(fs->f[1], elapsed))
		return lr_rep_bad(rd, "elapsed '%.40s' is not a number of seconds", fs->f[1]);
	if (*elapsed > 400 * 86400.0)
		return lr_rep_bad(rd, "elapsed %.0f s is longer than any run linerate records", *elapsed);
	if (*elapsed + SLACK_SECS < rd->elapsed_seen)
		return lr_rep_bad(rd, "elapsed goes back from %.3f to %.3f s: two runs in one file?",
			   rd->elapsed_seen, *elapsed);
	if (*elapsed > rd->elapsed_seen)
		rd->elapsed_seen = *elapsed;
	*interval = NAN;
	if (interval_col >= 0) {
		if (num(fs->f[interval_col], interval) || !(*interval > 0) || *interval > 3600)
			return lr_rep_bad(rd, "interval '%.40s' is not a measured number of seconds",
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
			return lr_rep_bad(rd, "%s '%.40s' is not a number in 0..9.2e18", lr_rep_col_name(rd->file->kind, idx[k]),
				   fs->f[idx[k]]);
	return 0;
}

static int side_host(struct reader *rd, const struct fields *fs, char *side, char *host)
{
	const char *s = field(rd, fs, rd->side_col);

	if (*s && strcmp(s, "local") && strcmp(s, "peer"))
		return lr_rep_bad(rd, "side '%.40s' is not local or peer", s);
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

static double or0(double v)
{
	return known_num(v) ? v : 0;
}

/* A row's count (times mult: bytes to bits) and recorded rate (NAN: count / interval). */
static void held_count(struct lr_rep_held *h, unsigned q, double count, double mult, double rate)
{
	h->count[q] = known_num(count) ? count * mult : NAN;
	h->rate[q] = rate;
}

static bool sliver(double interval, double ref)
{
	return interval < LR_REP_SLIVER_FRAC * ref;
}

/* Charts the held row: its recorded rates, or when a sliver was folded into it, its counts
 * over its summed interval (a mean of the two, never above the full interval's rate). */
static void iface_commit(struct lr_report *r, struct lr_rep_iface *s)
{
	struct lr_rep_held *h = &s->held;
	unsigned b;

	if (!h->any)
		return;
	b = bucket_of(r, h->elapsed);
	for (unsigned q = 0; q < LR_RM__COUNT; q++) {
		double v = !h->folded && known_num(h->rate[q]) ? h->rate[q] : h->count[q] / h->interval;

		if (!known_num(v))
			continue;
		peak(&s->peak[q], &s->peak_at[q], v, h->elapsed);
		band_add(&s->band[b][q], v);
	}
	{
		double unused_at = 0;	/* the utilisation peak's time is not reported */

		peak(&s->util_peak, &unused_at, h->util, h->elapsed);
	}
	h->any = false;
}

/* Holds row until the next one; a sliver (the held row or this one) is folded into the other:
 * counts and intervals add, the later elapsed stands. */
static void iface_fold(struct lr_report *r, struct lr_rep_iface *s, const struct lr_rep_held *row)
{
	struct lr_rep_held *h = &s->held;

	if (row->interval > s->interval_ref)
		s->interval_ref = row->interval;
	if (h->any && (sliver(h->interval, s->interval_ref) ||
		       sliver(row->interval, s->interval_ref))) {
		for (unsigned q = 0; q < LR_RM__COUNT; q++)
			h->count[q] += row->count[q];	/* NAN stays NAN: no rate from half a count */
		/* utilisation weighted by time; one side unknown: the other's */
		if (known_num(h->util) && known_num(row->util))
			h->util = (h->util * h->interval + row->util * row->interval) /
				  (h->interval + row->interval);
		else if (!known_num(h->util))
			h->util = row->util;
		h->interval += row->interval;
		h->elapsed = row->elapsed;
		h->folded = true;
		return;
	}
	iface_commit(r, s);
	*h = *row;
}

static void cpu_commit(struct lr_report *r, struct lr_rep_cpu *s)
{
	if (!(s->held_interval > 0))
		return;
	peak(&s->softirq_peak, &s->softirq_peak_at, s->held_pct, s->held_elapsed);
	band_add(&s->band[bucket_of(r, s->held_elapsed)], s->held_pct);
	s->held_interval = 0;
}

/* As iface_fold: a sliver's percentage is weighted by its time into its neighbour's. */
static void cpu_fold(struct lr_report *r, struct lr_rep_cpu *s, double pct, double interval,
		     double elapsed)
{
	if (interval > s->interval_ref)
		s->interval_ref = interval;
	if (s->held_interval > 0 && (sliver(s->held_interval, s->interval_ref) ||
				     sliver(interval, s->interval_ref))) {
		s->held_pct = (s->held_pct * s->held_interval + pct * interval) /
			      (s->held_interval + interval);
		s->held_interval += interval;
		s->held_elapsed = elapsed;
		return;
	}
	cpu_commit(r, s);
	s->held_pct = pct;
	s->held_interval = interval;
	s->held_elapsed = elapsed;
}

void lr_rep_commit_held(struct lr_report *r)
{
	for (size_t k = 0; k < r->n_ifaces; k++)
		iface_commit(r, &r->ifaces[k]);
	for (size_t k = 0; k < r->n_cpus; k++)
		cpu_commit(r, &r->cpus[k]);
}

int lr_rep_iface_row(struct reader *rd, const struct fields *fs)
{
	static const unsigned idx[] = {4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19, 20,
				       23, 24, 25};
	enum { RXB, TXB, RXP, TXP, RXBPS, TXBPS, RXPPS, TXPPS, RXD, TXD, RXE, TXE, RXF, RXM, RXO,
	       NICF, NICD, LINK, MTU, UTIL, N };
	struct lr_report *r = rd->r;
	char name[LR_REP_NAME_MAX], side[8], host[LR_REP_NAME_MAX], driver[LR_REP_DRIVER_MAX];
	double time = 0, elapsed = 0, interval = 0, v[N] = {0}, softirq, qd[LR_RQ__COUNT];
	struct lr_rep_held row = {0};
	struct lr_rep_iface *s = NULL;
	int err;

	if ((err = row_clock(rd, fs, 3, &time, &elapsed, &interval)) ||
	    (err = name_field(rd, fs->f[2], "iface", name, sizeof(name), false)) ||
	    (err = side_host(rd, fs, side, host)) || (err = nums(rd, fs, idx, v, N)))
		return err;
	if (num(fs->f[21], &softirq) < 0 || (known_num(softirq) && softirq > 100.5))
		return lr_rep_bad(rd, "softirq_max_pct '%.40s' is not a percentage", fs->f[21]);
	if (cpu_num(fs->f[22], &softirq) < 0)
		return lr_rep_bad(rd, "softirq_cpu '%.40s' is not a CPU number", fs->f[22]);
	if ((err = name_field(rd, field(rd, fs, rd->driver_col), "driver", driver, sizeof(driver),
			      true)))
		return err;
	/* a file written before the rule (or by hand) may hold a % of a nominal speed */
	if (lr_ifrate_nominal_why(name, NULL, driver))
		v[UTIL] = NAN;
	for (int q = 0; q < LR_RQ__COUNT; q++)
		if (num(field(rd, fs, rd->qdisc_col[q]), &qd[q]) < 0)
			return lr_rep_bad(rd, "%s '%.40s' is not a number in 0..9.2e18",
					  lr_rep_qdisc_col_name((enum lr_rep_qdisc_col)q),
					  field(rd, fs, rd->qdisc_col[q]));
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
				       ? lr_rep_bad(rd, "more than %d interfaces", LR_REP_IFACES_MAX)
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
		s->qdisc_backlog_peak[0] = s->qdisc_backlog_peak[1] = -1;
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
	s->driver_col |= rd->driver_col >= 0;
	s->qdisc_col |= rd->qdisc_col[LR_RQ_DROPS] >= 0;
	for (int q = 0; q < LR_RQ__COUNT; q++) {
		s->qdisc_known |= known_num(qd[q]);
		if (q < LR_RQ_BACKLOG_BYTES)
			add(&s->qdisc_sum[q], qd[q]);
		else if (known_num(qd[q]) && qd[q] > s->qdisc_backlog_peak[q - LR_RQ_BACKLOG_BYTES])
			s->qdisc_backlog_peak[q - LR_RQ_BACKLOG_BYTES] = qd[q];
	}
	if (driver[0]) {
		s->driver_changed |= s->driver[0] && strcmp(s->driver, driver);
		memcpy(s->driver, driver, sizeof(driver));
	}
	held_count(&row, LR_RM_RX_BPS, v[RXB], 8, v[RXBPS]);
	held_count(&row, LR_RM_TX_BPS, v[TXB], 8, v[TXBPS]);
	held_count(&row, LR_RM_RX_PPS, v[RXP], 1, v[RXPPS]);
	held_count(&row, LR_RM_TX_PPS, v[TXP], 1, v[TXPPS]);
	/* unknown counters count as none moved: the chart is of what was seen */
	held_count(&row, LR_RM_DROPS_PS, or0(v[RXD]) + or0(v[TXD]) + or0(v[NICD]), 1, NAN);
	held_count(&row, LR_RM_FIFO_PS,
		   or0(v[RXF]) + or0(v[RXM]) + or0(v[RXO]) + or0(v[NICF]), 1, NAN);
	row.elapsed = elapsed;
	row.interval = interval;
	row.util = v[UTIL];
	row.any = true;
	iface_fold(r, s, &row);
	return 0;
}

int lr_rep_cpu_row(struct reader *rd, const struct fields *fs)
{
	static const unsigned idx[] = {4, 5, 6, 7, 8, 9, 10, 11, 12, 13};
	struct lr_report *r = rd->r;
	char side[8], host[LR_REP_NAME_MAX];
	double time = 0, elapsed = 0, interval = 0, v[10] = {0}, cpu = 0;
	struct lr_rep_cpu *s = NULL;
	int err;

	if ((err = row_clock(rd, fs, 3, &time, &elapsed, &interval)) ||
	    (err = side_host(rd, fs, side, host)) || (err = nums(rd, fs, idx, v, 10)))
		return err;
	if (num(fs->f[2], &cpu) || cpu != floor(cpu) || cpu > 1 << 20)
		return lr_rep_bad(rd, "cpu '%.40s' is not a CPU number", fs->f[2]);
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
				       ? lr_rep_bad(rd, "more than %d CPUs", LR_REP_CPUS_MAX)
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
			return lr_rep_bad(rd, "softirq_pct %.2f is above 100", v[3]);
		s->softirq_sum += v[3] * interval;
		s->softirq_secs += interval;
		cpu_fold(r, s, v[3], interval, elapsed);
	}
	return 0;
}

int lr_rep_stream_row(struct reader *rd, const struct fields *fs)
{
	static const unsigned idx[] = {5, 6, 7, 8, 9, 10, 11, 12, 13, 14};
	enum { BYTES, BPS, PKTS, PPS, RETR, LOST, OOO, JIT, CWND, RTT, N };
	struct lr_report *r = rd->r;
	double time = 0, elapsed = 0, interval = 0, v[N] = {0}, id = 0;
	struct lr_rep_stream *s = NULL;
	const char *dir = fs->f[3], *proto = fs->f[4];
	double target = NAN, length = NAN;
	char cc[LR_REP_CC_MAX];
	int err;

	if (!strcmp(fs->f[2], "latency"))
		return 0;	/* the latency probes' row (docs/csv.md §4): no stream of the report */
	if ((err = row_clock(rd, fs, -1, &time, &elapsed, &interval)) ||
	    (err = nums(rd, fs, idx, v, N)) ||
	    (err = name_field(rd, field(rd, fs, rd->cc_col), "congestion", cc, sizeof(cc), true)))
		return err;
	if (num(field(rd, fs, rd->length_col), &length) < 0 ||
	    (known_num(length) && (length != floor(length) || length > 1 << 30)))
		return lr_rep_bad(rd, "length '%.40s' is not a number of bytes",
				  field(rd, fs, rd->length_col));
	if (num(field(rd, fs, rd->target_col), &target) < 0)
		return lr_rep_bad(rd, "target_bps '%.40s' is not a number in 0..9.2e18",
				  field(rd, fs, rd->target_col));
	if (num(fs->f[2], &id) || id != floor(id) || id > 1 << 20)
		return lr_rep_bad(rd, "stream '%.40s' is not a stream number", fs->f[2]);
	if (strcmp(dir, "send") && strcmp(dir, "recv"))
		return lr_rep_bad(rd, "direction '%.40s' is not send or recv", dir);
	if (strcmp(proto, "tcp") && strcmp(proto, "udp"))
		return lr_rep_bad(rd, "protocol '%.40s' is not tcp or udp", proto);
	for (size_t k = 0; k < r->n_streams && !s; k++)
		if (r->streams[k].id == (int)id && !strcmp(r->streams[k].direction, dir))
			s = &r->streams[k];
	if (!s) {
		struct lr_rep_stream *p = grow(r->streams, &r->cap_streams, r->n_streams,
					       sizeof(*p), LR_REP_STREAMS_MAX);

		if (!p)
			return r->n_streams >= LR_REP_STREAMS_MAX
				       ? lr_rep_bad(rd, "more than %d streams", LR_REP_STREAMS_MAX)
				       : -ENOMEM;
		r->streams = p;
		s = &p[r->n_streams++];
		memset(s, 0, sizeof(*s));
		s->id = (int)id;
		lr_strlcpy(s->direction, dir, sizeof(s->direction));
		lr_strlcpy(s->protocol, proto, sizeof(s->protocol));
		s->jitter_max_ms = s->rtt_last_us = s->cwnd_last_bytes = -1;
		s->peak_bps = -1;
		s->target_bps = known_num(target) ? target : -1;
		s->length = -1;
		s->first_elapsed = elapsed;
		/* the first row counts from the stream's start: its span is bytes / rate */
		if (known_num(v[BPS]) && v[BPS] > 0 && known_num(v[BYTES]))
			s->secs = v[BYTES] * 8 / v[BPS];
	} else {
		s->secs += elapsed - s->last_elapsed;
	}
	s->rows++;
	s->last_elapsed = elapsed;
	s->target_col |= rd->target_col >= 0;
	if (known_num(target)) {
		s->target_changed |= s->target_bps >= 0 && s->target_bps != target;
		s->target_bps = target;
	}
	s->length_col |= rd->length_col >= 0;
	if (known_num(length)) {
		s->length_changed |= s->length >= 0 && s->length != length;
		s->length = length;
	}
	s->cc_col |= rd->cc_col >= 0;
	if (cc[0]) {
		s->cc_changed |= s->congestion[0] && strcmp(s->congestion, cc);
		memcpy(s->congestion, cc, sizeof(cc));
	}
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

int lr_rep_queue_row(struct reader *rd, const struct fields *fs)
{
	static const unsigned idx[] = {5, 6, 7, 8, 9, 10, 11};
	enum { RXP, RXB, TXP, TXB, RXD, TXD, RXPPS, N };
	struct lr_report *r = rd->r;
	char name[LR_REP_NAME_MAX], side[8], host[LR_REP_NAME_MAX];
	double time = 0, elapsed = 0, interval = 0, v[N] = {0}, q = 0, cpu = 0;
	struct lr_rep_queue *s = NULL;
	int err;

	if ((err = row_clock(rd, fs, 4, &time, &elapsed, &interval)) ||
	    (err = name_field(rd, fs->f[2], "iface", name, sizeof(name), false)) ||
	    (err = side_host(rd, fs, side, host)) || (err = nums(rd, fs, idx, v, N)))
		return err;
	if (num(fs->f[3], &q) || q != floor(q) || q > 1 << 20)
		return lr_rep_bad(rd, "queue '%.40s' is not a queue number", fs->f[3]);
	if (cpu_num(fs->f[13], &cpu) < 0)
		return lr_rep_bad(rd, "cpu '%.40s' is not a CPU number", fs->f[13]);
	for (size_t k = 0; k < r->n_queues && !s; k++)
		if (r->queues[k].queue == (int)q && !strcmp(r->queues[k].iface, name) &&
		    !strcmp(r->queues[k].side, side) && !strcmp(r->queues[k].host, host))
			s = &r->queues[k];
	if (!s) {
		struct lr_rep_queue *p = grow(r->queues, &r->cap_queues, r->n_queues, sizeof(*p),
					      LR_REP_QUEUES_MAX);

		if (!p)
			return r->n_queues >= LR_REP_QUEUES_MAX
				       ? lr_rep_bad(rd, "more than %d queues", LR_REP_QUEUES_MAX)
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
	if (interval > s->interval_ref)
		s->interval_ref = interval;
	if (sliver(interval, s->interval_ref) && known_num(v[RXP])) {
		s->carry_packets += v[RXP];	/* no rate of its own: the next row's peak has it */
		s->carry_secs += interval;
	} else if (s->carry_secs > 0 && known_num(v[RXP])) {
		double pps = (v[RXP] + s->carry_packets) / (interval + s->carry_secs);

		if (pps > s->peak_rx_pps)
			s->peak_rx_pps = pps;
		s->carry_packets = s->carry_secs = 0;
	} else if (known_num(v[RXPPS]) && v[RXPPS] > s->peak_rx_pps) {
		s->peak_rx_pps = v[RXPPS];
	}
	if (known_num(cpu))
		s->cpu = (int)cpu;
	return 0;
}

static char *dup_field(const char *s)
{
	return strdup(s);
}

int lr_rep_matrix_row(struct reader *rd, const struct fields *fs)
{
	struct lr_report *r = rd->r;
	struct lr_rep_matrix_row *p = grow(r->matrix, &r->cap_matrix, r->n_matrix, sizeof(*p),
					   LR_REP_MATRIX_MAX);
	struct lr_rep_matrix_row *row;
	double v;

	if (!p)
		return r->n_matrix >= LR_REP_MATRIX_MAX
			       ? lr_rep_bad(rd, "more than %d matrix rows", LR_REP_MATRIX_MAX)
			       : -ENOMEM;
	r->matrix = p;
	for (unsigned k = 9; k <= 11; k++)	/* seconds, sender_bps, receiver_bps: charted */
		if (num(fs->f[k], &v) < 0)
			return lr_rep_bad(rd, "%s '%.40s' is not a number in 0..9.2e18", lr_rep_col_name(LR_REP_MATRIX, k), fs->f[k]);
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


/* A ledger CSV's signed number: count and datagrams may be negative (unaccounted, the wire). */
static int signed_num(const char *s, double *v)
{
	if (!*s) {
		*v = NAN;
		return 1;
	}
	if (lr_parse_double(s, v) || !(*v >= -NUM_MAX && *v <= NUM_MAX))
		return -1;
	return 0;
}

static struct lr_rep_ledger_line *ledger_line(struct lr_report *r, const char *dir,
					      const char *stage, const char *side,
					      const char *counter)
{
	struct lr_rep_ledger_line *p;

	for (size_t i = 0; i < r->n_ledger; i++) {
		p = &r->ledger[i];
		if (!strcmp(p->direction, dir) && !strcmp(p->stage, stage) &&
		    !strcmp(p->side, side) && !strcmp(p->counter, counter))
			return p;
	}
	p = grow(r->ledger, &r->cap_ledger, r->n_ledger, sizeof(*p), LR_REP_LEDGER_MAX);
	if (!p)
		return NULL;
	r->ledger = p;
	p = &r->ledger[r->n_ledger++];
	memset(p, 0, sizeof(*p));
	lr_strlcpy(p->direction, dir, sizeof(p->direction));
	lr_strlcpy(p->stage, stage, sizeof(p->stage));
	lr_strlcpy(p->side, side, sizeof(p->side));
	lr_strlcpy(p->counter, counter, sizeof(p->counter));
	return p;
}

/* One --ledger-csv row (docs/csv.md §8) into its line's sums; an empty count is an interval
 * that line did not know (the far end's first frame not in yet), never 0. */
int lr_rep_ledger_row(struct reader *rd, const struct fields *fs)
{
	struct lr_report *r = rd->r;
	char dir[8], side[8], host[LR_REP_NAME_MAX], stage[24], counter[64], unit[16];
	double time = 0, elapsed = 0, interval = 0, count, dg;
	struct lr_rep_ledger_line *l;
	int err, c, d;

	if ((err = row_clock(rd, fs, -1, &time, &elapsed, &interval)))
		return err;
	if (num(fs->f[2], &interval) || !(interval > 0) || interval > 3600)
		return lr_rep_bad(rd, "interval '%.40s' is not a measured number of seconds",
				  fs->f[2]);
	if ((err = name_field(rd, fs->f[3], "direction", dir, sizeof(dir), false)) ||
	    (err = name_field(rd, fs->f[4], "side", side, sizeof(side), true)) ||
	    (err = name_field(rd, fs->f[5], "host", host, sizeof(host), true)) ||
	    (err = name_field(rd, fs->f[6], "stage", stage, sizeof(stage), false)) ||
	    (err = name_field(rd, fs->f[7], "counter", counter, sizeof(counter), true)) ||
	    (err = name_field(rd, fs->f[9], "unit", unit, sizeof(unit), true)))
		return err;
	if (strcmp(dir, "up") && strcmp(dir, "down"))
		return lr_rep_bad(rd, "direction '%.40s' is neither up nor down", dir);
	if (*side && strcmp(side, "local") && strcmp(side, "peer"))
		return lr_rep_bad(rd, "side '%.40s' is neither local nor peer", side);
	if ((c = signed_num(fs->f[8], &count)) < 0 || (d = signed_num(fs->f[10], &dg)) < 0)
		return lr_rep_bad(rd, "count '%.40s' or datagrams '%.40s' is not a number", fs->f[8],
				  fs->f[10]);
	if (*fs->f[11] && strcmp(fs->f[11], "0") && strcmp(fs->f[11], "1"))
		return lr_rep_bad(rd, "approx '%.40s' is neither 0 nor 1", fs->f[11]);
	l = ledger_line(r, dir, stage, side, counter);
	if (!l)
		return r->n_ledger >= LR_REP_LEDGER_MAX
			       ? lr_rep_bad(rd, "more than %d ledger lines", LR_REP_LEDGER_MAX)
			       : -ENOMEM;
	l->intervals++;
	if (*host)	/* the far end's name comes with its first frame */
		lr_strlcpy(l->host, host, sizeof(l->host));
	if (*unit)
		lr_strlcpy(l->unit, unit, sizeof(l->unit));
	if (c == 0) {
		l->count += count;
		l->known++;
	}
	if (d == 0) {
		l->datagrams += dg;
		l->dg_known++;
	}
	l->approx |= !strcmp(fs->f[11], "1");
	return 0;
}
