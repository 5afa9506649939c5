// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The replay's playback: a clock over the recorded time (pause, speed 2^exp, seek), and the
 * snapshots of the tick it points at, built by applying the rows in time order to states that
 * hold what a live sampler would have held by then: this interval's deltas and rates, totals,
 * peaks and the graph history. Moving forward applies the rows in between; moving back starts
 * again from the first row. A row's rates are the recorded ones (rx_bps / 8 is the bytes per
 * second), so a pane shows the figure the CSV holds. [main]
 */
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "linerate/core/strutil.h"
#include "linerate/run/replay.h"
#include "linerate/collect/classify.h"
#include "linerate/core/clock.h"
#include "linerate/sample/report_read.h"
#include "linerate/sample/iftable.h"
#include "linerate/sample/snapshot.h"
#include "replay_priv.h"

#define GONE_SLACK_S 0.5	/* a series is shown until 2 intervals + this after its last row */

static bool known(double v)
{
	return !isnan(v);
}

static bool present(double last_time, double last_interval, double now)
{
	return last_time >= 0 && last_time + 2 * last_interval + GONE_SLACK_S >= now;
}

/* ---- states ---- */

static int cmp_cpu(const void *a, const void *b)
{
	const struct rp_cpu *x = a, *y = b;

	if (x->side != y->side)
		return x->side - y->side;
	return (x->st.cpu > y->st.cpu) - (x->st.cpu < y->st.cpu);
}

static int cmp_stream(const void *a, const void *b)
{
	const struct rp_stream *x = a, *y = b;

	if (x->id != y->id)
		return (x->id > y->id) - (x->id < y->id);
	return (int)y->send - (int)x->send;
}

static int cmp_iface_name(const void *a, const void *b)
{
	return strcmp(((const struct lr_iface_snap *)a)->name, ((const struct lr_iface_snap *)b)->name);
}

static void reset_states(struct lr_replay *rp)
{
	for (size_t i = 0; i < rp->n_series; i++) {
		struct rp_series *s = &rp->series[i];

		memset(&s->st, 0, sizeof(s->st));
		memset(s->moved, 0, sizeof(s->moved));
		memcpy(s->st.name, s->name, sizeof(s->st.name));
		memcpy(s->st.driver, s->driver, sizeof(s->st.driver));
		s->st.ifindex = (int)i + 1;
		s->st.mtu = s->st.speed_mbps = -1;
		s->st.duplex = -1;
		s->st.ring_rx = s->st.ring_rx_max = s->st.ring_tx = s->st.ring_tx_max = -1;
		s->st.softirq_max_pct = -1;
		s->st.softirq_cpu = -1;
		s->last_time = -1;
		s->last_interval = 0;
		memset(s->carry, 0, sizeof(s->carry));
		s->carry_secs = 0;
	}
	for (size_t i = 0; i < rp->n_cpus; i++) {
		struct rp_cpu *c = &rp->cpus[i];
		int cpu = c->st.cpu;

		memset(&c->st, 0, sizeof(c->st));
		c->st.cpu = cpu;
		c->st.steal_pct = -1;
		c->last_time = -1;
	}
	for (size_t i = 0; i < rp->n_streams; i++) {
		struct rp_stream *s = &rp->streams[i];

		memset(&s->st, 0, sizeof(s->st));
		s->st.id = s->id;
		s->st.target_bps = -1;
		s->last_time = -1;
		s->target = -1;
	}
	lr_replay_queues_reset(rp);
	rp->cur_if = rp->cur_cpu = rp->cur_st = rp->cur_q = 0;
	rp->built = RP_NONE;
}

static int cmp_u64(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;

	return (x > y) - (x < y);
}

size_t lr_replay_distinct(uint64_t *keys, size_t n)
{
	size_t k = 0;

	if (n)
		qsort(keys, n, sizeof(*keys), cmp_u64);
	for (size_t i = 0; i < n; i++)
		if (!k || keys[k - 1] != keys[i])
			keys[k++] = keys[i];
	return k;
}

/* One state per distinct (side, cpu) and (stream, direction), in the order bsearch expects
 * (cmp_cpu, cmp_stream): found from compact keys, never one state per row. */
