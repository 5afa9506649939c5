// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * A matrix case's row before any number is known, and its verdict column: every witness of
 * loss (this host's, then the peer's drops and FIFO, named by the peer's role) and the next
 * step, in one line. Pure; main thread.
 */
#include <stdio.h>
#include <string.h>

#include "linerate/diagnose/matrix_row.h"
#include "linerate/diagnose/verdict.h"

void lr_matrix_row_init(struct lr_matrix_row *r)
{
	memset(r, 0, sizeof(*r));
	r->seconds = r->sender_bps = r->receiver_bps = r->receiver_pps = -1;
	r->retransmits = r->lost = -1;
	r->lost_pct = r->jitter_ms = -1;
	r->cpu_busy_pct = r->softirq_max_pct = r->service_demand = -1;
	r->softirq_cpu = -1;
	r->drops = r->fifo = -1;
	r->peer_cpu_busy_pct = r->peer_softirq_max_pct = r->peer_service_demand = -1;
	r->peer_softirq_cpu = -1;
	r->peer_drops = r->peer_fifo = -1;
	r->time_start = r->time_end = -1;
	r->rr_tps = r->rr_p99_us = -1;
	r->rtt_idle_us = r->rtt_p99_us = -1;
}

/* The peer's own counters of the case (when it shared them), by its role in the test. */
static void peer_witness(char *buf, size_t len, const struct lr_matrix_row *r)
{
	static const char *const role[3] = {"the receiver", "the sender", "the peer"};
	const char *who = r->dir >= 0 && r->dir < 3 ? role[r->dir] : "the peer";
	char drops[48] = "", fifo[48] = "";

	buf[0] = '\0';
	if (r->peer_drops <= 0 && r->peer_fifo <= 0)
		return;
	if (r->peer_drops > 0)
		snprintf(drops, sizeof(drops), "%lld dropped", (long long)r->peer_drops);
	if (r->peer_fifo > 0)
		snprintf(fifo, sizeof(fifo), "%lld FIFO overruns", (long long)r->peer_fifo);
	snprintf(buf, len, "%s's test interfaces: %s%s%s (its kernel's count)", who, drops,
		 drops[0] && fifo[0] ? ", " : "", fifo);
}

void lr_matrix_verdict_line(const struct lr_verdict *v, const struct lr_matrix_row *r, char *buf,
			    size_t len)
{
	const char *loss = v->iface ? v->loss : "";
	char peer[160];

	peer_witness(peer, sizeof(peer), r);
	if (!loss[0] && !peer[0])
		snprintf(buf, len, "%s", v->next_step);
	else
		snprintf(buf, len, "loss: %s%s%s; %s", loss, loss[0] && peer[0] ? ", " : "", peer,
			 v->next_step);
	for (char *p = buf; *p; p++)	/* one line, whatever the text held */
		if (*p == '\n' || *p == '\r')
			*p = ' ';
}
