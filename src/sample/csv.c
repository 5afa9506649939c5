// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * CSV logs on the main thread. Interface rows are built from the snapshot's cumulative
 * counters against the last row written for the same interface generation, so every column
 * sums to the kernel's own delta over the run even if a snapshot was missed. Formats are
 * fixed ("%.6f"), and linerate never sets LC_NUMERIC, so the decimal point is always '.'.
 */
#include <errno.h>
#include <math.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdio_ext.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/types.h>
#include <sys/utsname.h>
#include <unistd.h>

#include "linerate/sample/csv.h"
#include "linerate/core/array.h"
#include "linerate/core/log.h"
#include "linerate/collect/metrics.h"
#include "linerate/sample/ifrate.h"
#include "linerate/sample/snapshot.h"
#include "linerate/core/strutil.h"

/* Counter columns of the interface CSV, in their public order, and the metric each sums. */
static const struct {
	const char *name;
	enum lr_metric m;
} counter_cols[] = {
	{"rx_bytes", LR_M_RX_BYTES},	   {"tx_bytes", LR_M_TX_BYTES},
	{"rx_packets", LR_M_RX_PACKETS},   {"tx_packets", LR_M_TX_PACKETS},
};
static const struct {
	const char *name;
	enum lr_metric m;
} event_cols[] = {
	{"rx_dropped", LR_M_RX_DROPPED},   {"tx_dropped", LR_M_TX_DROPPED},
	{"rx_errors", LR_M_RX_ERRORS},	   {"tx_errors", LR_M_TX_ERRORS},
	{"rx_fifo", LR_M_RX_FIFO_ERRORS},  {"rx_missed", LR_M_RX_MISSED_ERRORS},
	{"rx_over", LR_M_RX_OVER_ERRORS},  {"nic_fifo", LR_M_NIC_FIFO},
	{"nic_drop", LR_M_NIC_DROP},
};

static const char iface_header[] =
	"time,elapsed,iface,interval,rx_bytes,tx_bytes,rx_packets,tx_packets,rx_bps,tx_bps,"
	"rx_pps,tx_pps,rx_dropped,tx_dropped,rx_errors,tx_errors,rx_fifo,rx_missed,rx_over,"
	"nic_fifo,nic_drop,softirq_max_pct,softirq_cpu,link_mbps,mtu,wire_util_pct,side,host,"
	/* appended since, in the order they landed: numa_node, driver (ethtool -i); the root
	 * qdisc's counts in the interval and its backlog as read (docs/design.md §14) */
	"numa_node,driver,qdisc_drops,qdisc_overlimits,qdisc_requeues,qdisc_backlog_bytes,"
	"qdisc_backlog_packets";
static const char cpu_header[] =
	"time,elapsed,cpu,interval,user_pct,system_pct,irq_pct,softirq_pct,idle_pct,"
	"net_rx_per_s,net_tx_per_s,softnet_processed_per_s,softnet_dropped_per_s,"
	/* appended since, in the order they landed: side,host (docs/design.md §10), steal_pct,
	 * node (NUMA) */
	"softnet_squeezed_per_s,side,host,steal_pct,node";

static const char stream_header[] =
	"time,elapsed,stream,direction,protocol,bytes,bps,packets,pps,retransmits,lost,"
	"out_of_order,jitter_ms,cwnd_bytes,rtt_us,"
	/* appended since, in the order they landed: the stream's own target (-b), empty when
	 * unknown; its -l (bytes per datagram or write) and congestion control (TCP); the
	 * latency probes' round trips, filled on `latency` rows only (docs/design.md §16) */
	"target_bps,length,congestion,rtt_p50_us,rtt_p90_us,rtt_p99_us,rtt_max_us";

/* docs/design.md §12 */
static const char queue_header[] =
	"time,elapsed,iface,queue,interval,rx_packets,rx_bytes,tx_packets,tx_bytes,rx_drops,"
	"tx_drops,rx_pps,tx_pps,cpu,cpu_softirq_pct,source,side,host";

struct last_queue {	/* what was last written for one queue of one interface generation */
	char name[LR_IFNAMSIZ];
	uint32_t generation;
	unsigned queue;
	uint64_t cum[6];
	uint64_t mono_ns;
	uint64_t base_ns;	/* as last_row's: a new base starts anew */
	uint64_t seen_seq;
};