static int make_states(struct lr_replay *rp)
{
	size_t n = rp->n_cpurows > rp->n_strows ? rp->n_cpurows : rp->n_strows;
	uint64_t *keys = malloc((n ? n : 1) * sizeof(*keys));

	if (!keys)
		return -ENOMEM;
	for (size_t i = 0; i < rp->n_cpurows; i++)	/* cpu numbers are 0 .. 2^20 */
		keys[i] = (uint64_t)rp->cpurows[i].side << 32 | (uint32_t)rp->cpurows[i].cpu;
	rp->n_cpus = lr_replay_distinct(keys, rp->n_cpurows);
	rp->cpus = calloc(rp->n_cpus ? rp->n_cpus : 1, sizeof(*rp->cpus));
	for (size_t i = 0; rp->cpus && i < rp->n_cpus; i++) {
		rp->cpus[i].side = (int)(keys[i] >> 32);
		rp->cpus[i].st.cpu = (int)(uint32_t)keys[i];
	}
	for (size_t i = 0; i < rp->n_strows; i++)	/* send before recv, as cmp_stream */
		keys[i] = (uint64_t)(uint32_t)rp->strows[i].id << 1 | !rp->strows[i].send;
	rp->n_streams = lr_replay_distinct(keys, rp->n_strows);
	rp->streams = calloc(rp->n_streams ? rp->n_streams : 1, sizeof(*rp->streams));
	for (size_t i = 0; rp->streams && i < rp->n_streams; i++) {
		rp->streams[i].id = (int)(keys[i] >> 1);
		rp->streams[i].send = !(keys[i] & 1);
	}
	free(keys);
	return rp->cpus && rp->streams ? 0 : -ENOMEM;
}

int lr_replay_states_init(struct lr_replay *rp)
{
	int err = make_states(rp);

	if (!err)
		err = lr_replay_queues_init(rp);
	if (err)
		return err;
	for (int side = 0; side < RP_SIDES; side++) {
		struct lr_snapshot *s = &rp->snap[side];

		lr_snapshot_init(s);
		s->ifaces = calloc(rp->n_series ? rp->n_series : 1, sizeof(*s->ifaces));
		s->cpus = calloc(rp->n_cpus ? rp->n_cpus : 1, sizeof(*s->cpus));
		s->streams = calloc(rp->n_streams ? rp->n_streams : 1, sizeof(*s->streams));
		if (!s->ifaces || !s->cpus || !s->streams)
			return -ENOMEM;
	}
	reset_states(rp);
	return 0;
}

void lr_replay_states_free(struct lr_replay *rp)
{
	for (int side = 0; side < RP_SIDES; side++) {
		free(rp->snap[side].ifaces);
		free(rp->snap[side].cpus);
		free(rp->snap[side].streams);
	}
	free(rp->cpus);
	free(rp->streams);
	lr_replay_queues_free(rp);
}

/* ---- rows applied to states ---- */

static void moved_add(struct rp_series *se, enum lr_metric m, const char *name,
		      enum lr_counter_cat cat)
{
	struct lr_iface_snap *s = &se->st;
	struct lr_drv_counter *c;

	if (!(s->total_valid & LR_M_BIT(m)) || !s->total[m])
		return;
	c = &se->moved[s->n_moved++];
	memset(c, 0, sizeof(*c));
	lr_strlcpy(c->name, name, sizeof(c->name));
	c->cat = cat;
	c->delta = s->delta[m];
	c->total = s->total[m];
	c->per_s = s->per_s[m];
}

/* A row's qdisc columns into the interface's root-qdisc figures (snapshot.h), as the sampler
 * would have published them; empty stays unknown. */
