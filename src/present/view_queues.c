// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The Queues pane: the interface's queues hottest first (rx+tx packets this interval), each
 * with its rx/tx packets per second, its share of the packets all queues carried, its drops
 * per second, the CPU serving it and that CPU's softirq %, and the imbalance (the hottest
 * queue's packets over the mean of the queues). Unknown values are "-", never 0. Main
 * thread; pure drawing.
 */
#include <stdio.h>

#include "linerate/sample/snapshot.h"
#include "linerate/present/view.h"

#define MAX_ROWS 64

static bool has_packets(const struct lr_queue_snap *q)
{
	return q->valid & (LR_QV_RX_PACKETS | LR_QV_TX_PACKETS);
}

static double packets(const struct lr_queue_snap *q)
{
	return (double)(q->rx_packets + q->tx_packets);
}

bool lr_view_queue_stats(const struct lr_iface_snap *ifs, struct lr_view_queue_stats *st)
{
	double sum = 0, max = -1;
	size_t n = 0;

	st->hot = -1;
	st->share = st->imbalance = -1;
	st->total_packets = 0;
	for (size_t i = 0; i < ifs->n_queues; i++) {
		const struct lr_queue_snap *q = &ifs->queues[i];

		if (!has_packets(q))
			continue;
		n++;
		sum += packets(q);
		if (packets(q) > max) {
			max = packets(q);
			st->hot = (int)i;
		}
	}
	if (!n)
		return false;
	st->total_packets = sum;
	if (sum > 0) {
		st->share = max / sum;
		st->imbalance = max / (sum / (double)n);
	}
	return true;
}

/* The indexes of the hottest min(n_queues, max) queues, hottest first (ties: lower queue). */
static size_t hottest(const struct lr_iface_snap *ifs, size_t *idx, size_t max)
{
	size_t n = 0;

	for (size_t i = 0; i < ifs->n_queues; i++) {
		double v = has_packets(&ifs->queues[i]) ? packets(&ifs->queues[i]) : -1;
		size_t k = n < max ? n++ : max;

		/* insertion into the kept top list; drop the coolest when full */
		while (k > 0) {
			const struct lr_queue_snap *p = &ifs->queues[idx[k - 1]];
			double pv = has_packets(p) ? packets(p) : -1;

			if (pv >= v)
				break;
			if (k < max)
				idx[k] = idx[k - 1];
			k--;
		}
		if (k < max)
			idx[k] = i;
	}
	return n;
}

struct cols {
	int q, rx, tx, share, drop, cpu, sirq;
};

static void num(struct lr_frame *f, int *x, int y, int w, enum lr_role role, double v)
{
	char buf[24];

	lr_view_fmt_num(buf, sizeof(buf), v);
	lr_frame_text_right(f, *x, y, w, v > 0 ? role : LR_ROLE_LABEL, buf);
	*x += w;
}

static void pct(struct lr_frame *f, int *x, int y, int w, enum lr_role role, double v)
{
	char buf[16];

	if (v >= 0)
		snprintf(buf, sizeof(buf), "%.0f%%", v);
	else
		snprintf(buf, sizeof(buf), "-");
	lr_frame_text_right(f, *x, y, w, v >= 0 ? role : LR_ROLE_LABEL, buf);
	*x += w;
}

static void header(struct lr_frame *f, int x, int y, const struct cols *c)
{
	static const char *const names[] = {"q",      "rx p/s", "tx p/s", "share",
					    "drop/s", "cpu",	"sirq"};
	const int w[] = {c->q, c->rx, c->tx, c->share, c->drop, c->cpu, c->sirq};

	for (size_t i = 0; i < LR_ARRAY_SIZE(names); i++) {
		lr_frame_text_right(f, x, y, w[i], LR_ROLE_LABEL, names[i]);
		x += w[i];
	}
}