struct last_stream {	/* what was last written for one stream of one traffic generation */
	uint32_t generation;
	int id;
	bool sender;
	uint64_t bytes, packets, retrans, lost, ooo;
	uint64_t mono_ns;
	uint64_t seen_seq;
};

struct last_row {	/* what was last written for one interface generation */
	char name[LR_IFNAMSIZ];
	uint32_t generation;
	uint64_t cum[LR_M__COUNT];
	uint64_t qdisc_cum[LR_QDC__COUNT], qdisc_base_ns;	/* lr_iface_snap.qdisc's */
	uint64_t mono_ns;
	uint64_t base_ns;	/* when its sums began: a new base is a new start (a peer's next
				 * session counts from its own start), never a step backwards */
	uint64_t seen_seq;	/* snapshot that last carried it: stale entries are dropped */
};

struct row_table {	/* one side's last rows (local and peer names may be the same) */
	struct last_row *rows;
	size_t n_rows, cap_rows;
};

struct lr_csv {
	FILE *f;
	bool is_stdout;
	char path[256];
	enum lr_csv_kind kind;
	struct last_row *rows;
	size_t n_rows, cap_rows;
	struct last_stream *streams;
	size_t n_streams, cap_streams;
	struct last_queue *queues;
	size_t n_queues, cap_queues;
	off_t whole;	/* file size after the last tick written in full */
	int err;	/* sticky write error: the file is cut back to `whole` */
	/* docs/design.md §10: every interface and CPU row ends with side,host */
	char local_suffix[80];	/* ",local,NODENAME" */
	const char *suffix;	/* ",local,HOST" or ",peer,HOST" for the rows being written */
	struct row_table peer;	/* the peer's rows' state, swapped in while they are written */
	struct last_queue *peer_queues;	/* the peer's queues' last rows, likewise */
	size_t n_peer_queues, cap_peer_queues;
};

static void make_suffix(char *buf, size_t size, const char *side, const char *host);

const char *lr_csv_header(enum lr_csv_kind kind)
{
	switch (kind) {
	case LR_CSV_CPUS: return cpu_header;
	case LR_CSV_STREAMS: return stream_header;
	case LR_CSV_QUEUES: return queue_header;
	default: return iface_header;
	}
}

const char *lr_csv_path(const struct lr_csv *c)
{
	return c->path;
}

int lr_csv_open(struct lr_csv **out, const char *path, enum lr_csv_kind kind)
{
	struct lr_csv *c = calloc(1, sizeof(*c));
	struct utsname u;

	if (!c)
		return -ENOMEM;
	c->kind = kind;
	lr_strlcpy(c->path, path, sizeof(c->path));
	make_suffix(c->local_suffix, sizeof(c->local_suffix), "local",
		    uname(&u) == 0 ? u.nodename : "");
	c->suffix = c->local_suffix;
	if (!strcmp(path, "-")) {
		c->f = stdout;
		c->is_stdout = true;
	} else {
		c->f = fopen(path, "we");
		if (!c->f) {
			int err = -errno;

			free(c);
			return err;
		}
	}
	if (fprintf(c->f, "%s\n", lr_csv_header(kind)) < 0 || fflush(c->f)) {
		int err = errno ? -errno : -EIO;

		lr_csv_close(c);
		return err;
	}
	if (!c->is_stdout)
		c->whole = ftello(c->f);
	*out = c;
	return 0;
}

void lr_csv_field(FILE *f, const char *s)
{
	if (!strpbrk(s, ",\"\r\n")) {
		fputs(s, f);
		return;
	}
	fputc('"', f);
	for (; *s; s++) {
		if (*s == '"')
			fputc('"', f);
		fputc(*s, f);
	}
	fputc('"', f);
}

/* ",WORD": a name the kernel reports (driver, congestion control). They are plain words, but
 * a byte that is not a printable non-space, or a comma or quote, becomes '?': the field never
 * needs quoting and never breaks a row, whatever the source held. */
static void put_word(FILE *f, const char *s, size_t max)
{
	fputc_unlocked(',', f);
	for (size_t n = 0; n < max && s[n]; n++) {
		unsigned char ch = (unsigned char)s[n];

		fputc_unlocked(ch > 0x20 && ch < 0x7f && ch != ',' && ch != '"' ? ch : '?', f);
	}
}

