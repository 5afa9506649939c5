// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The verdict's books. Snapshots are folded into per-interface totals as they arrive (main
 * thread), but only the ticks that cover the test's own window: the window is read from the
 * traffic streams in the snapshots (the first start, the last end), so the connect before
 * and the teardown after the test never dilute or inflate the NIC and CPU figures. Interface
 * counts come from the never-reset sums (cum[]), so a snapshot the caller missed loses
 * nothing. Judging is in verdict_judge.c, output in verdict_out.c.
 */
#include <stdio.h>
#include <string.h>

#include "linerate/collect/qdisc.h"
#include "linerate/sample/snapshot.h"
#include "linerate/core/strutil.h"
#include "linerate/diagnose/verdict.h"
#include "verdict_priv.h"

void lr_verdict_init(struct lr_verdict_acc *a, const char *iface)
{
	memset(a, 0, sizeof(*a));
	a->rmem_max = a->tcp_window_scaling = a->netdev_max_backlog = -1;
	a->softnet_cpu = -1;
	a->blk.max_cpu = -1;
	if (iface)
		lr_strlcpy(a->want, iface, sizeof(a->want));
}

static struct lr_verdict_iface *acc_iface(struct lr_verdict_acc *a, const char *name)
{
	struct lr_verdict_iface *v;

	for (unsigned i = 0; i < a->n_ifs; i++)
		if (!strcmp(a->ifs[i].name, name))
			return &a->ifs[i];
	if (a->n_ifs == LR_VERDICT_IFACES)
		return NULL;
	v = &a->ifs[a->n_ifs++];
	memset(v, 0, sizeof(*v));
	lr_strlcpy(v->name, name, sizeof(v->name));
	v->speed_mbps = v->mtu = v->ring_rx = v->ring_rx_max = -1;
	v->hot_cpu = v->tick_hot_cpu = -1;
	return v;
}

static void note_drivers(struct lr_verdict_iface *v, const struct lr_iface_snap *i)
{
	for (size_t k = 0; k < i->n_moved; k++) {
		const struct lr_drv_counter *d = &i->moved[k];
		unsigned slot = 3;

		if (d->cat != LR_CAT_FIFO && d->cat != LR_CAT_DROP)
			continue;
		for (unsigned j = 0; j < 3 && slot == 3; j++)
			if (!strcmp(v->top_drv[j], d->name) || !v->top_drv[j][0] ||
			    v->top_drv_total[j] < d->total)
				slot = j;
		if (slot == 3 || !strcmp(v->top_drv[slot], d->name)) {
			if (slot < 3)
				v->top_drv_total[slot] = d->total;
			continue;
		}
		memmove(&v->top_drv[slot + 1], &v->top_drv[slot],
			(2 - slot) * sizeof(v->top_drv[0]));
		memmove(&v->top_drv_total[slot + 1], &v->top_drv_total[slot],
			(2 - slot) * sizeof(v->top_drv_total[0]));
		lr_strlcpy(v->top_drv[slot], d->name, sizeof(v->top_drv[slot]));
		v->top_drv_total[slot] = d->total;
	}
}

/* This tick's change of metric m: the never-reset sums when both readings have them (a
 * skipped snapshot is then inside the difference), else the tick's own delta. */
static bool tick_delta(const struct lr_verdict_iface *v, const struct lr_iface_snap *i, bool same,
		       unsigned m, uint64_t *out)
{
	uint64_t bit = LR_M_BIT(m);

	if (same && (v->prev_cum_valid & bit) && (i->cum_valid & bit) &&
	    i->cum[m] >= v->prev_cum[m]) {
		*out = i->cum[m] - v->prev_cum[m];
		return true;
	}
	if (!(i->valid & bit))
		return false;
	*out = i->delta[m];
	return true;
}

/* The root qdisc's drops of this tick, from its never-reset sum when both readings have it (a
 * missed snapshot loses nothing), else the tick's own; and its name as tc prints it. */