static void apply_qdisc(struct lr_qdisc_figures *q, const double *col, double iv)
{
	static const enum lr_qdisc_counter counter[] = {
		[LR_RQ_DROPS] = LR_QDC_DROPS, [LR_RQ_OVERLIMITS] = LR_QDC_OVERLIMITS,
		[LR_RQ_REQUEUES] = LR_QDC_REQUEUES,
	};

	q->valid = 0;
	q->interval_ns = (uint64_t)(iv * 1e9);
	for (unsigned k = 0; k < LR_ARRAY_SIZE(counter); k++) {
		enum lr_qdisc_counter c = counter[k];

		if (!known(col[k]))
			continue;
		q->delta[c] = (uint64_t)col[k];
		q->cum[c] += q->delta[c];
		q->valid |= LR_QDV_BIT(c);
	}
	q->cum_valid |= q->valid;
	q->drops_per_s = known(col[LR_RQ_DROPS]) ? col[LR_RQ_DROPS] / iv : 0;
	q->backlog_bytes = known(col[LR_RQ_BACKLOG_BYTES]) ? (uint64_t)col[LR_RQ_BACKLOG_BYTES] : 0;
	q->backlog_packets =
		known(col[LR_RQ_BACKLOG_PACKETS]) ? (uint64_t)col[LR_RQ_BACKLOG_PACKETS] : 0;
	q->valid |= known(col[LR_RQ_BACKLOG_BYTES]) ? LR_QDV_BACKLOG_BYTES : 0;
	q->valid |= known(col[LR_RQ_BACKLOG_PACKETS]) ? LR_QDV_BACKLOG_PACKETS : 0;
}

static void apply_iface(struct lr_replay *rp, const struct rp_ifrow *r)
{
	/* counter column -> metric, and the column holding its recorded rate (-1: delta / s) */
	static const struct {
		unsigned col;
		enum lr_metric m;
		int rate_col;
		double mult;
	} map[] = {
		{4, LR_M_RX_BYTES, 8, 8},	{5, LR_M_TX_BYTES, 9, 8},
		{6, LR_M_RX_PACKETS, 10, 1},	{7, LR_M_TX_PACKETS, 11, 1},
		{12, LR_M_RX_DROPPED, -1, 1},	{13, LR_M_TX_DROPPED, -1, 1},
		{14, LR_M_RX_ERRORS, -1, 1},	{15, LR_M_TX_ERRORS, -1, 1},
		{16, LR_M_RX_FIFO_ERRORS, -1, 1}, {17, LR_M_RX_MISSED_ERRORS, -1, 1},
		{18, LR_M_RX_OVER_ERRORS, -1, 1}, {19, LR_M_NIC_FIFO, -1, 1},
		{20, LR_M_NIC_DROP, -1, 1},
	};
	struct rp_series *se = &rp->series[r->series];
	struct lr_iface_snap *s = &se->st;
	double iv = r->v[3];
	bool sliver;

	s->interval_ns = (uint64_t)(iv * 1e9);
	s->valid = s->stale = 0;
	memset(s->delta, 0, sizeof(s->delta));
	memset(s->per_s, 0, sizeof(s->per_s));
	for (size_t i = 0; i < LR_ARRAY_SIZE(map); i++) {
		double d = r->v[map[i].col];
		enum lr_metric m = map[i].m;

		if (!known(d))
			continue;
		s->valid |= LR_M_BIT(m);
		s->delta[m] = (uint64_t)d;
		s->per_s[m] = map[i].rate_col >= 0 && known(r->v[map[i].rate_col])
				      ? r->v[map[i].rate_col] / map[i].mult
				      : d / iv;
		s->total[m] += s->delta[m];
		s->total_valid |= LR_M_BIT(m);
		s->cum[m] += s->delta[m];
		s->cum_valid |= LR_M_BIT(m);
	}
	/* a sliver (the stop tick's 0.5 ms) has no honest per-second rate: its counts wait for
	 * the next row's peak, as the report folds them (LR_REP_SLIVER_FRAC) */
	sliver = iv < LR_REP_SLIVER_FRAC * rp->typical_interval;
	for (unsigned i = 0; i < LR_SER__COUNT; i++) {
		struct lr_iftable_graph g = lr_iftable_graph(s, (enum lr_series_id)i);
		bool ok = s->valid & LR_M_BIT(g.m);
		double v = s->per_s[g.m] * g.mult;
		double count = (double)s->delta[g.m] * g.mult;

		lr_series_push(&s->hist[i], ok ? v : NAN);
		if (!ok)
			continue;
		if (sliver)
			se->carry[i] += count;
		else if (se->carry_secs > 0)
			lr_peak_add(g.peak, (count + se->carry[i]) / (iv + se->carry_secs));
		else
			lr_peak_add(g.peak, v);
	}
	if (sliver) {
		se->carry_secs += iv;
	} else {
		memset(se->carry, 0, sizeof(se->carry));
		se->carry_secs = 0;
	}
	s->softirq_max_pct = known(r->v[21]) ? r->v[21] : -1;
	s->softirq_cpu = known(r->v[22]) ? (int)r->v[22] : -1;
	s->speed_mbps = known(r->v[23]) && r->v[23] > 0 ? (int64_t)r->v[23] : -1;
	s->mtu = known(r->v[24]) ? (int64_t)r->v[24] : -1;
	apply_qdisc(&s->qdisc, r->qdisc, iv);
	s->n_moved = 0;
	moved_add(se, LR_M_NIC_FIFO, "nic_fifo", LR_CAT_FIFO);
	moved_add(se, LR_M_NIC_DROP, "nic_drop", LR_CAT_DROP);
	s->moved = s->n_moved ? se->moved : NULL;
	se->last_time = r->time;
	se->last_interval = iv;
}

