// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The verdict at the end of a test. Snapshots are folded into per-interface totals as they
 * arrive (main thread); at the end the interface the traffic used is judged: its rate against
 * the link and the goodput ceiling at its MTU, where packets were lost, which CPU was hottest,
 * and the one next step the counters support — the lessons of the test reports linerate was
 * built from (rx ring size, IRQ/RPS spread, socket buffers, jumbo frames, more streams).
 */
#include <jansson.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "linerate/sample/snapshot.h"
#include "linerate/core/strutil.h"
#include "linerate/present/verdict.h"

#define HOT_PCT 95.0
#define NOMINAL_PCT 105.0 /* above this share of its speed a link's speed is not real */

void lr_verdict_init(struct lr_verdict_acc *a, const char *iface)
{
	memset(a, 0, sizeof(*a));
	a->rmem_max = a->tcp_window_scaling = -1;
	if (iface)
		lr_strlcpy(a->want, iface, sizeof(a->want));
}

static struct lr_verdict_iface *acc_iface(struct lr_verdict_acc *a, const char *name)
{
	struct lr_verdict_iface *v;

	for (unsigned i = 0; i < a->n_ifs; i++)
		if (!strcmp(a->ifs[i].name, name))
			return &a->ifs[i];
	if (a->n_ifs == LR_VERDICT_IFACES)
		return NULL;
	v = &a->ifs[a->n_ifs++];
	memset(v, 0, sizeof(*v));
	lr_strlcpy(v->name, name, sizeof(v->name));
	v->speed_mbps = v->mtu = v->ring_rx = v->ring_rx_max = -1;
	v->hot_cpu = -1;
	return v;
}

static void note_drivers(struct lr_verdict_iface *v, const struct lr_iface_snap *i)
{
	for (size_t k = 0; k < i->n_moved; k++) {
		const struct lr_drv_counter *d = &i->moved[k];
		unsigned slot = 3;

		if (d->cat != LR_CAT_FIFO && d->cat != LR_CAT_DROP)
			continue;
		for (unsigned j = 0; j < 3 && slot == 3; j++)
			if (!strcmp(v->top_drv[j], d->name) || !v->top_drv[j][0] ||
			    v->top_drv_total[j] < d->total)
				slot = j;
		if (slot == 3 || !strcmp(v->top_drv[slot], d->name)) {
			if (slot < 3)
				v->top_drv_total[slot] = d->total;
			continue;
		}
		memmove(&v->top_drv[slot + 1], &v->top_drv[slot], (2 - slot) * sizeof(v->top_drv[0]));
		memmove(&v->top_drv_total[slot + 1], &v->top_drv_total[slot],
			(2 - slot) * sizeof(v->top_drv_total[0]));
		lr_strlcpy(v->top_drv[slot], d->name, sizeof(v->top_drv[slot]));
		v->top_drv_total[slot] = d->total;
	}
}

/* Another CPU under half busy while the hot one is saturated: a spread problem, not a
 * machine that is simply out of CPU. */
static bool others_idle(const struct lr_snapshot *s, int hot)
{
	for (size_t c = 0; c < s->n_cpus; c++)
		if (s->cpus[c].cpu != hot && (s->cpus[c].valid & LR_CPUV_TIMES) &&
		    s->cpus[c].idle_pct > 50)
			return true;
	return false;
}

