// SPDX-License-Identifier: GPL-2.0-or-later
/* The verdict tests' synthetic run (verdict_run.h). */
#include <string.h>

#include "fakes/verdict_run.h"

/* One second per tick: bytes/packets per second, fifo events per second. */
void make_run(struct run *r, int64_t speed, int64_t mtu, uint64_t bytes_per_s,
	      uint64_t fifo_per_s, int64_t ring, int64_t ring_max, double hot_pct)
{
	memset(r, 0, sizeof(*r));
	strcpy(r->i.name, "eth1");
	r->i.speed_mbps = speed;
	r->i.mtu = mtu;
	r->i.ring_rx = ring;
	r->i.ring_rx_max = ring_max;
	r->i.valid = LR_M_BIT(LR_M_RX_BYTES) | LR_M_BIT(LR_M_RX_PACKETS) |
		     LR_M_BIT(LR_M_TX_BYTES) | LR_M_BIT(LR_M_TX_PACKETS) |
		     LR_M_BIT(LR_M_RX_MISSED_ERRORS) | LR_M_BIT(LR_M_NIC_FIFO);
	r->i.delta[LR_M_RX_BYTES] = bytes_per_s;
	r->i.delta[LR_M_RX_PACKETS] = bytes_per_s / (uint64_t)(mtu + 14);
	r->i.delta[LR_M_RX_MISSED_ERRORS] = fifo_per_s;
	r->i.delta[LR_M_NIC_FIFO] = fifo_per_s;
	r->i.softirq_max_pct = hot_pct;
	r->i.softirq_cpu = 2;
	if (fifo_per_s) {
		strcpy(r->drv.name, "rx_missed_errors");
		r->drv.cat = LR_CAT_FIFO;
		r->drv.total = fifo_per_s;
		r->i.moved = &r->drv;
		r->i.n_moved = 1;
	}
	for (int c = 0; c < 4; c++) {
		r->cpus[c].cpu = c;
		r->cpus[c].valid = LR_CPUV_TIMES;
		r->cpus[c].idle_pct = c == 2 ? 100 - hot_pct : 95;
		r->cpus[c].softirq_pct = c == 2 ? hot_pct : 1;
	}
	r->s.ifaces = &r->i;
	r->s.n_ifaces = 1;
	r->s.cpus = r->cpus;
	r->s.n_cpus = 4;
	r->s.interval_ns = SEC;
	r->s.tuning.rmem_max = 212992;
	r->s.tuning.tcp_window_scaling = 1;
}

void judge(struct run *r, unsigned ticks, const struct lr_verdict_traffic *t,
	   struct lr_verdict_acc *a, struct lr_verdict *v)
{
	lr_verdict_init(a, "eth1");
	for (unsigned k = 1; k <= ticks; k++) {
		r->s.mono_ns = 100 * SEC + k * SEC;
		lr_verdict_add(a, &r->s);
	}
	lr_verdict_compute(a, t, v);
}
