// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The peer's series for the Prometheus endpoint (issue 16: "peer metrics labelled
 * side="peer" when the peer shares"). Interface counters come from the peer's cumulative sums
 * (exact: each frame carries the kernel's deltas since the peer's first reading of the test);
 * a new test restarts those sums, so a series adds the new sums whole, as prom.c does for the
 * driver counters, and never goes backwards. A frame carries CPU time and softirq counts as
 * cumulative values too, but the peer view hands them on as rates over the frame's interval:
 * they are summed back (rate x interval), so a peer CPU counter matches the peer's /proc/stat
 * to the rounding of its percentages.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "linerate/core/array.h"
#include "linerate/core/strutil.h"
#include "prom_priv.h"

static struct peer_if *peer_if_get(struct peer_series *q, const char *name)
{
	for (size_t i = 0; i < q->n_ifs; i++)
		if (!strcmp(q->ifs[i].name, name))
			return &q->ifs[i];
	if (lr_array_grow(&q->ifs, &q->cap_ifs, q->n_ifs + 1, sizeof(*q->ifs)))
		return NULL;
	memset(&q->ifs[q->n_ifs], 0, sizeof(q->ifs[0]));
	lr_strlcpy(q->ifs[q->n_ifs].name, name, sizeof(q->ifs[0].name));
	return &q->ifs[q->n_ifs++];
}

static void peer_if_update(struct peer_if *e, const struct lr_iface_snap *f)
{
	if (f->base_ns != e->base_ns || f->generation != e->generation)
		e->have = 0;	/* another test (or device): its sums start from 0 */
	for (unsigned m = 0; m < LR_M__COUNT; m++) {
		uint64_t bit = LR_M_BIT(m), cur;

		if (!(f->cum_valid & bit))
			continue;
		cur = f->cum[m];
		e->acc[m] += !(e->have & bit) || cur < e->last[m] ? cur : cur - e->last[m];
		e->last[m] = cur;
		e->have |= bit;
		e->known |= bit;
	}
	e->base_ns = f->base_ns;
	e->generation = f->generation;
}

static int cmp_peer_cpu(const void *e, const void *cpu)
{
	int a = ((const struct peer_cpu *)e)->cpu, b = *(const int *)cpu;

	return (a > b) - (a < b);
}

static struct peer_cpu *peer_cpu_get(struct peer_series *q, int cpu)
{
	bool added;
	struct peer_cpu *c = lr_array_sorted_get(&q->cpus, &q->n_cpus, &q->cap_cpus, sizeof(*c),
						 &cpu, cmp_peer_cpu, &added);

	if (c && added)
		c->cpu = cpu;
	return c;
}

static void peer_cpu_add(struct peer_cpu *c, const struct lr_cpu_snap *k, double dt)
{
	const double pct[] = {k->user_pct, k->system_pct, k->irq_pct, k->softirq_pct, k->idle_pct};
	const double per_s[] = {k->net_rx_per_s, k->net_tx_per_s, k->softnet_processed_per_s,
				k->softnet_dropped_per_s, k->softnet_squeezed_per_s};

	for (unsigned i = 0; (k->valid & LR_CPUV_TIMES) && i <= PC_IDLE; i++)
		if (pct[i] >= 0) {
			c->acc[i] += pct[i] / 100 * dt;
			c->have |= 1u << i;
		}
	for (unsigned i = PC_NET_RX; i < PC__COUNT; i++) {
		uint32_t need = i <= PC_NET_TX ? LR_CPUV_SOFTIRQS : LR_CPUV_SOFTNET;

		if ((k->valid & need) && per_s[i - PC_NET_RX] >= 0) {
			c->acc[i] += per_s[i - PC_NET_RX] * dt;
			c->have |= 1u << i;
		}
	}
}

int lr_prom_peer_update(struct peer_series **qp, const struct lr_snapshot *peer, const char *host,
			uint64_t local_mono_ns)
{
	struct peer_series *q = *qp;
	double dt = (double)peer->interval_ns / 1e9;

	if (!q && !(q = *qp = calloc(1, sizeof(*q))))
		return -ENOMEM;
	if (q->seen_ns && peer->seq == q->last_seq && peer->mono_ns == q->last_mono_ns)
		return 0;	/* already in */
	q->last_seq = peer->seq;
	q->last_mono_ns = peer->mono_ns;
	lr_strlcpy(q->host, host ? host : "", sizeof(q->host));
	q->seen_ns = local_mono_ns;
	q->interval_ns = peer->interval_ns;
	for (size_t i = 0; i < q->n_ifs; i++)
		q->ifs[i].present = false;
	for (size_t i = 0; i < peer->n_ifaces; i++) {
		struct peer_if *e = peer_if_get(q, peer->ifaces[i].name);

		if (!e)
			return -ENOMEM;
		peer_if_update(e, &peer->ifaces[i]);
		e->present = true;
	}
	for (size_t i = 0; i < q->n_cpus; i++)
		q->cpus[i].present = false;
	for (size_t i = 0; i < peer->n_cpus; i++) {
		struct peer_cpu *c = peer_cpu_get(q, peer->cpus[i].cpu);

		if (!c)
			return -ENOMEM;
		c->present = true;
		if (dt > 0)
			peer_cpu_add(c, &peer->cpus[i], dt);
	}
	return 0;
}

void lr_prom_peer_free(struct peer_series *q)
{
	if (!q)
		return;
	free(q->ifs);
	free(q->cpus);
	free(q);
}