void lr_verdict_add(struct lr_verdict_acc *a, const struct lr_snapshot *s)
{
	if (!a->ticks)
		a->first_ns = s->mono_ns - s->interval_ns;
	a->last_ns = s->mono_ns;
	a->ticks++;
	for (size_t k = 0; k < s->n_ifaces; k++) {
		const struct lr_iface_snap *i = &s->ifaces[k];
		struct lr_verdict_iface *v = acc_iface(a, i->name);

		if (!v)
			continue;
		for (unsigned m = 0; m < LR_M__COUNT; m++)
			if (i->valid & LR_M_BIT(m))
				v->total[m] += i->delta[m];
		v->valid |= i->valid;
		v->speed_mbps = i->speed_mbps;
		v->mtu = i->mtu;
		v->ring_rx = i->ring_rx;
		v->ring_rx_max = i->ring_rx_max;
		lr_strlcpy(v->driver, i->driver, sizeof(v->driver));
		if (i->softirq_max_pct > v->hot_pct) {
			v->hot_pct = i->softirq_max_pct;
			v->hot_cpu = i->softirq_cpu;
		}
		if (i->softirq_max_pct >= HOT_PCT) {
			v->hot_ticks++;
			v->others_idle |= others_idle(s, i->softirq_cpu);
		}
		note_drivers(v, i);
	}
	if (s->stack.valid & LR_STACKV_TCP_RETRANS)
		a->tcp_retrans += (uint64_t)(s->stack.tcp_retrans_per_s * (double)s->interval_ns / 1e9 + 0.5);
	if (s->stack.valid & LR_STACKV_UDP_RCVBUF)
		a->udp_rcvbuf += (uint64_t)(s->stack.udp_rcvbuf_errors_per_s * (double)s->interval_ns / 1e9 + 0.5);
	if (s->stack.valid & LR_STACKV_UDP_IN_ERRORS)
		a->udp_in_errors += (uint64_t)(s->stack.udp_in_errors_per_s * (double)s->interval_ns / 1e9 + 0.5);
	a->stack_valid |= s->stack.valid;
	a->rmem_max = s->tuning.rmem_max;
	a->tcp_window_scaling = s->tuning.tcp_window_scaling;
}

const struct lr_verdict_iface *lr_verdict_pick(const struct lr_verdict_acc *a)
{
	const struct lr_verdict_iface *best = NULL;
	uint64_t most = 0;

	for (unsigned i = 0; i < a->n_ifs; i++) {
		const struct lr_verdict_iface *v = &a->ifs[i];
		uint64_t b = v->total[LR_M_RX_BYTES] + v->total[LR_M_TX_BYTES];

		if (a->want[0] && !strcmp(v->name, a->want))
			return v;
		if (!best || b > most) {
			best = v;
			most = b;
		}
	}
	return a->want[0] ? NULL : best;
}

static uint64_t tot(const struct lr_verdict_iface *v, enum lr_metric m)
{
	return v->valid & LR_M_BIT(m) ? v->total[m] : 0;
}

static void add_loss(char *buf, size_t len, const char *where, uint64_t n, const char *why)
{
	char num[32];
	size_t used = strlen(buf);

	if (!n)
		return;
	lr_fmt_si(num, sizeof(num), (double)n);
	snprintf(buf + used, len - used, "%s%s %s (%s)", used ? ", " : "", where, num, why);
}

/* "182 Mbit/s", "9.41 Gbit/s", "512 bit/s" */
static void fmt_bps(char *buf, size_t len, double bps)
{
	char num[32], prefix[2] = "";
	size_t n;

	lr_fmt_si(num, sizeof(num), bps);
	n = strlen(num);
	if (n && (num[n - 1] < '0' || num[n - 1] > '9')) {
		prefix[0] = num[n - 1];
		num[n - 1] = '\0';
	}
	snprintf(buf, len, "%s %sbit/s", num, prefix);
}

/* The one next step, first rule whose evidence is there. */
static void next_step(const struct lr_verdict_acc *a, const struct lr_verdict_traffic *t,
		      struct lr_verdict *v)
{
	const struct lr_verdict_iface *f = v->iface;
	bool hot = f->hot_ticks * 4 >= a->ticks && f->hot_ticks;
	char c1[32], c2[32];