/* Hand-rolled number formatting: CSV rows are most of a headless tick's CPU, and printf's
 * generic path costs several times this. Same output as "%llu" and "%.*f" (round half to
 * even via rint, as printf does for exactly representable halves). A snapshot's rows are
 * written holding the stream's lock (flockfile in write_snapshot): the many small writes
 * below are the _unlocked ones. */
static char *fmt_u64(char *end, uint64_t v)
{
	do {
		*--end = (char)('0' + v % 10);
		v /= 10;
	} while (v);
	return end;
}

static void put_u64(FILE *f, bool known, uint64_t v)
{
	char buf[24], *p;

	buf[sizeof(buf) - 1] = '\0';
	p = fmt_u64(buf + sizeof(buf) - 1, v);
	*--p = ',';
	fputs_unlocked(known ? p : ",", f);
}

/* "%d" (comma: ",%d"), by fmt_u64 for the usual non-negative value */
static void put_int_sep(FILE *f, int v, bool comma)
{
	char buf[16], *p;

	if (v < 0) {
		fprintf(f, comma ? ",%d" : "%d", v);
		return;
	}
	buf[sizeof(buf) - 1] = '\0';
	p = fmt_u64(buf + sizeof(buf) - 1, (uint64_t)v);
	if (comma)
		*--p = ',';
	fputs_unlocked(p, f);
}

static void put_int(FILE *f, int v)
{
	put_int_sep(f, v, true);
}

/* "%.*f" of v (0 <= v < 1e12, at most 6 decimals) written to end backwards; NULL otherwise. */
static char *fmt_fixed(char *end, double v, int decimals)
{
	static const double pow10[] = {1, 10, 100, 1e3, 1e4, 1e5, 1e6};
	uint64_t scaled;

	if (!(v >= 0 && v < 1e12) || decimals < 0 || decimals > 6)
		return NULL;
	scaled = (uint64_t)rint(v * pow10[decimals]);
	for (int d = 0; d < decimals; d++) {
		*--end = (char)('0' + scaled % 10);
		scaled /= 10;
	}
	if (decimals)
		*--end = '.';
	return fmt_u64(end, scaled);
}

static void put_fixed(FILE *f, double v, int decimals)
{
	char buf[48], *p;

	buf[sizeof(buf) - 1] = '\0';
	p = fmt_fixed(buf + sizeof(buf) - 1, v, decimals);
	if (!p) {
		fprintf(f, ",%.*f", decimals, v);	/* rare: negative, huge or NaN */
		return;
	}
	*--p = ',';
	fputs_unlocked(p, f);
}

static void put_dbl(FILE *f, bool known, double v, int decimals)
{
	if (known)
		put_fixed(f, v, decimals);
	else
		fputc_unlocked(',', f);
}

static struct last_row *last_for(struct lr_csv *c, const struct lr_iface_snap *i, bool *fresh)
{
	for (size_t k = 0; k < c->n_rows; k++)
		if (!strcmp(c->rows[k].name, i->name) && c->rows[k].generation == i->generation) {
			*fresh = c->rows[k].base_ns != i->base_ns;
			if (*fresh)
				memset(c->rows[k].cum, 0, sizeof(c->rows[k].cum));
			c->rows[k].base_ns = i->base_ns;
			return &c->rows[k];
		}
	if (lr_array_grow(&c->rows, &c->cap_rows, c->n_rows + 1, sizeof(*c->rows)))
		return NULL;
	*fresh = true;
	memset(&c->rows[c->n_rows], 0, sizeof(c->rows[0]));
	lr_strlcpy(c->rows[c->n_rows].name, i->name, sizeof(c->rows[0].name));
	c->rows[c->n_rows].generation = i->generation;
	c->rows[c->n_rows].base_ns = i->base_ns;
	return &c->rows[c->n_rows++];
}

/* Forgets interfaces (generations) the snapshot no longer has. */
static void prune_rows(struct lr_csv *c, uint64_t seq)
{
	size_t w = 0;

	for (size_t k = 0; k < c->n_rows; k++)
		if (c->rows[k].seen_seq == seq)
			c->rows[w++] = c->rows[k];
	c->n_rows = w;
}

/* ,qdisc_drops,qdisc_overlimits,qdisc_requeues: the root qdisc's counts since the last row, from
 * its sums (a missed snapshot folds in); ,qdisc_backlog_bytes,qdisc_backlog_packets: as read. */