static struct rp_cpu *cpu_state(struct lr_replay *rp, int side, int cpu)
{
	struct rp_cpu key = {.side = side, .st.cpu = cpu};

	return bsearch(&key, rp->cpus, rp->n_cpus, sizeof(key), cmp_cpu);
}

static double pct(double v)
{
	return known(v) ? v : 0;
}

static void apply_cpu(struct lr_replay *rp, const struct rp_cpurow *r)
{
	struct rp_cpu *c = cpu_state(rp, r->side, r->cpu);
	struct lr_cpu_snap *s;

	if (!c)
		return;
	s = &c->st;
	s->valid = 0;
	if (known(r->v[4]) && known(r->v[8]))
		s->valid |= LR_CPUV_TIMES;
	if (known(r->v[9]))
		s->valid |= LR_CPUV_SOFTIRQS;
	if (known(r->v[11]))
		s->valid |= LR_CPUV_SOFTNET;
	s->user_pct = pct(r->v[4]);
	s->system_pct = pct(r->v[5]);
	s->irq_pct = pct(r->v[6]);
	s->softirq_pct = pct(r->v[7]);
	s->idle_pct = pct(r->v[8]);
	s->times_window_ns = (uint64_t)(r->interval * 1e9);
	s->net_rx_per_s = pct(r->v[9]);
	s->net_tx_per_s = pct(r->v[10]);
	s->softnet_processed_per_s = pct(r->v[11]);
	s->softnet_dropped_per_s = pct(r->v[12]);
	s->softnet_squeezed_per_s = pct(r->v[13]);
	c->last_time = r->time;
	c->last_interval = r->interval;
}

static void apply_stream(struct lr_replay *rp, const struct rp_strow *r)
{
	struct rp_stream key = {.id = r->id, .send = r->send}, *st;
	struct lr_stream_snap *s;

	st = bsearch(&key, rp->streams, rp->n_streams, sizeof(key), cmp_stream);
	if (!st)
		return;
	s = &st->st;
	s->sender = r->send;
	s->udp = r->udp;
	s->valid = true;
	s->bytes = (uint64_t)pct(r->v[5]);
	s->bps = pct(r->v[6]);
	s->packets = (uint64_t)pct(r->v[7]);
	s->packets_unknown = !known(r->v[7]);
	s->pps = pct(r->v[8]);
	s->retransmits = (uint64_t)pct(r->v[9]);
	s->lost = (uint64_t)pct(r->v[10]);
	s->out_of_order = (uint64_t)pct(r->v[11]);
	s->jitter_ms = known(r->v[12]) ? r->v[12] : -1;
	s->cwnd_bytes = known(r->v[13]) ? (int64_t)r->v[13] : -1;
	s->rtt_us = known(r->v[14]) ? (int64_t)r->v[14] : -1;
	s->total_bytes += s->bytes;
	s->total_packets += s->packets;
	s->total_retransmits += s->retransmits;
	s->total_lost += s->lost;
	s->total_out_of_order += s->out_of_order;
	st->target = !r->target_col ? -2 : known(r->target) ? r->target : -1;
	s->target_bps = known(r->target) ? (int64_t)r->target : -1;
	st->last_interval = st->last_time >= 0 ? r->time - st->last_time : 1;
	st->last_time = r->time;
}