static void take_qdisc(struct lr_verdict_iface *v, const struct lr_iface_snap *i, bool same)
{
	const struct lr_qdisc_figures *q = &i->qdisc;
	char root[sizeof(v->qdisc_name)];

	if (same && v->prev_qdisc_valid && (q->cum_valid & LR_QDV_BIT(LR_QDC_DROPS)) &&
	    q->cum[LR_QDC_DROPS] >= v->prev_qdisc_cum) {
		v->qdisc_drops += q->cum[LR_QDC_DROPS] - v->prev_qdisc_cum;
		v->qdisc_known = true;
	} else if (q->valid & LR_QDV_BIT(LR_QDC_DROPS)) {	/* else the tick's own */
		v->qdisc_drops += q->delta[LR_QDC_DROPS];
		v->qdisc_known = true;
	}
	if (q->valid & LR_QDV_BACKLOG_BYTES) {	/* the peak: what a probe queued behind */
		if (q->backlog_bytes > v->qdisc_backlog_max_bytes)
			v->qdisc_backlog_max_bytes = q->backlog_bytes;
		if ((q->valid & LR_QDV_BACKLOG_PACKETS) &&
		    q->backlog_packets > v->qdisc_backlog_max_packets)
			v->qdisc_backlog_max_packets = q->backlog_packets;
		v->qdisc_backlog_known = true;
	}
	if (lr_snapshot_root_qdisc(i, root, sizeof(root)))	/* else the last one named */
		lr_strlcpy(v->qdisc_name, root, sizeof(v->qdisc_name));
}

static void add_iface(struct lr_verdict_acc *a, const struct lr_iface_snap *i, bool take)
{
	struct lr_verdict_iface *v = acc_iface(a, i->name);
	bool same;

	if (!v)
		return;
	same = v->prev_cum_valid && v->prev_ifindex == i->ifindex &&
	       v->prev_generation == i->generation;
	if (take) {
		for (unsigned m = 0; m < LR_M__COUNT; m++) {
			uint64_t d;

			if (tick_delta(v, i, same, m, &d)) {
				v->total[m] += d;
				v->valid |= LR_M_BIT(m);
			}
		}
		if (i->softirq_cpu >= 0 &&
		    (i->softirq_max_pct > v->tick_hot_pct || v->tick_hot_cpu < 0)) {
			v->tick_hot_pct = i->softirq_max_pct;
			v->tick_hot_cpu = i->softirq_cpu;
		}
		note_drivers(v, i);
		take_qdisc(v, i, same);
	}
	v->prev_qdisc_valid = i->qdisc.cum_valid & LR_QDV_BIT(LR_QDC_DROPS);
	v->prev_qdisc_cum = i->qdisc.cum[LR_QDC_DROPS];
	memcpy(v->prev_cum, i->cum, sizeof(v->prev_cum));
	v->prev_cum_valid = i->cum_valid;
	v->prev_ifindex = i->ifindex;
	v->prev_generation = i->generation;
	v->speed_mbps = i->speed_mbps;
	v->mtu = i->mtu;
	v->ring_rx = i->ring_rx;
	v->ring_rx_max = i->ring_rx_max;
	lr_strlcpy(v->driver, i->driver, sizeof(v->driver));
	lr_strlcpy(v->kind, i->kind, sizeof(v->kind));
}

static uint64_t count_of(double per_s, uint64_t ns)
{
	return (uint64_t)(per_s * (double)ns / 1e9 + 0.5);
}

/* The stack and softnet counters come as rates of this tick's own interval. */
static void add_host(struct lr_verdict_acc *a, const struct lr_snapshot *s, uint64_t span_ns)
{
	const struct lr_stack_snap *st = &s->stack;

	if (st->valid & LR_STACKV_TCP_RETRANS)
		a->tcp_retrans += count_of(st->tcp_retrans_per_s, span_ns);
	if (st->valid & LR_STACKV_UDP_RCVBUF)
		a->udp_rcvbuf += count_of(st->udp_rcvbuf_errors_per_s, span_ns);
	if (st->valid & LR_STACKV_UDP_IN_ERRORS)
		a->udp_in_errors += count_of(st->udp_in_errors_per_s, span_ns);
	if (st->valid & LR_STACKV_UDP_SNDBUF)
		a->udp_sndbuf += count_of(st->udp_sndbuf_errors_per_s, span_ns);
	for (unsigned d = 0; d < LR_SD__COUNT; d++)
		if (st->valid & LR_STACKV_DROP(d))
			a->stack_drop[d] += count_of(st->drop_per_s[d], span_ns);
	a->stack_valid |= st->valid;
	for (size_t c = 0; c < s->n_cpus; c++) {
		const struct lr_cpu_snap *k = &s->cpus[c];
		double d;

		if (!(k->valid & LR_CPUV_SOFTNET))
			continue;
		a->softnet_valid = true;
		d = k->softnet_dropped_per_s * (double)span_ns / 1e9;
		if (d >= 0.5 && a->softnet_cpu < 0)
			a->softnet_cpu = k->cpu;
		a->softnet_drops += d;
	}
}