static void put_qdisc(FILE *f, const struct lr_qdisc_figures *q, struct last_row *last)
{
	static const enum lr_qdisc_counter cols[] = {LR_QDC_DROPS, LR_QDC_OVERLIMITS,
						     LR_QDC_REQUEUES};
	/* sums that began anew (cannot happen while the interface lives, but never a wrap) */
	bool same = !last->qdisc_base_ns || last->qdisc_base_ns == q->base_ns;

	for (size_t k = 0; k < LR_ARRAY_SIZE(cols); k++) {
		uint32_t bit = LR_QDV_BIT(cols[k]);

		put_u64(f, same && (q->valid & q->cum_valid & bit),
			q->cum[cols[k]] - last->qdisc_cum[cols[k]]);
	}
	put_u64(f, q->valid & LR_QDV_BACKLOG_BYTES, q->backlog_bytes);
	put_u64(f, q->valid & LR_QDV_BACKLOG_PACKETS, q->backlog_packets);
	memcpy(last->qdisc_cum, q->cum, sizeof(last->qdisc_cum));
	last->qdisc_base_ns = q->base_ns;
}

static int write_iface(struct lr_csv *c, const struct lr_snapshot *s,
		       const struct lr_iface_snap *i, const char *prefix)
{
	uint64_t d[LR_M__COUNT] = {0}, dt;
	bool fresh;
	struct last_row *last = last_for(c, i, &fresh);
	double secs, speed_bps;
	int64_t line;
	uint64_t ok;

	if (!last)
		return -ENOMEM;
	last->seen_seq = s->seq;
	/* a generation first seen here: its counters start at its first reading */
	dt = s->mono_ns - (fresh ? i->base_ns : last->mono_ns);
	if (!i->base_ns || s->mono_ns <= i->base_ns || !dt)
		return 0;	/* nothing measured yet for this generation */
	ok = i->cum_valid & i->valid;
	for (unsigned m = 0; m < LR_M__COUNT; m++)
		d[m] = i->cum[m] - last->cum[m];
	memcpy(last->cum, i->cum, sizeof(last->cum));
	last->mono_ns = s->mono_ns;
	secs = (double)dt / 1e9;

	fputs_unlocked(prefix, c->f);
	lr_csv_field(c->f, i->name);
	put_fixed(c->f, secs, 6);
	for (size_t k = 0; k < LR_ARRAY_SIZE(counter_cols); k++)
		put_u64(c->f, ok & LR_M_BIT(counter_cols[k].m), d[counter_cols[k].m]);
	put_dbl(c->f, ok & LR_M_BIT(LR_M_RX_BYTES), (double)d[LR_M_RX_BYTES] * 8 / secs, 1);
	put_dbl(c->f, ok & LR_M_BIT(LR_M_TX_BYTES), (double)d[LR_M_TX_BYTES] * 8 / secs, 1);
	put_dbl(c->f, ok & LR_M_BIT(LR_M_RX_PACKETS), (double)d[LR_M_RX_PACKETS] / secs, 1);
	put_dbl(c->f, ok & LR_M_BIT(LR_M_TX_PACKETS), (double)d[LR_M_TX_PACKETS] / secs, 1);
	for (size_t k = 0; k < LR_ARRAY_SIZE(event_cols); k++)
		put_u64(c->f, ok & LR_M_BIT(event_cols[k].m), d[event_cols[k].m]);
	put_dbl(c->f, i->softirq_max_pct >= 0, i->softirq_max_pct, 1);
	if (i->softirq_cpu >= 0)
		put_int(c->f, i->softirq_cpu);
	else
		fputc_unlocked(',', c->f);
	put_u64(c->f, i->speed_mbps > 0, (uint64_t)i->speed_mbps);
	put_u64(c->f, i->mtu >= 0, (uint64_t)i->mtu);
	line = lr_ifrate_line_mbps(i);	/* link_mbps is the kernel's; a % is of a line rate */
	speed_bps = (double)line * 1e6;
	{
		const uint64_t need = LR_M_BIT(LR_M_RX_BYTES) | LR_M_BIT(LR_M_TX_BYTES) |
				      LR_M_BIT(LR_M_RX_PACKETS) | LR_M_BIT(LR_M_TX_PACKETS);
		/* bytes a counter never sees: preamble 8 + FCS 4 + inter-frame gap 12 */
		double rx = (double)(d[LR_M_RX_BYTES] + 24 * d[LR_M_RX_PACKETS]) * 8;
		double tx = (double)(d[LR_M_TX_BYTES] + 24 * d[LR_M_TX_PACKETS]) * 8;

		put_dbl(c->f, line > 0 && (ok & need) == need,
			(rx > tx ? rx : tx) / secs / speed_bps * 100, 2);
	}
	fputs_unlocked(c->suffix, c->f);
	if (i->numa_known)	/* NUMA node of the device: empty when the platform gives none */
		put_int(c->f, i->numa_node);
	else
		fputc_unlocked(',', c->f);
	put_word(c->f, i->driver, sizeof(i->driver));	/* "" unknown (loopback has none) */
	put_qdisc(c->f, &i->qdisc, last);
	fputc_unlocked('\n', c->f);
	return 0;
}