/* Applies every row up to tick k's time. */
static void advance(struct lr_replay *rp, size_t k)
{
	double t = rp->ticks[k].time;

	while (rp->cur_if < rp->n_ifrows && rp->ifrows[rp->cur_if].time <= t)
		apply_iface(rp, &rp->ifrows[rp->cur_if++]);
	while (rp->cur_cpu < rp->n_cpurows && rp->cpurows[rp->cur_cpu].time <= t)
		apply_cpu(rp, &rp->cpurows[rp->cur_cpu++]);
	while (rp->cur_st < rp->n_strows && rp->strows[rp->cur_st].time <= t)
		apply_stream(rp, &rp->strows[rp->cur_st++]);
	lr_replay_queues_advance(rp, t);
}

/* ---- snapshots ---- */

static void build(struct lr_replay *rp, int side, size_t k, uint64_t now_ns)
{
	struct lr_snapshot *s = &rp->snap[side];
	const struct rp_tick *t = &rp->ticks[k];
	double busy[5] = {0};
	size_t n_times = 0;

	s->seq = rp->seq;
	s->mono_ns = now_ns;
	s->real_ns = (uint64_t)(t->time * 1e9);
	s->elapsed_ns = known(t->elapsed) ? (uint64_t)(t->elapsed * 1e9) : 0;
	s->interval_ns = (uint64_t)(t->interval * 1e9);
	s->target_interval_ns = (uint64_t)(rp->typical_interval * 1e9);
	s->late_ns = 0;
	s->source = LR_SOURCE_REPLAY;
	s->n_ifaces = s->n_cpus = s->n_streams = 0;
	lr_replay_queues_view(rp, t->time);
	for (size_t i = 0; i < rp->n_series; i++) {
		const struct rp_series *se = &rp->series[i];

		if (se->side == side && present(se->last_time, se->last_interval, t->time))
			lr_iface_snap_assign(&s->ifaces[s->n_ifaces++], &se->st);
	}
	qsort(s->ifaces, s->n_ifaces, sizeof(*s->ifaces), cmp_iface_name);
	for (size_t i = 0; i < rp->n_cpus; i++) {
		const struct rp_cpu *c = &rp->cpus[i];

		if (c->side != side || !present(c->last_time, c->last_interval, t->time))
			continue;
		s->cpus[s->n_cpus++] = c->st;
		if (c->st.valid & LR_CPUV_TIMES) {
			busy[0] += c->st.user_pct;
			busy[1] += c->st.system_pct;
			busy[2] += c->st.irq_pct;
			busy[3] += c->st.softirq_pct;
			busy[4] += c->st.idle_pct;
			n_times++;
		}
	}
	/* the aggregate "cpu" line: the mean of the CPUs, as /proc/stat's sum is */
	memset(&s->cpu_all, 0, sizeof(s->cpu_all));
	s->cpu_all.cpu = -1;
	s->cpu_all.steal_pct = -1;
	if (n_times) {
		s->cpu_all.valid = LR_CPUV_TIMES;
		s->cpu_all.user_pct = busy[0] / (double)n_times;
		s->cpu_all.system_pct = busy[1] / (double)n_times;
		s->cpu_all.irq_pct = busy[2] / (double)n_times;
		s->cpu_all.softirq_pct = busy[3] / (double)n_times;
		s->cpu_all.idle_pct = busy[4] / (double)n_times;
	}
	memset(&s->stack, 0, sizeof(s->stack));	/* not in the CSVs: unknown */
	memset(&s->tuning, 0, sizeof(s->tuning));
	s->tuning.rmem_max = s->tuning.wmem_max = s->tuning.netdev_max_backlog = -1;
	for (int i = 0; i < 3; i++)
		s->tuning.tcp_rmem[i] = s->tuning.tcp_wmem[i] = -1;
	s->tuning.tcp_window_scaling = s->tuning.tcp_timestamps = s->tuning.tcp_sack = -1;
	if (side == RP_LOCAL)
		rp->target = -1;
	for (size_t i = 0; side == RP_LOCAL && i < rp->n_streams; i++) {
		const struct rp_stream *st = &rp->streams[i];

		if (!present(st->last_time, st->last_interval, t->time))
			continue;
		s->streams[s->n_streams++] = st->st;
		/* a known target over "unknown", and over "not recorded" */
		if (st->target > rp->target || rp->target == -1)
			rp->target = st->target;
	}
	s->traffic_generation = 1;
}