	if (v->nic_fifo && f->ring_rx > 0 && f->ring_rx_max > f->ring_rx) {
		snprintf(v->next_step, sizeof(v->next_step),
			 "the NIC FIFO overflowed with the rx ring at %lld of %lld: "
			 "ethtool -G %s rx %lld",
			 (long long)f->ring_rx, (long long)f->ring_rx_max, f->name,
			 (long long)f->ring_rx_max);
	} else if (v->nic_fifo && hot) {
		snprintf(v->next_step, sizeof(v->next_step),
			 "the NIC FIFO overflowed while cpu%d ran %.0f%% softirq: spread the rx "
			 "queues' IRQs over more CPUs (IRQ affinity, irqbalance) or enable RPS",
			 f->hot_cpu, f->hot_pct);
	} else if (v->nic_fifo) {
		snprintf(v->next_step, sizeof(v->next_step),
			 "the NIC FIFO overflowed: the host did not drain the rx ring in time; "
			 "check the ring (ethtool -g %s) and the IRQ spread",
			 f->name);
	} else if (a->udp_rcvbuf) {
		snprintf(v->next_step, sizeof(v->next_step),
			 "UDP socket buffers overflowed %llu times: raise net.core.rmem_max (now "
			 "%lld) and the socket buffer (-w)",
			 (unsigned long long)a->udp_rcvbuf, (long long)a->rmem_max);
	} else if (hot && f->others_idle) {
		snprintf(v->next_step, sizeof(v->next_step),
			 "cpu%d ran %.0f%% softirq while other CPUs idled: one queue on one CPU caps "
			 "the rate; spread IRQs/RPS%s",
			 f->hot_cpu, f->hot_pct,
			 t->ran && t->parallel == 1 ? ", or use more streams (-P 4) so RSS spreads them"
						    : "");
	} else if (v->ceiling_pct >= 95 && f->mtu > 0 && f->mtu <= 1500 && f->speed_mbps >= 10000) {
		fmt_bps(c1, sizeof(c1), v->ceiling_bps);
		fmt_bps(c2, sizeof(c2), (double)f->speed_mbps * 1e6 * (9000.0 - 52) / (9000 + 38));
		snprintf(v->next_step, sizeof(v->next_step),
			 "at the goodput ceiling of MTU %lld (%s): jumbo frames (MTU 9000 end to "
			 "end) raise it to %s",
			 (long long)f->mtu, c1, c2);
	} else if (v->ceiling_pct >= 95) {
		snprintf(v->next_step, sizeof(v->next_step),
			 "line rate reached (%.1f%% of the goodput ceiling): nothing to fix",
			 v->ceiling_pct);
	} else if (t->ran && !t->udp && t->retransmits > 0 && v->ceiling_pct >= 0 &&
		   v->ceiling_pct < 90) {
		snprintf(v->next_step, sizeof(v->next_step),
			 "TCP retransmitted %lld segments: loss on the path; check the peer's "
			 "counters and the MTU on both ends",
			 (long long)t->retransmits);
	} else if (a->tcp_window_scaling == 0 && t->ran && !t->udp) {
		snprintf(v->next_step, sizeof(v->next_step),
			 "TCP window scaling is off, which caps a stream's window at 64 KiB: "
			 "sysctl -w net.ipv4.tcp_window_scaling=1");
	} else if (t->ran && !t->udp && t->parallel == 1 && v->ceiling_pct >= 0 &&
		   v->ceiling_pct < 90) {
		snprintf(v->next_step, sizeof(v->next_step),
			 "one TCP stream, no loss and no saturated CPU: try more streams (-P 4)");
	} else if (v->speed_nominal) {
		snprintf(v->next_step, sizeof(v->next_step),
			 "%s carried more than the %lld Mbit/s it reports (a virtual link's nominal "
			 "speed): no line-rate verdict; no loss or saturation in the counters",
			 f->name, (long long)f->speed_mbps);
	} else if (v->ceiling_pct < 0) {
		snprintf(v->next_step, sizeof(v->next_step),
			 "%s has no link speed (virtual interface): no line-rate verdict; no loss "
			 "or saturation in the counters",
			 f->name);
	} else {
		snprintf(v->next_step, sizeof(v->next_step),
			 "no bottleneck visible in the counters");
	}
}

void lr_verdict_compute(const struct lr_verdict_acc *a, const struct lr_verdict_traffic *t,
			struct lr_verdict *v)
{
	const struct lr_verdict_iface *f = lr_verdict_pick(a);
	double wire_rx, wire_tx, goodput, speed;
	uint64_t fifo_stats;