static void write_cpu(FILE *f, const char *prefix, const struct lr_snapshot *s,
		      const struct lr_cpu_snap *k, const char *suffix)
{
	bool t = k->valid & LR_CPUV_TIMES, q = k->valid & LR_CPUV_SOFTIRQS,
	     n = k->valid & LR_CPUV_SOFTNET;

	fputs_unlocked(prefix, f);
	put_int_sep(f, k->cpu, false);
	put_fixed(f, (double)s->interval_ns / 1e9, 6);
	put_dbl(f, t, k->user_pct, 2);
	put_dbl(f, t, k->system_pct, 2);
	put_dbl(f, t, k->irq_pct, 2);
	put_dbl(f, t, k->softirq_pct, 2);
	put_dbl(f, t, k->idle_pct, 2);
	put_dbl(f, q, k->net_rx_per_s, 1);
	put_dbl(f, q, k->net_tx_per_s, 1);
	put_dbl(f, n, k->softnet_processed_per_s, 1);
	put_dbl(f, n, k->softnet_dropped_per_s, 1);
	put_dbl(f, n, k->softnet_squeezed_per_s, 1);
	fputs_unlocked(suffix, f);
	put_dbl(f, t && k->steal_pct >= 0, k->steal_pct, 2);
	if (k->valid & LR_CPUV_NODE)
		put_int(f, k->node);
	else
		fputc_unlocked(',', f);
	fputc_unlocked('\n', f);
}

static struct last_stream *last_stream_for(struct lr_csv *c, uint32_t gen,
					   const struct lr_stream_snap *st, bool *fresh)
{
	for (size_t k = 0; k < c->n_streams; k++) {
		struct last_stream *l = &c->streams[k];

		if (l->generation == gen && l->id == st->id && l->sender == st->sender) {
			*fresh = false;
			return l;
		}
	}
	if (lr_array_grow(&c->streams, &c->cap_streams, c->n_streams + 1, sizeof(*c->streams)))
		return NULL;
	*fresh = true;
	memset(&c->streams[c->n_streams], 0, sizeof(c->streams[0]));
	c->streams[c->n_streams].generation = gen;
	c->streams[c->n_streams].id = st->id;
	c->streams[c->n_streams].sender = st->sender;
	return &c->streams[c->n_streams++];
}

