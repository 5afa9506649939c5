// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The latency probes' line of the verdict: latency.h's rule, with the queue the verdict's
 * books saw fill on the side that held it (the sender's root qdisc, the receiver's socket or
 * softnet backlog).
 */
#include <string.h>

#include "linerate/diagnose/latency.h"
#include "linerate/diagnose/verdict.h"

void lr_verdict_latency(const struct lr_verdict_acc *a, const struct lr_verdict_traffic *t,
			const struct lr_latency *l, struct lr_verdict *v)
{
	const struct lr_verdict_iface *i = v->iface;
	struct lr_latency_where w = {.udp_rcvbuf = -1, .softnet_drop = -1};

	(void)a;
	v->latency[0] = '\0';
	v->latency_judgement = LR_LATJ_UNKNOWN;
	if (!l)
		return;
	w.sender_local = !t->reverse || t->bidir;
	w.receiver_local = t->reverse || t->bidir;
	if (i) {
		w.iface = i->name;
		w.qdisc = i->qdisc_name;
		w.backlog_known = i->qdisc_backlog_known;
		w.backlog_max_bytes = i->qdisc_backlog_max_bytes;
		w.backlog_max_packets = i->qdisc_backlog_max_packets;
		w.udp_rcvbuf = (int64_t)v->udp_rcvbuf;
		w.softnet_drop = (int64_t)v->softnet_drop;
	}
	v->latency_judgement = lr_latency_judge(l, &w, v->latency, sizeof(v->latency));
}