	memset(v, 0, sizeof(*v));
	v->line_pct = v->ceiling_bps = v->ceiling_pct = -1;
	v->iface = f;
	if (!f || !a->ticks) {
		snprintf(v->next_step, sizeof(v->next_step), "nothing was sampled");
		return;
	}
	v->seconds = (double)(a->last_ns - a->first_ns) / 1e9;
	if (v->seconds <= 0)
		v->seconds = 1e-9;
	v->rx_bps = (double)tot(f, LR_M_RX_BYTES) * 8 / v->seconds;
	v->tx_bps = (double)tot(f, LR_M_TX_BYTES) * 8 / v->seconds;
	speed = (double)f->speed_mbps * 1e6;
	if (f->speed_mbps > 0) {
		wire_rx = (double)(tot(f, LR_M_RX_BYTES) + 24 * tot(f, LR_M_RX_PACKETS)) * 8 / v->seconds;
		wire_tx = (double)(tot(f, LR_M_TX_BYTES) + 24 * tot(f, LR_M_TX_PACKETS)) * 8 / v->seconds;
		v->line_pct = (wire_rx > wire_tx ? wire_rx : wire_tx) / speed * 100;
		/* A real link cannot carry more than its speed; a veth reports 10000 Mbit/s and
		 * carries whatever the CPUs move. Then the speed says nothing: no ceiling. */
		v->speed_nominal = v->line_pct > NOMINAL_PCT;
		if (v->speed_nominal)
			v->line_pct = -1;
		if (f->mtu > 52 && !v->speed_nominal) {
			double hdr = t->ran && t->udp ? 28 : 52;	/* IP+UDP, or IP+TCP+timestamps */

			v->ceiling_bps = speed * ((double)f->mtu - hdr) / ((double)f->mtu + 38);
			goodput = t->ran ? fmax(t->up_bps, t->down_bps) : fmax(v->rx_bps, v->tx_bps);
			v->ceiling_pct = goodput / v->ceiling_bps * 100;
		}
	}
	/* stats64 and the driver's own counters often report the same event: take the larger */
	fifo_stats = tot(f, LR_M_RX_MISSED_ERRORS) + tot(f, LR_M_RX_FIFO_ERRORS) +
		     tot(f, LR_M_RX_OVER_ERRORS);
	v->nic_fifo = fifo_stats > tot(f, LR_M_NIC_FIFO) ? fifo_stats : tot(f, LR_M_NIC_FIFO);
	v->nic_drop = tot(f, LR_M_NIC_DROP);
	v->stack_drop = tot(f, LR_M_RX_DROPPED) + tot(f, LR_M_TX_DROPPED);
	v->errors = tot(f, LR_M_RX_ERRORS) + tot(f, LR_M_TX_ERRORS);
	add_loss(v->loss, sizeof(v->loss), "NIC FIFO", v->nic_fifo,
		 f->top_drv[0][0] ? f->top_drv[0] : "rx_missed/fifo/over");
	add_loss(v->loss, sizeof(v->loss), "driver", v->nic_drop, "ethtool drop counters");
	add_loss(v->loss, sizeof(v->loss), "stack", v->stack_drop, "rx/tx_dropped");
	add_loss(v->loss, sizeof(v->loss), "socket", a->udp_rcvbuf, "UDP RcvbufErrors");
	add_loss(v->loss, sizeof(v->loss), "errors", v->errors, "rx/tx_errors");
	next_step(a, t, v);
}