static int write_stream(struct lr_csv *c, const struct lr_snapshot *s,
			const struct lr_stream_snap *st, const char *prefix)
{
	bool fresh;
	struct last_stream *l = last_stream_for(c, s->traffic_generation, st, &fresh);
	uint64_t since, dt, bytes, packets;
	double secs;

	if (!l)
		return -ENOMEM;
	l->seen_seq = s->seq;
	/* never written: from the stream's own start (a stream seen before it started has no
	 * row yet, and must not be stuck without one) */
	since = l->mono_ns ? l->mono_ns : st->start_ns;
	if (!since || s->mono_ns <= since)
		return 0;	/* not started yet */
	dt = s->mono_ns - since;
	secs = (double)dt / 1e9;
	bytes = st->total_bytes - l->bytes;
	packets = st->total_packets - l->packets;
	fprintf(c->f, "%s%d,%s,%s,%llu,%.1f", prefix, st->id, st->sender ? "send" : "recv",
		st->udp ? "udp" : "tcp", (unsigned long long)bytes, (double)bytes * 8 / secs);
	put_u64(c->f, !st->packets_unknown, packets);
	put_dbl(c->f, !st->packets_unknown, (double)packets / secs, 1);
	put_u64(c->f, !st->udp && st->sender, st->total_retransmits - l->retrans);
	put_u64(c->f, st->udp && !st->sender, st->total_lost - l->lost);
	put_u64(c->f, st->udp && !st->sender, st->total_out_of_order - l->ooo);
	put_dbl(c->f, st->jitter_ms >= 0, st->jitter_ms, 3);
	put_u64(c->f, st->cwnd_bytes >= 0, (uint64_t)st->cwnd_bytes);
	put_u64(c->f, st->rtt_us >= 0, (uint64_t)st->rtt_us);
	put_u64(c->f, st->target_bps >= 0, (uint64_t)st->target_bps);	/* as it is now */
	put_u64(c->f, st->length > 0, st->length);
	put_word(c->f, st->udp ? "" : st->congestion, sizeof(st->congestion));
	fputs(",,,,\n", c->f);	/* the rtt_* columns: latency rows' */
	l->bytes = st->total_bytes;
	l->packets = st->total_packets;
	l->retrans = st->total_retransmits;
	l->lost = st->total_lost;
	l->ooo = st->total_out_of_order;
	l->mono_ns = s->mono_ns;
	return 0;
}

static struct last_queue *last_queue_for(struct lr_csv *c, const struct lr_iface_snap *i,
					 unsigned queue, uint64_t base_ns, bool *fresh)
{
	for (size_t k = 0; k < c->n_queues; k++)
		if (c->queues[k].queue == queue && c->queues[k].generation == i->generation &&
		    !strcmp(c->queues[k].name, i->name)) {
			*fresh = c->queues[k].base_ns != base_ns;
			if (*fresh)
				memset(c->queues[k].cum, 0, sizeof(c->queues[k].cum));
			c->queues[k].base_ns = base_ns;
			return &c->queues[k];
		}
	if (lr_array_grow(&c->queues, &c->cap_queues, c->n_queues + 1, sizeof(*c->queues)))
		return NULL;
	*fresh = true;
	memset(&c->queues[c->n_queues], 0, sizeof(c->queues[0]));
	lr_strlcpy(c->queues[c->n_queues].name, i->name, sizeof(c->queues[0].name));
	c->queues[c->n_queues].generation = i->generation;
	c->queues[c->n_queues].queue = queue;
	c->queues[c->n_queues].base_ns = base_ns;
	return &c->queues[c->n_queues++];
}

/* One row per queue and tick, its counts the difference of the queue's running sums since the
 * row last written, so a snapshot the writer missed loses nothing. */
static int write_queues(struct lr_csv *c, const struct lr_snapshot *s,
			const struct lr_iface_snap *i, const char *prefix)
{
	static const char *const source[] = {
		[LR_QSRC_NONE] = "", [LR_QSRC_QSTATS] = "qstats", [LR_QSRC_ETHTOOL] = "ethtool",
	};

	for (size_t k = 0; k < i->n_queues; k++) {
		const struct lr_queue_snap *q = &i->queues[k];
		bool fresh;
		struct last_queue *l = last_queue_for(c, i, q->queue, q->base_ns, &fresh);
		uint64_t d[6], dt;
		double secs;

		if (!l)
			return -ENOMEM;
		l->seen_seq = s->seq;
		dt = s->mono_ns - (fresh ? q->base_ns : l->mono_ns);
		if (!q->base_ns || s->mono_ns <= q->base_ns || !dt)
			continue;
		for (int f = 0; f < 6; f++)
			d[f] = q->cum[f] - l->cum[f];
		memcpy(l->cum, q->cum, sizeof(l->cum));
		l->mono_ns = s->mono_ns;
		secs = (double)dt / 1e9;
		fputs(prefix, c->f);
		lr_csv_field(c->f, i->name);
		fprintf(c->f, ",%u", q->queue);
		put_fixed(c->f, secs, 6);
		for (int f = 0; f < 6; f++)	/* rx/tx packets, bytes, drops: LR_QV_* order */
			put_u64(c->f, q->valid & (1u << f), d[f]);
		put_dbl(c->f, q->valid & LR_QV_RX_PACKETS, (double)d[0] / secs, 1);
		put_dbl(c->f, q->valid & LR_QV_TX_PACKETS, (double)d[2] / secs, 1);
		if (q->cpu >= 0)
			fprintf(c->f, ",%d", q->cpu);
		else
			fputc(',', c->f);
		put_dbl(c->f, q->cpu_softirq_pct >= 0, q->cpu_softirq_pct, 1);
		fputc(',', c->f);
		fputs(source[i->queue_source <= LR_QSRC_ETHTOOL ? i->queue_source : 0], c->f);
		fputs(c->suffix, c->f);
		fputc('\n', c->f);
	}
	return 0;
}

