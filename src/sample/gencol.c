// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The traffic generator as a source. The sampler thread reads each stream's relaxed atomics
 * through the gen source the main thread set, and turns them into per-interval deltas and
 * rates on the sampler's clock. A mutex guards the source pointer: the main thread swaps it
 * when a test restarts and must clear it before it frees the streams.
 */
#include <errno.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>

#include "linerate/sample/gencol.h"
#include "linerate/core/array.h"
#include "linerate/sample/rate.h"
#include "linerate/sample/snapshot.h"
#include "linerate/core/streamstats.h"

struct prev {
	int id;
	bool sender;
	bool have;
	uint64_t bytes, packets, retrans, lost, ooo;
};

struct lr_gencol {
	pthread_mutex_t lock;
	struct lr_gen_source src;
	bool has_src;
	uint32_t generation;
	struct prev *prev;
	struct lr_stream_snap *out;
	size_t cap, n;
};

int lr_gencol_open(struct lr_gencol **out)
{
	struct lr_gencol *g = calloc(1, sizeof(*g));

	if (!g)
		return -ENOMEM;
	pthread_mutex_init(&g->lock, NULL);
	*out = g;
	return 0;
}

void lr_gencol_close(struct lr_gencol *g)
{
	if (!g)
		return;
	pthread_mutex_destroy(&g->lock);
	free(g->prev);
	free(g->out);
	free(g);
}

void lr_gencol_set_source(struct lr_gencol *g, const struct lr_gen_source *src)
{
	pthread_mutex_lock(&g->lock);
	g->has_src = src != NULL;
	if (src)
		g->src = *src;
	g->n = 0;
	g->generation++;
	pthread_mutex_unlock(&g->lock);
}

/* prev[] and out[] share g->cap: each grows from it by the same rule to the same size */
static int reserve(struct lr_gencol *g, size_t n)
{
	size_t cap_prev = g->cap, cap_out = g->cap;

	if (lr_array_grow_zero(&g->prev, &cap_prev, n, sizeof(*g->prev)) ||
	    lr_array_grow(&g->out, &cap_out, n, sizeof(*g->out)))
		return -ENOMEM;
	g->cap = cap_prev;
	return 0;
}

static uint64_t ld(const _Atomic uint64_t *v)
{
	return atomic_load_explicit(v, memory_order_relaxed);
}

/* Monotonic counters: a smaller value can only mean a new stream object, so no delta. */
static uint64_t step(uint64_t prev, uint64_t cur)
{
	return cur >= prev ? cur - prev : 0;
}

static void read_one(struct prev *p, const struct lr_gen_stream *gs, uint64_t dt_ns,
		     struct lr_stream_snap *o)
{
	const struct lr_stream_stats *st = gs->stats;
	uint64_t bytes = ld(&st->bytes), packets = ld(&st->packets), retrans = ld(&st->retransmits);
	uint64_t lost = ld(&st->lost), ooo = ld(&st->out_of_order);
	bool tcp_sender = !gs->udp && gs->sender, udp_receiver = gs->udp && !gs->sender;
	uint64_t cwnd = ld(&st->cwnd_bytes), rtt = ld(&st->rtt_us);

	if (!p->have || p->id != gs->id || p->sender != gs->sender) {
		memset(p, 0, sizeof(*p));
		p->id = gs->id;
		p->sender = gs->sender;
	}
	memset(o, 0, sizeof(*o));
	o->id = gs->id;
	o->sender = gs->sender;
	o->udp = gs->udp;
	o->valid = p->have && dt_ns;
	o->packets_unknown = ld(&st->packets_unknown);
	if (o->valid) {
		o->bytes = step(p->bytes, bytes);
		o->packets = step(p->packets, packets);
		o->retransmits = step(p->retrans, retrans);
		o->lost = step(p->lost, lost);
		o->out_of_order = step(p->ooo, ooo);
		o->bps = lr_rate_per_sec(o->bytes, dt_ns) * 8;
		o->pps = lr_rate_per_sec(o->packets, dt_ns);
	}
	o->jitter_ms = udp_receiver ? (double)ld(&st->jitter_ns) / 1e6 : -1;
	o->cwnd_bytes = tcp_sender && cwnd ? (int64_t)cwnd : -1;	/* 0: TCP_INFO not read yet */
	o->rtt_us = tcp_sender && rtt ? (int64_t)rtt : -1;
	o->start_ns = ld(&st->start_ns);
	o->end_ns = ld(&st->end_ns);
	o->cpu = (int)ld(&st->cpu1) - 1;
	o->node = -1;	/* the sampler knows the topology */
	o->target_bps = lr_stream_stats_target(st);
	o->length = ld(&st->length);
	lr_stream_stats_congestion(st, o->congestion);
	o->total_bytes = bytes;
	o->total_packets = packets;
	o->total_retransmits = retrans;
	o->total_lost = lost;
	o->total_out_of_order = ooo;
	p->bytes = bytes;
	p->packets = packets;
	p->retrans = retrans;
	p->lost = lost;
	p->ooo = ooo;
	p->have = true;
}

int lr_gencol_read(struct lr_gencol *g, uint64_t dt_ns, struct lr_snapshot *snap)
{
	unsigned count;
	int err = 0;

	pthread_mutex_lock(&g->lock);
	snap->traffic_generation = g->generation;
	count = g->has_src ? g->src.count(g->src.arg) : 0;
	err = reserve(g, count);
	if (err)
		count = 0;
	g->n = 0;
	for (unsigned i = 0; i < count; i++) {
		struct lr_gen_stream gs;

		if (g->src.info(g->src.arg, i, &gs) || !gs.stats)
			continue;
		read_one(&g->prev[g->n], &gs, dt_ns, &g->out[g->n]);
		g->n++;
	}
	snap->streams = g->out;
	snap->n_streams = g->n;
	pthread_mutex_unlock(&g->lock);
	return err;
}
