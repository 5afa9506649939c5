// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Per-queue deltas and rates of one interface. The slot array is indexed by queue number (a
 * NIC's queues are 0..N-1), so adding a value is an index, not a search; it grows only when a
 * higher queue shows up (a channel-count change), never on a steady tick.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "linerate/sample/queuetab.h"
#include "linerate/core/array.h"
#include "linerate/sample/rate.h"
#include "linerate/sample/snapshot.h"

#define MAX_QUEUE 65535
#define N_FIELDS 6	/* the LR_QV_* bits, in order */

struct slot {
	struct lr_queue_snap snap;
	uint64_t base[N_FIELDS];	/* last cumulative reading (qstats) */
	uint32_t have_base;		/* LR_QV_* bits */
};

struct lr_queuetab {
	struct slot *slot;
	size_t cap;		/* slots allocated (queue numbers 0..cap-1) */
	struct lr_queue_snap *out;	/* the published view: the slots that are known */
	size_t out_cap;
};

static unsigned field_index(uint32_t bit)
{
	return (unsigned)__builtin_ctz(bit);
}

static uint64_t *field(struct lr_queue_snap *s, uint32_t bit)
{
	switch (bit) {
	case LR_QV_RX_PACKETS: return &s->rx_packets;
	case LR_QV_RX_BYTES: return &s->rx_bytes;
	case LR_QV_TX_PACKETS: return &s->tx_packets;
	case LR_QV_TX_BYTES: return &s->tx_bytes;
	case LR_QV_RX_DROPS: return &s->rx_drops;
	case LR_QV_TX_DROPS: return &s->tx_drops;
	default: return NULL;
	}
}

struct lr_queuetab *lr_queuetab_new(void)
{
	return calloc(1, sizeof(struct lr_queuetab));
}

void lr_queuetab_free(struct lr_queuetab *q)
{
	if (!q)
		return;
	free(q->slot);
	free(q->out);
	free(q);
}

static int reserve(struct lr_queuetab *q, unsigned queue)
{
	size_t ncap = q->cap, out_cap = q->out_cap;

	if (queue > MAX_QUEUE)
		return -ERANGE;
	if (queue < q->cap)
		return 0;
	if (lr_array_grow_zero(&q->slot, &ncap, (size_t)queue + 1, sizeof(*q->slot)))
		return -ENOMEM;
	for (size_t i = q->cap; i < ncap; i++)
		q->slot[i].snap.queue = (unsigned)i;
	if (lr_array_grow(&q->out, &out_cap, ncap, sizeof(*q->out)))
		return -ENOMEM;	/* slot grew; cap stays, so the next call retries */
	q->out_cap = out_cap;
	q->cap = ncap;
	return 0;
}

void lr_queuetab_begin(struct lr_queuetab *q)
{
	for (size_t i = 0; i < q->cap; i++) {
		struct lr_queue_snap *s = &q->slot[i].snap;

		s->valid = 0;
		s->rx_packets = s->rx_bytes = s->tx_packets = s->tx_bytes = 0;
		s->rx_drops = s->tx_drops = 0;
	}
}

int lr_queuetab_add(struct lr_queuetab *q, unsigned queue, uint32_t bit, uint64_t delta)
{
	int rc = reserve(q, queue);
	uint64_t *f;

	if (rc)
		return rc;
	f = field(&q->slot[queue].snap, bit);
	if (!f)
		return -EINVAL;
	*f += delta;
	q->slot[queue].snap.cum[field_index(bit)] += delta;
	q->slot[queue].snap.valid |= bit;
	return 0;
}

int lr_queuetab_add_cumulative(struct lr_queuetab *q, unsigned queue, uint32_t bit,
			       uint64_t value)
{
	int rc = reserve(q, queue);
	struct slot *sl;
	unsigned k;
	uint64_t delta;

	if (rc)
		return rc;
	if (!field(&q->slot[queue].snap, bit))
		return -EINVAL;
	sl = &q->slot[queue];
	k = field_index(bit);
	if ((sl->have_base & bit) && lr_rate_delta(sl->base[k], value, 64, &delta)) {
		rc = lr_queuetab_add(q, queue, bit, delta);
		sl = &q->slot[queue];	/* the slots did not move (queue < cap), but say so */
	}
	sl->base[k] = value;
	sl->have_base |= bit;
	return rc;
}

void lr_queuetab_forget(struct lr_queuetab *q)
{
	for (size_t i = 0; i < q->cap; i++)
		q->slot[i].have_base = 0;
}

void lr_queuetab_publish(struct lr_queuetab *q, uint64_t now_ns, uint64_t dt_ns,
			 struct lr_iface_snap *s)
{
	size_t n = 0;

	for (size_t i = 0; i < q->cap && n < q->out_cap; i++) {
		struct lr_queue_snap *qs = &q->slot[i].snap;

		if (!qs->valid)
			continue;
		if (!qs->base_ns)	/* its first interval ended now: it began one tick ago */
			qs->base_ns = now_ns - dt_ns;
		qs->rx_pps = (qs->valid & LR_QV_RX_PACKETS) ? lr_rate_per_sec(qs->rx_packets, dt_ns)
							    : -1;
		qs->tx_pps = (qs->valid & LR_QV_TX_PACKETS) ? lr_rate_per_sec(qs->tx_packets, dt_ns)
							    : -1;
		qs->cpu = -1;
		qs->cpu_softirq_pct = -1;
		q->out[n++] = *qs;
	}
	s->queues = q->out;
	s->n_queues = n;
}

/* The softirq % of cpu in snap (sorted by CPU number), -1 unknown. */
static double softirq_of(const struct lr_snapshot *snap, int cpu)
{
	const struct lr_cpu_snap *c = lr_snapshot_cpu(snap, cpu);

	return c && (c->valid & LR_CPUV_TIMES) ? c->softirq_pct : -1;
}

void lr_queuetab_cpus(struct lr_iface_snap *s, const struct lr_snapshot *snap,
		      const int *cpu_by_queue, size_t n)
{
	/* one serving CPU serves every queue; with several, a queue its IRQ names do not number
	 * stays unknown, never guessed */
	int only = s->n_serving_cpus == 1 ? s->serving_cpus[0] : -1;

	for (size_t i = 0; i < s->n_queues; i++) {
		struct lr_queue_snap *q = &s->queues[i];
		int cpu = q->queue < n && cpu_by_queue[q->queue] >= 0 ? cpu_by_queue[q->queue] : only;

		q->cpu = cpu;
		q->cpu_softirq_pct = cpu >= 0 ? softirq_of(snap, cpu) : -1;
	}
}