static void prune_queues(struct lr_csv *c, uint64_t seq)
{
	size_t w = 0;

	for (size_t k = 0; k < c->n_queues; k++)
		if (c->queues[k].seen_seq == seq)
			c->queues[w++] = c->queues[k];
	c->n_queues = w;
}

static void prune_streams(struct lr_csv *c, uint64_t seq)
{
	size_t w = 0;

	for (size_t k = 0; k < c->n_streams; k++)
		if (c->streams[k].seen_seq == seq)
			c->streams[w++] = c->streams[k];
	c->n_streams = w;
}

/* A failed write (full disk) can leave part of a row in the file and the rest in the stdio
 * buffer: drop the buffer and cut a regular file back to its last whole tick, so the rows
 * that stay are whole. Pipes and devices cannot be cut; nothing more is written to them. */
static int cut_back(struct lr_csv *c, int err)
{
	struct stat st;

	c->err = err;
	__fpurge(c->f);
	if (!c->is_stdout && !fstat(fileno(c->f), &st) && S_ISREG(st.st_mode) &&
	    st.st_size > c->whole && ftruncate(fileno(c->f), c->whole))
		lr_log(LR_LOG_WARN, "csv: cannot cut %s back to whole rows: %s", c->path,
		       strerror(errno));
	return err;
}

/* ",SIDE,HOST" with the host quoted as RFC 4180 wants when it needs it. */
static void make_suffix(char *buf, size_t size, const char *side, const char *host)
{
	size_t n = (size_t)snprintf(buf, size, ",%s,", side);
	bool quote = strpbrk(host, ",\"\r\n") != NULL;

	if (quote && n + 1 < size)
		buf[n++] = '"';
	for (; *host && n + 3 < size; host++) {
		if (*host == '"')
			buf[n++] = '"';
		buf[n++] = *host;
	}
	if (quote)
		buf[n++] = '"';
	buf[n] = '\0';
}

/* "SECONDS.MICROS,ELAPSED," of every row, without printf: the wall clock's microseconds cut
 * (as "%06llu" of them was), the elapsed time's rounded from its nanoseconds (half up: "%.6f"
 * of a double rounded the double's binary value, which differs only at exact halves). */
static char *fmt_micros(char *end, uint64_t secs, uint64_t us)
{
	for (int d = 0; d < 6; d++, us /= 10)
		*--end = (char)('0' + us % 10);
	*--end = '.';
	return fmt_u64(end, secs);
}

static void time_prefix(char *buf, size_t size, const struct lr_snapshot *s)
{
	char tmp[64], *p = tmp + sizeof(tmp) - 1;
	uint64_t el_us = (s->elapsed_ns + 500) / 1000;

	*p = '\0';
	*--p = ',';
	p = fmt_micros(p, el_us / 1000000, el_us % 1000000);
	*--p = ',';
	p = fmt_micros(p, s->real_ns / LR_NSEC_PER_SEC, s->real_ns % LR_NSEC_PER_SEC / 1000);
	lr_strlcpy(buf, p, size);
}

static int write_snapshot(struct lr_csv *c, const struct lr_snapshot *s)
{
	char prefix[64];
	int err = 0;

	if (c->err)
		return c->err;

	time_prefix(prefix, sizeof(prefix), s);
	flockfile(c->f);
	if (c->kind == LR_CSV_IFACES) {
		for (size_t i = 0; i < s->n_ifaces && !err; i++)
			err = write_iface(c, s, &s->ifaces[i], prefix);
		prune_rows(c, s->seq);
	} else if (c->kind == LR_CSV_QUEUES) {
		for (size_t i = 0; i < s->n_ifaces && !err; i++)
			err = write_queues(c, s, &s->ifaces[i], prefix);
		prune_queues(c, s->seq);
	} else if (c->kind == LR_CSV_STREAMS) {
		for (size_t i = 0; i < s->n_streams && !err; i++)
			err = write_stream(c, s, &s->streams[i], prefix);
		prune_streams(c, s->seq);
	} else {
		for (size_t i = 0; i < s->n_cpus; i++)
			write_cpu(c->f, prefix, s, &s->cpus[i], c->suffix);
	}
	if (!err && (fflush(c->f) || ferror(c->f)))
		err = errno ? -errno : -EIO;
	funlockfile(c->f);
	if (err)
		return cut_back(c, err);
	if (!c->is_stdout)
		c->whole = ftello(c->f);
	return 0;
}

