// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The RSS rule of the verdict, evidence only: over the test's ticks, one queue of the
 * interface took most of its rx packets, the CPU serving that queue ran saturated in softirq,
 * and the CPU of another queue idled. Then the hash put the test's few flows on one queue:
 * more flows, or a hash over the ports. Nothing is said when a queue's CPU is unknown. [main]
 */
#include <stdio.h>
#include <string.h>

#include "linerate/core/strutil.h"
#include "linerate/sample/snapshot.h"
#include "linerate/diagnose/verdict.h"
#include "verdict_priv.h"

#define RSS_SHARE   0.6 /* "most": the hot queue's share of the rx packets */
#define IDLE_PCT    50.0 /* another queue's CPU this idle */
#define MIN_PACKETS 1000 /* fewer: no evidence either way */

static struct lr_verdict_qif *qif(struct lr_verdict_acc *a, const char *name)
{
	for (unsigned i = 0; i < a->n_qifs; i++)
		if (!strcmp(a->qifs[i].name, name))
			return &a->qifs[i];
	if (a->n_qifs == LR_VERDICT_QIFS)
		return NULL;
	memset(&a->qifs[a->n_qifs], 0, sizeof(a->qifs[0]));
	lr_strlcpy(a->qifs[a->n_qifs].name, name, sizeof(a->qifs[0].name));
	return &a->qifs[a->n_qifs++];
}

void lr_verdict_queue_tick(struct lr_verdict_acc *a, const struct lr_snapshot *s)
{
	for (size_t i = 0; i < s->n_ifaces; i++) {
		const struct lr_iface_snap *f = &s->ifaces[i];
		struct lr_verdict_qif *v;

		if (!f->n_queues || !(v = qif(a, f->name)))
			continue;
		for (size_t k = 0; k < f->n_queues; k++) {
			const struct lr_queue_snap *q = &f->queues[k];
			const struct lr_cpu_snap *c;
			struct lr_verdict_queue *vq;

			if (!(q->valid & LR_QV_RX_PACKETS))
				continue;
			if (q->queue >= LR_VERDICT_QUEUES) {
				v->rx_other += q->rx_packets;
				continue;
			}
			if (q->queue >= v->n) {
				for (unsigned n = v->n; n <= q->queue; n++)
					v->q[n].cpu = -1;
				v->n = q->queue + 1;
			}
			vq = &v->q[q->queue];
			vq->rx_packets += q->rx_packets;
			c = q->cpu >= 0 ? lr_snapshot_cpu(s, q->cpu) : NULL;
			if (!c || !(c->valid & LR_CPUV_TIMES))
				continue;
			vq->cpu = q->cpu;
			vq->softirq_ns += c->softirq_pct * (double)s->interval_ns;
			vq->idle_ns += c->idle_pct * (double)s->interval_ns;
			vq->known_ns += s->interval_ns;
		}
	}
}

void lr_verdict_queue_judge(const struct lr_verdict_acc *a, const struct lr_verdict_traffic *t,
			    struct lr_verdict *v)
{
	const struct lr_verdict_iface *f = v->iface;
	const struct lr_verdict_qif *qi = NULL;
	const struct lr_verdict_queue *hot = NULL;
	uint64_t total;
	double share, si;
	bool idle = false;
	unsigned h = 0;

	if (!f)
		return;
	for (unsigned i = 0; i < a->n_qifs; i++)
		if (!strcmp(a->qifs[i].name, f->name))
			qi = &a->qifs[i];
	if (!qi || qi->n < 2)
		return;
	total = qi->rx_other;
	for (unsigned k = 0; k < qi->n; k++) {
		total += qi->q[k].rx_packets;
		if (!hot || qi->q[k].rx_packets > hot->rx_packets) {
			hot = &qi->q[k];
			h = k;
		}
	}
	if (total < MIN_PACKETS || !hot->known_ns)
		return;
	share = (double)hot->rx_packets / (double)total;
	si = hot->softirq_ns / (double)hot->known_ns;
	for (unsigned k = 0; k < qi->n; k++) {
		const struct lr_verdict_queue *q = &qi->q[k];

		if (k != h && q->known_ns && q->cpu != hot->cpu &&
		    q->idle_ns / (double)q->known_ns > IDLE_PCT)
			idle = true;
	}
	if (share < RSS_SHARE || si < LR_VERDICT_HOT_PCT || !idle)
		return;
	/* a ring below its maximum that overflowed is the first, cheaper fix */
	if (v->nic_fifo && f->ring_rx > 0 && f->ring_rx_max > f->ring_rx)
		return;
	snprintf(v->next_step, sizeof(v->next_step),
		 "RSS: queue %u took %.0f %% of rx packets on cpu%d (%.0f %% softirq); more "
		 "flows (-P), or check the hash: ethtool -n %s rx-flow-hash %s",
		 h, share * 100, hot->cpu, si, f->name, t->ran && !t->udp ? "tcp4" : "udp4");
}