static void row(struct lr_frame *f, int x, int y, const struct cols *c,
		const struct lr_iface_snap *ifs, const struct lr_queue_snap *q, double total,
		bool several)
{
	double dt = ifs->interval_ns > 0 ? (double)ifs->interval_ns / 1e9 : -1;
	double share = has_packets(q) && total > 0 ? 100 * packets(q) / total : -1;
	double drops = -1;
	char buf[16];

	if ((q->valid & (LR_QV_RX_DROPS | LR_QV_TX_DROPS)) && dt > 0)
		drops = (double)(q->rx_drops + q->tx_drops) / dt;
	snprintf(buf, sizeof(buf), "%u", q->queue);
	lr_frame_text_right(f, x, y, c->q, LR_ROLE_VALUE, buf);
	x += c->q;
	num(f, &x, y, c->rx, LR_ROLE_RX, q->rx_pps);
	num(f, &x, y, c->tx, LR_ROLE_TX, q->tx_pps);
	pct(f, &x, y, c->share, several && share > 50 ? LR_ROLE_WARN : LR_ROLE_VALUE, share);
	num(f, &x, y, c->drop, LR_ROLE_ALERT, drops);
	if (q->cpu >= 0)
		snprintf(buf, sizeof(buf), "%d", q->cpu);
	else
		snprintf(buf, sizeof(buf), "-");
	lr_frame_text_right(f, x, y, c->cpu, q->cpu >= 0 ? LR_ROLE_VALUE : LR_ROLE_LABEL, buf);
	x += c->cpu;
	pct(f, &x, y, c->sirq,
	    q->cpu_softirq_pct > 95   ? LR_ROLE_ALERT
	    : q->cpu_softirq_pct > 50 ? LR_ROLE_WARN
				      : LR_ROLE_VALUE,
	    q->cpu_softirq_pct);
}

static const char *source_name(enum lr_queue_source s)
{
	return s == LR_QSRC_QSTATS ? "qstats" : s == LR_QSRC_ETHTOOL ? "ethtool -S" : "-";
}

void lr_view_queues(struct lr_frame *f, struct lr_rect r, const struct lr_view_ctx *ctx,
		    const struct lr_iface_snap *ifs)
{
	/* 38 columns at 80x24 (and a blank last one); wider panes space the columns out */
	struct cols c = r.w - 2 >= 48 ? (struct cols){4, 9, 9, 7, 8, 6, 5}
				      : (struct cols){2, 7, 7, 6, 7, 4, 5};
	int x = r.x + 1, w = r.w - 2, y = r.y + 1, rows = r.h - 2;
	struct lr_view_queue_stats st;
	size_t idx[MAX_ROWS], n, shown;
	char buf[64];

	/* narrower (70-79 columns): the last columns go whole, sirq first */
	if (w < c.q + c.rx + c.tx + c.share + c.drop + c.cpu + c.sirq)
		c.sirq = 0;
	if (w < c.q + c.rx + c.tx + c.share + c.drop + c.cpu)
		c.cpu = 0;

	lr_view_pane_title(f, r, "Queues", ctx->ascii);
	if (!lr_view_queue_stats(ifs, &st)) {
		if (r.h < 2)
			return;
		lr_frame_text(f, x, y++, w, LR_ROLE_LABEL, "per-queue counters: unknown");
		if (y < r.y + r.h)
			lr_view_text_words(f, x, y, w, LR_ROLE_LABEL,
					   ifs->queue_source == LR_QSRC_NONE
						   ? "no qstats-get answer, no per-queue ethtool "
						     "names"
						   : "no queue moved a known counter yet",
					   ctx->ascii);
		return;
	}
	if (st.imbalance >= 0)
		snprintf(buf, sizeof(buf), " %s  max/mean %.1f ", source_name(ifs->queue_source),
			 st.imbalance);
	else
		snprintf(buf, sizeof(buf), " %s  max/mean - ", source_name(ifs->queue_source));
	if (lr_utf8_width(buf) + 9 < r.w)
		lr_frame_text_right(f, r.x, r.y, r.w - 1, LR_ROLE_LABEL, buf);
	if (rows < 1)
		return;
	header(f, x, y++, &c);
	n = hottest(ifs, idx, rows < MAX_ROWS ? (size_t)rows : MAX_ROWS);
	shown = n;
	if (ifs->n_queues > n && n > 0)
		shown = n - 1; /* the last row says how many more */
	for (size_t i = 0; i < shown; i++)
		row(f, x, y++, &c, ifs, &ifs->queues[idx[i]], st.total_packets, ifs->n_queues > 1);
	if (shown < ifs->n_queues) {
		snprintf(buf, sizeof(buf), "+%zu more queues", ifs->n_queues - shown);
		lr_frame_text(f, x, y, w, LR_ROLE_LABEL, buf);
	}
}