int lr_csv_write_latency(struct lr_csv *c, const struct lr_snapshot *s,
			 const struct lr_csv_latency *l)
{
	const int64_t *q[] = {&l->p50_us, &l->p90_us, &l->p99_us, &l->max_us};
	char prefix[64];

	if (c->kind != LR_CSV_STREAMS)
		return 0;
	if (c->err)
		return c->err;
	/* time, elapsed as every row; the probes answered and lost in packets and lost; what a
	 * probe has no figure for (bytes, a direction, TCP's columns) empty */
	time_prefix(prefix, sizeof(prefix), s);
	flockfile(c->f);
	fputs_unlocked(prefix, c->f);
	fputs_unlocked("latency,,udp,,", c->f);
	put_u64(c->f, true, l->answered);
	fputs(",,", c->f);	/* pps, retransmits */
	put_u64(c->f, true, l->lost);
	fputs(",,,,,,,", c->f);	/* out_of_order .. congestion */
	for (size_t i = 0; i < sizeof(q) / sizeof(q[0]); i++)
		put_u64(c->f, *q[i] >= 0, (uint64_t)*q[i]);
	fputc('\n', c->f);
	if (fflush(c->f) || ferror(c->f)) {
		funlockfile(c->f);
		return cut_back(c, errno ? -errno : -EIO);
	}
	funlockfile(c->f);
	if (!c->is_stdout)
		c->whole = ftello(c->f);
	return 0;
}

int lr_csv_write(struct lr_csv *c, const struct lr_snapshot *s)
{
	c->suffix = c->local_suffix;
	return write_snapshot(c, s);
}

int lr_csv_write_peer(struct lr_csv *c, const struct lr_snapshot *s, const char *host)
{
	char suffix[sizeof(c->local_suffix)];
	struct row_table mine = {c->rows, c->n_rows, c->cap_rows};
	int err;

	if (c->kind == LR_CSV_STREAMS)
		return 0;	/* the peer's streams are the same streams, seen from there */
	make_suffix(suffix, sizeof(suffix), "peer", host);
	c->suffix = suffix;
	c->rows = c->peer.rows;	/* the peer's interfaces keep their own last rows */
	c->n_rows = c->peer.n_rows;
	c->cap_rows = c->peer.cap_rows;
	if (c->kind == LR_CSV_QUEUES) {	/* and its queues (docs/wire.md §P4.1) theirs */
		struct last_queue *q = c->queues;
		size_t n = c->n_queues, cap = c->cap_queues;

		c->queues = c->peer_queues;
		c->n_queues = c->n_peer_queues;
		c->cap_queues = c->cap_peer_queues;
		err = write_snapshot(c, s);
		c->peer_queues = c->queues;
		c->n_peer_queues = c->n_queues;
		c->cap_peer_queues = c->cap_queues;
		c->queues = q;
		c->n_queues = n;
		c->cap_queues = cap;
	} else {
		err = write_snapshot(c, s);
	}
	c->peer = (struct row_table){c->rows, c->n_rows, c->cap_rows};
	c->rows = mine.rows;
	c->n_rows = mine.n_rows;
	c->cap_rows = mine.cap_rows;
	c->suffix = c->local_suffix;
	return err;
}

int lr_csv_close(struct lr_csv *c)
{
	int err = 0;

	if (!c)
		return 0;
	if (c->err)
		err = c->err;	/* already reported by lr_csv_write; the buffer was dropped */
	else if (fflush(c->f) || ferror(c->f))
		err = errno ? -errno : -EIO;
	if (!c->is_stdout && fclose(c->f) && !err)
		err = -errno;
	free(c->rows);
	free(c->peer.rows);
	free(c->streams);
	free(c->queues);
	free(c->peer_queues);
	free(c);
	return err;
}
