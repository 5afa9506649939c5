// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The per-queue counters of the exposition (issue 16, docs/design.md §13):
 * linerate_queue_{rx,tx}_{packets,bytes,dropped}_total{iface,queue}. The snapshot carries a
 * queue's sums since linerate first read it (lr_queue_snap.cum[]), not the driver's own
 * cumulative values, so these counters start at 0 when linerate first sees a queue. Each series
 * is the exporter's own 64-bit sum of what cum[] grew by between two snapshots: a queue that
 * goes and comes back, or an interface re-created under its name (cum[] restarts from 0), adds
 * what it counted since, and a series never goes backwards while linerate runs. Only queues
 * in the last snapshot are rendered; a series absent for LR_PROM_FORGET_NS is forgotten.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "linerate/core/array.h"
#include "linerate/core/strutil.h"
#include "prom_priv.h"

#define N_FIELDS 6	/* lr_queue_snap.cum[], in LR_QV_* bit order */

struct qser {
	char iface[LR_IFNAMSIZ];
	unsigned queue;
	int ifindex;
	uint32_t generation;
	bool present;		/* in the last snapshot fed */
	uint64_t seen_ns;
	uint32_t have;		/* LR_QV_*: last[] holds a reading of this device's queue */
	uint32_t known;		/* LR_QV_*: acc[] is rendered */
	uint64_t last[N_FIELDS], acc[N_FIELDS];
};

struct prom_queues {
	struct qser *q;	/* sorted by iface, then queue */
	size_t n, cap;
};

struct qkey {
	const char *iface;
	unsigned queue;
};

static int cmp_qser(const void *entry, const void *key)
{
	const struct qser *e = entry;
	const struct qkey *k = key;
	int c = strcmp(e->iface, k->iface);

	return c ? c : (e->queue > k->queue) - (e->queue < k->queue);
}

static struct qser *qser_get(struct prom_queues *t, const char *iface, unsigned queue)
{
	const struct qkey k = {iface, queue};
	bool added;
	struct qser *e =
		lr_array_sorted_get(&t->q, &t->n, &t->cap, sizeof(*e), &k, cmp_qser, &added);

	if (e && added) {
		lr_strlcpy(e->iface, iface, sizeof(e->iface));
		e->queue = queue;
		e->ifindex = -1;
	}
	return e;
}

static void qser_update(struct qser *e, const struct lr_iface_snap *f, const struct lr_queue_snap *k)
{
	/* another device under this name: its queues' sums restart from 0 */
	if (e->ifindex < 0 || f->generation != e->generation ||
	    (f->ifindex > 0 && e->ifindex > 0 && f->ifindex != e->ifindex))
		e->have = 0;
	for (unsigned i = 0; i < N_FIELDS; i++) {
		uint32_t bit = 1u << i;
		uint64_t cur = k->cum[i];

		if (!(k->valid & bit))
			continue;
		if (!(e->have & bit) || cur < e->last[i])
			e->acc[i] += cur;	/* first reading, or the sums restarted: all of it */
		else
			e->acc[i] += cur - e->last[i];
		e->last[i] = cur;
		e->have |= bit;
		e->known |= bit;
	}
	e->ifindex = f->ifindex > 0 ? f->ifindex : 0;
	e->generation = f->generation;
}

int lr_prom_queues_update(struct prom_queues **tp, const struct lr_snapshot *s)
{
	struct prom_queues *t = *tp;

	if (!t) {
		bool any = false;

		for (size_t i = 0; i < s->n_ifaces && !any; i++)
			any = s->ifaces[i].n_queues > 0;
		if (!any)
			return 0;
		t = *tp = calloc(1, sizeof(*t));
		if (!t)
			return -ENOMEM;
	}
	LR_PROM_ALL_ABSENT(t->q, t->n);
	for (size_t i = 0; i < s->n_ifaces; i++) {
		const struct lr_iface_snap *f = &s->ifaces[i];

		for (size_t j = 0; j < f->n_queues; j++) {
			struct qser *e = qser_get(t, f->name, f->queues[j].queue);

			if (!e)
				return -ENOMEM;
			qser_update(e, f, &f->queues[j]);
			e->present = true;
			e->seen_ns = s->mono_ns;
		}
	}
	LR_PROM_FORGET(t->q, t->n, s->mono_ns);
	return 0;
}

static const struct prom_fam fams[N_FIELDS] = {
	{"linerate_queue_rx_packets", true,
	 "Packets received on this queue since linerate first read it (driver per-queue stats)."},
	{"linerate_queue_rx_bytes", true,
	 "Bytes received on this queue since linerate first read it (driver per-queue stats)."},
	{"linerate_queue_tx_packets", true,
	 "Packets sent on this queue since linerate first read it (driver per-queue stats)."},
	{"linerate_queue_tx_bytes", true,
	 "Bytes sent on this queue since linerate first read it (driver per-queue stats)."},
	{"linerate_queue_rx_dropped", true,
	 "Packets dropped on receive on this queue since linerate first read it."},
	{"linerate_queue_tx_dropped", true,
	 "Packets dropped on send on this queue since linerate first read it."},
};

void lr_prom_queues_render(const struct prom_queues *t, enum lr_prom_format f,
			   struct lr_prom_buf *b)
{
	if (!t)
		return;
	for (unsigned k = 0; k < N_FIELDS; k++) {
		bool head = false;

		for (size_t i = 0; i < t->n; i++) {
			const struct qser *e = &t->q[i];

			if (!e->present || !(e->known & (1u << k)))
				continue;
			if (!head)
				lr_prom_header(b, f, &fams[k]);
			head = true;
			lr_prom_sample_name(b, &fams[k]);
			lr_prom_put(b, "{iface=\"");
			lr_prom_put_label(b, e->iface);
			lr_prom_put(b, "\",queue=\"%u\"} %llu\n", e->queue,
				    (unsigned long long)e->acc[k]);
		}
	}
}

void lr_prom_queues_free(struct prom_queues *t)
{
	if (!t)
		return;
	free(t->q);
	free(t);
}