/* Forget what was taken in before the test started: the window begins now. */
static void restart_books(struct lr_verdict_acc *a)
{
	for (unsigned k = 0; k < a->n_ifs; k++) {
		struct lr_verdict_iface *v = &a->ifs[k];

		memset(v->total, 0, sizeof(v->total));
		v->valid = 0;
		v->hot_pct = v->tick_hot_pct = 0;
		v->hot_cpu = v->tick_hot_cpu = -1;
		v->hot_blocks = 0;
		v->others_idle = false;
		memset(v->top_drv, 0, sizeof(v->top_drv));
		memset(v->top_drv_total, 0, sizeof(v->top_drv_total));
		v->qdisc_drops = 0;
		v->qdisc_known = false;
	}
	a->ticks_left_out += a->ticks;
	a->ticks = 0;
	a->tcp_retrans = a->udp_rcvbuf = a->udp_in_errors = a->udp_sndbuf = 0;
	memset(a->stack_drop, 0, sizeof(a->stack_drop));
	a->stack_valid = 0;
	a->softnet_drops = 0;
	a->softnet_cpu = -1;
	a->softnet_valid = false;
	lr_verdict_cpu_reset(a);
	a->cpu_blocks = 0;
}

/* Does the tick (from, to] belong to the test? Reads the window from the streams. */
static bool in_window(struct lr_verdict_acc *a, const struct lr_snapshot *s, uint64_t from)
{
	uint64_t start = 0, end = 0;
	bool started = false, all_ended = true, moving = false;

	for (size_t k = 0; k < s->n_streams; k++) {
		const struct lr_stream_snap *t = &s->streams[k];

		moving |= t->total_bytes > 0;
		if (!t->start_ns)
			continue;
		started = true;
		if (!start || t->start_ns < start)
			start = t->start_ns;
		if (!t->end_ns)
			all_ended = false;
		else if (t->end_ns > end)
			end = t->end_ns;
	}
	if (!started) { /* no test (sampling only: every tick), not started yet, or a
			 * source that does not know its start (moving: take it) */
		if (a->win_start_ns || (s->n_streams && !moving))
			return false;
		a->took_moving |= moving;
		return true;
	}
	if (!a->win_start_ns || start < a->win_start_ns) {
		/* what came before is not the test's, unless it was its own moving streams */
		if (!a->win_start_ns && !a->took_moving)
			restart_books(a);
		a->win_start_ns = start;
	}
	a->win_end_ns = all_ended ? end : 0;
	return !a->win_end_ns || from < a->win_end_ns;
}

void lr_verdict_add(struct lr_verdict_acc *a, const struct lr_snapshot *s)
{
	uint64_t from = a->prev_mono_ns && a->prev_mono_ns < s->mono_ns
				? a->prev_mono_ns
				: s->mono_ns - s->interval_ns;
	bool take = in_window(a, s, from);

	a->prev_mono_ns = s->mono_ns;
	for (size_t k = 0; k < s->n_ifaces; k++)
		add_iface(a, &s->ifaces[k], take);
	lr_verdict_numa_tick(a, s, take);
	a->rmem_max = s->tuning.rmem_max;
	a->tcp_window_scaling = s->tuning.tcp_window_scaling;
	a->netdev_max_backlog = s->tuning.netdev_max_backlog;
	if (!take) {
		a->ticks_left_out++;
		if (a->ticks) /* the test is over: its last CPU block */
			lr_verdict_cpu_flush(a, s);
		return;
	}
	if (!a->ticks)
		a->first_ns = from;
	a->last_ns = s->mono_ns;
	a->ticks++;
	add_host(a, s, s->interval_ns);
	lr_verdict_cpu_tick(a, s);
	lr_verdict_queue_tick(a, s);
}

const struct lr_verdict_iface *lr_verdict_pick(const struct lr_verdict_acc *a)
{
	const struct lr_verdict_iface *best = NULL;
	uint64_t most = 0;

	for (unsigned i = 0; i < a->n_ifs; i++) {
		const struct lr_verdict_iface *v = &a->ifs[i];
		uint64_t b = v->total[LR_M_RX_BYTES] + v->total[LR_M_TX_BYTES];

		if (a->want[0] && !strcmp(v->name, a->want))
			return v;
		if (!best || b > most) {
			best = v;
			most = b;
		}
	}
	return a->want[0] ? NULL : best;
}

void lr_verdict_fmt_bps(char *buf, size_t len, double bps)
{
	char num[32], prefix[2] = "";
	size_t n;

	lr_fmt_si(num, sizeof(num), bps);
	n = strlen(num);
	if (n && (num[n - 1] < '0' || num[n - 1] > '9')) {
		prefix[0] = num[n - 1];
		num[n - 1] = '\0';
	}
	snprintf(buf, len, "%s %sbit/s", num, prefix);
}
