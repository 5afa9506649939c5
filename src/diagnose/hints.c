// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Diagnosis hints: one line each, only where the evidence in the snapshot is clear: FIFO
 * misses rising with the rx ring below its maximum, one CPU pinned in softirq while the others
 * idle, UDP receive-buffer errors rising, MTU 1500 on a >= 10G link at its goodput ceiling
 * (a line rate only: lr_ifrate_line_mbps, the verdict's rule); during a test, the loss
 * ledger's newest interval names where the packets went (lr_hints_ledger: the ledger's stages).
 * The dashboard shows them under the interface table. Pure; any thread.
 */
#include <stdio.h>
#include <string.h>

#include "linerate/sample/snapshot.h"
#include "linerate/core/strutil.h"
#include "linerate/diagnose/hints.h"
#include "linerate/diagnose/ledger.h"
#include "linerate/sample/ifrate.h"

#define SOFTIRQ_HOT_PCT 95.0
#define OTHERS_IDLE_PCT 30.0	/* the other CPUs' average busy % below which they "idle" */
#define NEAR_CEILING 0.90

static bool fifo_rising(const struct lr_iface_snap *ifs)
{
	static const enum lr_metric m[] = {LR_M_RX_MISSED_ERRORS, LR_M_RX_FIFO_ERRORS,
					   LR_M_RX_OVER_ERRORS, LR_M_NIC_FIFO};

	for (size_t i = 0; i < LR_ARRAY_SIZE(m); i++)
		if (lr_ifrate_per_s(ifs, m[i]) > 0)
			return true;
	return false;
}

static bool serves(const struct lr_iface_snap *ifs, int cpu)
{
	for (size_t i = 0; i < ifs->n_serving_cpus; i++)
		if (ifs->serving_cpus[i] == cpu)
			return true;
	return false;
}

/* The CPU over SOFTIRQ_HOT_PCT softirq while the others average under OTHERS_IDLE_PCT busy,
 * when it serves ifs (or ifs's serving CPUs are unknown). NULL when there is none. */
static const struct lr_cpu_snap *lone_hot_cpu(const struct lr_snapshot *s,
					      const struct lr_iface_snap *ifs)
{
	const struct lr_cpu_snap *hot = NULL;
	double others = 0;
	size_t n_others = 0;

	for (size_t i = 0; i < s->n_cpus; i++) {
		const struct lr_cpu_snap *c = &s->cpus[i];

		if (!(c->valid & LR_CPUV_TIMES))
			continue;
		if (c->softirq_pct > SOFTIRQ_HOT_PCT && !hot) {
			hot = c;
			continue;
		}
		others += 100.0 - c->idle_pct;
		n_others++;
	}
	if (!hot || !n_others || others / (double)n_others >= OTHERS_IDLE_PCT)
		return NULL;
	/* blame only the interface this CPU serves (or, serving CPUs unknown, its hottest) */
	if (ifs->n_serving_cpus ? !serves(ifs, hot->cpu) : ifs->softirq_cpu != hot->cpu)
		return NULL;
	if (lr_ifrate_per_s(ifs, LR_M_RX_PACKETS) <= 0 && lr_ifrate_per_s(ifs, LR_M_TX_PACKETS) <= 0)
		return NULL;
	return hot;
}

size_t lr_hints_live(const struct lr_snapshot *s, const struct lr_iface_snap *ifs,
		     char (*out)[LR_HINT_MAX], size_t max)
{
	const struct lr_stack_snap *st = &s->stack;
	const struct lr_cpu_snap *hot;
	size_t n = 0;

	if (n < max && fifo_rising(ifs) && ifs->ring_rx > 0 && ifs->ring_rx_max > ifs->ring_rx)
		snprintf(out[n++], LR_HINT_MAX, "rx ring %lld of %lld: ethtool -G %s rx %lld",
			 (long long)ifs->ring_rx, (long long)ifs->ring_rx_max, ifs->name,
			 (long long)ifs->ring_rx_max);
	hot = lone_hot_cpu(s, ifs);
	if (n < max && hot)
		snprintf(out[n++], LR_HINT_MAX,
			 "cpu%d %.0f%% softirq, others idle: spread %s IRQs (smp_affinity) or RPS",
			 hot->cpu, hot->softirq_pct, ifs->name);
	if (n < max && (st->valid & LR_STACKV_UDP_RCVBUF) && st->udp_rcvbuf_errors_per_s > 0) {
		char r[16], m[32];

		lr_fmt_si(r, sizeof(r), st->udp_rcvbuf_errors_per_s);
		if (s->tuning.rmem_max >= 0)
			snprintf(m, sizeof(m), " (%lld)", (long long)s->tuning.rmem_max);
		else
			m[0] = '\0';
		snprintf(out[n++], LR_HINT_MAX,
			 "UDP rcvbuf errors %s/s: raise net.core.rmem_max%s and SO_RCVBUF", r, m);
	}
	/* a nominal speed (veth, lo, virtio_net...) has no ceiling to be near */
	if (n < max && ifs->mtu > 0 && ifs->mtu <= 1500 && lr_ifrate_line_mbps(ifs) >= 10000) {
		double ceil = lr_ifrate_ceiling_bps(lr_ifrate_line_mbps(ifs), ifs->mtu, false);
		double rx = lr_ifrate_bps(ifs, false), tx = lr_ifrate_bps(ifs, true);
		char c[24];

		if (ceil > 0 && (rx >= ceil * NEAR_CEILING || tx >= ceil * NEAR_CEILING)) {
			lr_fmt_si(c, sizeof(c), ceil);
			snprintf(out[n++], LR_HINT_MAX,
				 "MTU %lld caps TCP at %sb/s: jumbo frames (MTU 9000) end to end",
				 (long long)ifs->mtu, c);
		}
	}
	return n;
}

size_t lr_hints_ledger(const struct lr_ledger *l, double secs, char (*out)[LR_HINT_MAX], size_t max)
{
	const struct lr_ledger_row *best = NULL;
	char rate[16], line[LR_HINT_MAX + 200];
	const char *host;

	if (!l || !max || !(secs > 0))
		return 0;
	for (unsigned i = 0; i < l->n_rows; i++) {
		const struct lr_ledger_row *r = &l->rows[i];

		/* the wire's difference may be other traffic: it is named by the conclusion only */
		if (r->known && r->stage != LR_LS_WIRE && r->count > 0 &&
		    (!best || r->datagrams > best->datagrams))
			best = r;
	}
	if (!best)
		return 0;
	lr_fmt_si(rate, sizeof(rate), best->datagrams / secs);
	host = best->sender ? l->snd_host : l->rcv_host;
	/* --bidir: each direction its own hint, named */
	snprintf(line, sizeof(line), "%s%sloss %s %s/s at the %s's %s: %s on %s (L: the ledger)",
		 l->bidir ? lr_ledger_dir_name(l->dir) : "", l->bidir ? ": " : "",
		 l->unit ? l->unit : "datagrams", rate, best->sender ? "sender" : "receiver",
		 lr_ledger_stage_name(best->stage), best->counter ? best->counter : "?",
		 host[0] ? host : "?");
	lr_strlcpy(out[0], line, LR_HINT_MAX);	/* a long host name: cut, the view marks it */
	return 1;
}