void lr_verdict_print(FILE *out, const struct lr_verdict_acc *a, const struct lr_verdict *v)
{
	const struct lr_verdict_iface *f = v->iface;
	char rx[32], tx[32], ceil[32];

	if (!f) {
		fprintf(out, "NIC view: %s\n", v->next_step);
		return;
	}
	fmt_bps(rx, sizeof(rx), v->rx_bps);
	fmt_bps(tx, sizeof(tx), v->tx_bps);
	fprintf(out, "NIC view of %s over %.1f s: rx %s, tx %s", f->name, v->seconds, rx, tx);
	if (v->line_pct >= 0)
		fprintf(out, ", %.1f%% of the %lld Mbit/s link", v->line_pct, (long long)f->speed_mbps);
	else if (v->speed_nominal)
		fprintf(out, ", above the %lld Mbit/s the link reports (a nominal speed)",
			(long long)f->speed_mbps);
	fputc('\n', out);
	if (v->ceiling_bps > 0) {
		fmt_bps(ceil, sizeof(ceil), v->ceiling_bps);
		fprintf(out, "  goodput ceiling at MTU %lld: %s; achieved %.1f%% of it\n",
			(long long)f->mtu, ceil, v->ceiling_pct);
	}
	fprintf(out, "  loss: %s\n", v->loss[0] ? v->loss : "none in the counters");
	if (f->hot_cpu >= 0)
		fprintf(out, "  hottest CPU: cpu%d, %.0f%% softirq at peak\n", f->hot_cpu, f->hot_pct);
	if (a->stack_valid & LR_STACKV_TCP_RETRANS)
		fprintf(out, "  TCP retransmits (host-wide): %llu\n", (unsigned long long)a->tcp_retrans);
	fprintf(out, "  next step: %s\n", v->next_step);
}

static json_t *num_or_null(double v, bool known)
{
	return known ? json_real(v) : json_null();
}

json_t *lr_verdict_json(const struct lr_verdict_acc *a, const struct lr_verdict *v)
{
	const struct lr_verdict_iface *f = v->iface;
	json_t *o = json_object(), *loss = json_object();

	if (!o || !loss) {
		json_decref(o);
		json_decref(loss);
		return NULL;
	}
	json_object_set_new(o, "interface", f ? json_string(f->name) : json_null());
	json_object_set_new(o, "seconds", num_or_null(v->seconds, f != NULL));
	json_object_set_new(o, "rx_bps", num_or_null(v->rx_bps, f != NULL));
	json_object_set_new(o, "tx_bps", num_or_null(v->tx_bps, f != NULL));
	json_object_set_new(o, "link_mbps", f && f->speed_mbps > 0 ? json_integer(f->speed_mbps)
								    : json_null());
	json_object_set_new(o, "mtu", f && f->mtu > 0 ? json_integer(f->mtu) : json_null());
	json_object_set_new(o, "line_pct", num_or_null(v->line_pct, v->line_pct >= 0));
	json_object_set_new(o, "link_speed_nominal", json_boolean(v->speed_nominal));
	json_object_set_new(o, "ceiling_bps", num_or_null(v->ceiling_bps, v->ceiling_bps >= 0));
	json_object_set_new(o, "ceiling_pct", num_or_null(v->ceiling_pct, v->ceiling_pct >= 0));
	json_object_set_new(loss, "nic_fifo", json_integer((json_int_t)v->nic_fifo));
	json_object_set_new(loss, "driver_drop", json_integer((json_int_t)v->nic_drop));
	json_object_set_new(loss, "stack_drop", json_integer((json_int_t)v->stack_drop));
	json_object_set_new(loss, "socket_rcvbuf", json_integer((json_int_t)a->udp_rcvbuf));
	json_object_set_new(loss, "errors", json_integer((json_int_t)v->errors));
	json_object_set_new(o, "loss", loss);
	json_object_set_new(o, "hottest_cpu", f && f->hot_cpu >= 0 ? json_integer(f->hot_cpu)
								    : json_null());
	json_object_set_new(o, "hottest_softirq_pct",
			    num_or_null(f ? f->hot_pct : 0, f && f->hot_cpu >= 0));
	json_object_set_new(o, "tcp_retransmits_host",
			    a->stack_valid & LR_STACKV_TCP_RETRANS
				    ? json_integer((json_int_t)a->tcp_retrans)
				    : json_null());
	json_object_set_new(o, "next_step", json_string(v->next_step));
	return o;
}