/* ---- the clock ---- */

static double clamp(const struct lr_replay *rp, double pos)
{
	double lo = lr_replay_first_time(rp), hi = lr_replay_last_time(rp);

	return pos < lo ? lo : pos > hi ? hi : pos;
}

double lr_replay_pos(const struct lr_replay *rp, uint64_t now_ns)
{
	double pos = rp->pos_anchor;

	if (!rp->paused && now_ns > rp->mono_anchor)
		pos += (double)(now_ns - rp->mono_anchor) / 1e9 * ldexp(1.0, rp->speed_exp);
	return clamp(rp, pos);
}

bool lr_replay_at_end(const struct lr_replay *rp, uint64_t now_ns)
{
	return lr_replay_pos(rp, now_ns) >= lr_replay_last_time(rp);
}

bool lr_replay_paused(const struct lr_replay *rp)
{
	return rp->paused;
}

static void anchor(struct lr_replay *rp, uint64_t now_ns)
{
	rp->pos_anchor = lr_replay_pos(rp, now_ns);
	rp->mono_anchor = now_ns;
}

void lr_replay_set_paused(struct lr_replay *rp, bool paused, uint64_t now_ns)
{
	anchor(rp, now_ns);
	rp->paused = paused;
}

int lr_replay_speed_step(struct lr_replay *rp, int step, uint64_t now_ns)
{
	int e = rp->speed_exp + step;

	anchor(rp, now_ns);
	rp->speed_exp = e < LR_REPLAY_SPEED_MIN ? LR_REPLAY_SPEED_MIN
			: e > LR_REPLAY_SPEED_MAX ? LR_REPLAY_SPEED_MAX : e;
	return rp->speed_exp;
}

int lr_replay_speed_exp(const struct lr_replay *rp)
{
	return rp->speed_exp;
}

void lr_replay_seek(struct lr_replay *rp, double delta_s, uint64_t now_ns)
{
	anchor(rp, now_ns);
	rp->pos_anchor = clamp(rp, rp->pos_anchor + delta_s);
}

/* The last tick at or before pos. */
static size_t tick_at(const struct lr_replay *rp, double pos)
{
	size_t lo = 0, hi = rp->n_ticks;

	while (hi - lo > 1) {
		size_t mid = lo + (hi - lo) / 2;

		if (rp->ticks[mid].time <= pos)
			lo = mid;
		else
			hi = mid;
	}
	return lo;
}

uint64_t lr_replay_next_due_ns(const struct lr_replay *rp, uint64_t now_ns)
{
	double pos = lr_replay_pos(rp, now_ns);
	size_t k = tick_at(rp, pos);

	if (rp->paused || k + 1 >= rp->n_ticks)
		return UINT64_MAX;
	return (uint64_t)((rp->ticks[k + 1].time - pos) / ldexp(1.0, rp->speed_exp) * 1e9) + 1;
}

int lr_replay_read(struct lr_replay *rp, uint64_t now_ns, struct lr_snapshot *out,
		   uint64_t *seen)
{
	size_t k = tick_at(rp, lr_replay_pos(rp, now_ns));

	if (k != rp->built || rp->dirty) {
		if (rp->built == RP_NONE || k < rp->built)
			reset_states(rp);
		advance(rp, k);
		rp->seq++;
		build(rp, RP_LOCAL, k, now_ns);
		build(rp, RP_PEER, k, now_ns);
		rp->built = k;
		rp->dirty = false;
	}
	if (*seen == rp->seq)
		return 0;
	if (lr_snapshot_copy(out, &rp->snap[RP_LOCAL]))
		return -ENOMEM;
	*seen = rp->seq;
	return 1;
}

const struct lr_snapshot *lr_replay_peer(const struct lr_replay *rp, const char **host)
{
	if (!rp->have[RP_PEER] || rp->built == RP_NONE)
		return NULL;
	if (host)
		*host = rp->host[RP_PEER];
	return &rp->snap[RP_PEER];
}

void lr_replay_reset_totals(struct lr_replay *rp)
{
	for (size_t i = 0; i < rp->n_series; i++)
		lr_iftable_snap_reset_totals(&rp->series[i].st);
	rp->dirty = rp->built != RP_NONE;
}
