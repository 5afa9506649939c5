// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The replay's queues: the --queues-csv rows applied to each interface series as a live
 * sampler's queue table would hold them (this interval's counts and rates, cum[] the sums so
 * far, the serving CPU and its softirq share), so the Queues pane and the HOT Q column work in
 * replay. Slots are made once from the rows (one per distinct series x queue), never during
 * playback; a queue is shown while its rows keep coming, as interfaces are. [main]
 */
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "replay_priv.h"

#define GONE_SLACK_S 0.5	/* as replay.c: shown until 2 intervals + this after its last row */

int lr_replay_queues_init(struct lr_replay *rp)
{
	uint64_t *keys;
	size_t k;

	if (!rp->n_qrows)
		return 0;
	keys = malloc(rp->n_qrows * sizeof(*keys));
	if (!keys)
		return -ENOMEM;
	for (size_t i = 0; i < rp->n_qrows; i++)	/* queue numbers are 0 .. 2^20 */
		keys[i] = (uint64_t)rp->qrows[i].series << 32 | rp->qrows[i].queue;
	k = lr_replay_distinct(keys, rp->n_qrows);
	for (size_t i = 0; i < k;) {	/* each series' run of distinct queues */
		struct rp_series *se = &rp->series[keys[i] >> 32];
		size_t n = 0;

		while (i + n < k && keys[i + n] >> 32 == keys[i] >> 32)
			n++;
		se->q = calloc(n, sizeof(*se->q));
		se->qview = calloc(n, sizeof(*se->qview));
		if (!se->q || !se->qview) {
			free(keys);
			return -ENOMEM;
		}
		se->n_q = n;
		for (size_t j = 0; j < n; j++)
			se->q[j].queue = (unsigned)(uint32_t)keys[i + j];
		i += n;
	}
	free(keys);
	return 0;
}

void lr_replay_queues_reset(struct lr_replay *rp)
{
	for (size_t i = 0; i < rp->n_series; i++) {
		struct rp_series *se = &rp->series[i];

		for (size_t j = 0; j < se->n_q; j++) {
			unsigned q = se->q[j].queue;

			memset(&se->q[j], 0, sizeof(se->q[j]));
			se->q[j].queue = q;
			se->q[j].last_time = -1;
		}
		se->qsrc = LR_QSRC_NONE;
	}
}

static int cmp_queue(const void *key, const void *slot)
{
	unsigned q = *(const unsigned *)key, s = ((const struct rp_queue *)slot)->queue;

	return (q > s) - (q < s);
}

/* counter columns (rx_packets .. tx_drops, 5..10) in LR_QV_* bit order */
static uint64_t *field(struct lr_queue_snap *s, unsigned i)
{
	uint64_t *f[] = {&s->rx_packets, &s->rx_bytes, &s->tx_packets, &s->tx_bytes,
			 &s->rx_drops, &s->tx_drops};

	return f[i];
}

static void apply(struct lr_replay *rp, const struct rp_qrow *r)
{
	struct rp_series *se = &rp->series[r->series];
	struct rp_queue *q = bsearch(&r->queue, se->q, se->n_q, sizeof(*se->q), cmp_queue);
	struct lr_queue_snap *s;

	if (!q)
		return;
	s = &q->st;
	s->queue = r->queue;
	s->valid = 0;
	for (unsigned i = 0; i < 6; i++) {
		double d = r->v[5 + i];

		*field(s, i) = isnan(d) ? 0 : (uint64_t)d;
		if (isnan(d))
			continue;
		s->valid |= 1u << i;
		s->cum[i] += *field(s, i);
	}
	s->rx_pps = isnan(r->v[11]) ? -1 : r->v[11];
	s->tx_pps = isnan(r->v[12]) ? -1 : r->v[12];
	s->cpu = isnan(r->v[13]) ? -1 : (int)r->v[13];
	s->cpu_softirq_pct = isnan(r->v[14]) ? -1 : r->v[14];
	q->last_time = r->time;
	q->last_interval = isnan(r->v[4]) ? 0 : r->v[4];
	se->qsrc = (enum lr_queue_source)r->source;
}

void lr_replay_queues_advance(struct lr_replay *rp, double t)
{
	while (rp->cur_q < rp->n_qrows && rp->qrows[rp->cur_q].time <= t)
		apply(rp, &rp->qrows[rp->cur_q++]);
}

void lr_replay_queues_view(struct lr_replay *rp, double t)
{
	for (size_t i = 0; i < rp->n_series; i++) {
		struct rp_series *se = &rp->series[i];
		size_t n = 0;

		for (size_t j = 0; j < se->n_q; j++) {
			const struct rp_queue *q = &se->q[j];

			if (q->last_time >= 0 && q->last_time + 2 * q->last_interval + GONE_SLACK_S >= t)
				se->qview[n++] = q->st;
		}
		se->st.queues = n ? se->qview : NULL;
		se->st.n_queues = n;
		se->st.queue_source = n ? se->qsrc : LR_QSRC_NONE;
	}
}

void lr_replay_queues_free(struct lr_replay *rp)
{
	for (size_t i = 0; i < rp->n_series; i++) {
		free(rp->series[i].q);
		free(rp->series[i].qview);
		rp->series[i].q = NULL;
		rp->series[i].qview = NULL;
		rp->series[i].n_q = 0;
	}
}
