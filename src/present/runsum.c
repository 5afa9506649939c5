// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The run's books for headless text and JSON output: sums of the kernel's deltas (so a total
 * here is the sum of the CSV's column) over the measured intervals, peaks of the per-tick
 * rates. Unknown stays unknown: a column no interval knew is left out, never 0.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "linerate/present/runsum.h"
#include "linerate/core/array.h"
#include "linerate/sample/ifrate.h"
#include "linerate/sample/snapshot.h"

void lr_runsum_init(struct lr_runsum *rs)
{
	memset(rs, 0, sizeof(*rs));
}

void lr_runsum_free(struct lr_runsum *rs)
{
	free(rs->ifs);
	free(rs->cpus);
	lr_runsum_init(rs);
}

static struct lr_runsum_iface *iface_of(struct lr_runsum *rs, const char *name)
{
	for (size_t i = 0; i < rs->n_ifs; i++)
		if (!strcmp(rs->ifs[i].name, name))
			return &rs->ifs[i];
	if (lr_array_grow(&rs->ifs, &rs->cap_ifs, rs->n_ifs + 1, sizeof(*rs->ifs)))
		return NULL;
	memset(&rs->ifs[rs->n_ifs], 0, sizeof(rs->ifs[0]));
	snprintf(rs->ifs[rs->n_ifs].name, sizeof(rs->ifs[0].name), "%s", name);
	rs->ifs[rs->n_ifs].peak_rx_bps = rs->ifs[rs->n_ifs].peak_tx_bps = -1;
	rs->ifs[rs->n_ifs].peak_rx_pps = rs->ifs[rs->n_ifs].peak_tx_pps = -1;
	return &rs->ifs[rs->n_ifs++];
}

static struct lr_runsum_cpu *cpu_of(struct lr_runsum *rs, int cpu)
{
	for (size_t i = 0; i < rs->n_cpus; i++)
		if (rs->cpus[i].cpu == cpu)
			return &rs->cpus[i];
	if (lr_array_grow(&rs->cpus, &rs->cap_cpus, rs->n_cpus + 1, sizeof(*rs->cpus)))
		return NULL;
	memset(&rs->cpus[rs->n_cpus], 0, sizeof(rs->cpus[0]));
	rs->cpus[rs->n_cpus].cpu = cpu;
	rs->cpus[rs->n_cpus].softirq_peak = rs->cpus[rs->n_cpus].busy_peak = -1;
	return &rs->cpus[rs->n_cpus++];
}

/* The sum of the known deltas of m[0..n); false when none is known. */
static bool delta_sum(const struct lr_iface_snap *ifs, const enum lr_metric *m, size_t n,
		      uint64_t *out)
{
	bool any = false;

	*out = 0;
	for (size_t i = 0; i < n; i++) {
		if (ifs->valid & LR_M_BIT(m[i])) {
			*out += ifs->delta[m[i]];
			any = true;
		}
	}
	return any;
}

static void add_col(struct lr_runsum_iface *ri, enum lr_runsum_col c, bool known, uint64_t v)
{
	if (!known)
		return;
	ri->sum[c] += v;
	ri->known |= 1u << c;
}

static void peak(double *p, double v)
{
	if (v >= 0 && v > *p)
		*p = v;
}

static void add_iface(struct lr_runsum_iface *ri, const struct lr_iface_snap *ifs)
{
	static const enum lr_metric drops[] = {LR_M_RX_DROPPED, LR_M_TX_DROPPED};
	static const enum lr_metric fifo[] = {LR_M_RX_FIFO_ERRORS, LR_M_RX_MISSED_ERRORS,
					      LR_M_RX_OVER_ERRORS};
	static const enum lr_metric one[LR_RS_FIFO] = {LR_M_RX_BYTES, LR_M_TX_BYTES,
						      LR_M_RX_PACKETS, LR_M_TX_PACKETS};
	double secs = (double)ifs->interval_ns / 1e9;
	uint64_t s64, nic;
	bool k64, knic;

	if (!ifs->interval_ns)
		return;
	ri->ns += ifs->interval_ns;
	for (int c = 0; c < LR_RS_DROPS; c++)
		add_col(ri, c, ifs->valid & LR_M_BIT(one[c]), ifs->delta[one[c]]);
	/* as the overview's DROP/s and FIFO/s: stats64 or the driver's count, the larger */
	k64 = delta_sum(ifs, drops, LR_ARRAY_SIZE(drops), &s64);
	knic = ifs->valid & LR_M_BIT(LR_M_NIC_DROP);
	nic = knic ? ifs->delta[LR_M_NIC_DROP] : 0;
	add_col(ri, LR_RS_DROPS, k64 || knic, nic > s64 ? nic : s64);
	k64 = delta_sum(ifs, fifo, LR_ARRAY_SIZE(fifo), &s64);
	knic = ifs->valid & LR_M_BIT(LR_M_NIC_FIFO);
	nic = knic ? ifs->delta[LR_M_NIC_FIFO] : 0;
	add_col(ri, LR_RS_FIFO, k64 || knic, nic > s64 ? nic : s64);
	if (ifs->valid & LR_M_BIT(LR_M_RX_BYTES))
		peak(&ri->peak_rx_bps, (double)ifs->delta[LR_M_RX_BYTES] * 8 / secs);
	if (ifs->valid & LR_M_BIT(LR_M_TX_BYTES))
		peak(&ri->peak_tx_bps, (double)ifs->delta[LR_M_TX_BYTES] * 8 / secs);
	if (ifs->valid & LR_M_BIT(LR_M_RX_PACKETS))
		peak(&ri->peak_rx_pps, (double)ifs->delta[LR_M_RX_PACKETS] / secs);
	if (ifs->valid & LR_M_BIT(LR_M_TX_PACKETS))
		peak(&ri->peak_tx_pps, (double)ifs->delta[LR_M_TX_PACKETS] / secs);
	ri->speed_mbps = ifs->speed_mbps;
	ri->line_mbps = lr_ifrate_line_mbps(ifs);
	ri->mtu = ifs->mtu;
}

int lr_runsum_add(struct lr_runsum *rs, const struct lr_snapshot *s)
{
	for (size_t i = 0; i < s->n_ifaces; i++) {
		struct lr_runsum_iface *ri = iface_of(rs, s->ifaces[i].name);

		if (!ri)
			return -ENOMEM;
		add_iface(ri, &s->ifaces[i]);
	}
	for (size_t i = 0; i < s->n_cpus; i++) {
		const struct lr_cpu_snap *c = &s->cpus[i];
		struct lr_runsum_cpu *rc;
		double busy;

		if (!(c->valid & LR_CPUV_TIMES) || !s->interval_ns)
			continue;
		rc = cpu_of(rs, c->cpu);
		if (!rc)
			return -ENOMEM;
		busy = 100.0 - c->idle_pct - (c->steal_pct > 0 ? c->steal_pct : 0);
		rc->ns += s->interval_ns;
		rc->softirq_x_ns += c->softirq_pct * (double)s->interval_ns;
		rc->busy_x_ns += busy * (double)s->interval_ns;
		peak(&rc->softirq_peak, c->softirq_pct);
		peak(&rc->busy_peak, busy);
	}
	if (!rs->ticks)
		rs->first_real_ns = s->real_ns;
	rs->last_real_ns = s->real_ns;
	rs->ticks++;
	return 0;
}

double lr_runsum_rate(const struct lr_runsum_iface *ri, enum lr_runsum_col col)
{
	if (!(ri->known & (1u << col)) || !ri->ns)
		return -1;
	return (double)ri->sum[col] / ((double)ri->ns / 1e9);
}

static json_t *known_int(const struct lr_runsum_iface *ri, enum lr_runsum_col c)
{
	return ri->known & (1u << c) ? json_integer((json_int_t)ri->sum[c]) : json_null();
}

static json_t *maybe_real(double v)
{
	return v >= 0 ? json_real(v) : json_null();
}

json_t *lr_runsum_json(const struct lr_runsum *rs)
{
	json_t *root = json_object(), *run = json_object(), *ifs = json_array();
	json_t *cpus = json_array();

	json_object_set_new(run, "start_time", json_real((double)rs->first_real_ns / 1e9));
	json_object_set_new(run, "ticks", json_integer(rs->ticks));
	for (size_t i = 0; i < rs->n_ifs; i++) {
		const struct lr_runsum_iface *ri = &rs->ifs[i];
		json_t *o = json_object();
		double rx = lr_runsum_rate(ri, LR_RS_RX_BYTES), tx = lr_runsum_rate(ri, LR_RS_TX_BYTES);

		json_object_set_new(o, "iface", json_string(ri->name));
		json_object_set_new(o, "seconds", json_real((double)ri->ns / 1e9));
		json_object_set_new(o, "rx_bytes", known_int(ri, LR_RS_RX_BYTES));
		json_object_set_new(o, "tx_bytes", known_int(ri, LR_RS_TX_BYTES));
		json_object_set_new(o, "rx_packets", known_int(ri, LR_RS_RX_PACKETS));
		json_object_set_new(o, "tx_packets", known_int(ri, LR_RS_TX_PACKETS));
		json_object_set_new(o, "drops", known_int(ri, LR_RS_DROPS));
		json_object_set_new(o, "fifo", known_int(ri, LR_RS_FIFO));
		json_object_set_new(o, "rx_bps_mean", maybe_real(rx < 0 ? rx : rx * 8));
		json_object_set_new(o, "tx_bps_mean", maybe_real(tx < 0 ? tx : tx * 8));
		json_object_set_new(o, "rx_bps_peak", maybe_real(ri->peak_rx_bps));
		json_object_set_new(o, "tx_bps_peak", maybe_real(ri->peak_tx_bps));
		json_object_set_new(o, "rx_pps_peak", maybe_real(ri->peak_rx_pps));
		json_object_set_new(o, "tx_pps_peak", maybe_real(ri->peak_tx_pps));
		json_object_set_new(o, "link_mbps",
				    ri->speed_mbps >= 0 ? json_integer(ri->speed_mbps) : json_null());
		json_object_set_new(o, "mtu", ri->mtu >= 0 ? json_integer(ri->mtu) : json_null());
		json_array_append_new(ifs, o);
	}
	for (size_t i = 0; i < rs->n_cpus; i++) {
		const struct lr_runsum_cpu *rc = &rs->cpus[i];
		json_t *o = json_object();
		double ns = (double)rc->ns;

		json_object_set_new(o, "cpu", json_integer(rc->cpu));
		json_object_set_new(o, "softirq_pct_mean", maybe_real(ns ? rc->softirq_x_ns / ns : -1));
		json_object_set_new(o, "softirq_pct_peak", maybe_real(rc->softirq_peak));
		json_object_set_new(o, "busy_pct_mean", maybe_real(ns ? rc->busy_x_ns / ns : -1));
		json_object_set_new(o, "busy_pct_peak", maybe_real(rc->busy_peak));
		json_array_append_new(cpus, o);
	}
	json_object_set_new(run, "interfaces", ifs);
	json_object_set_new(run, "cpus", cpus);
	json_object_set_new(root, "linerate_run", run);
	return root;
}
