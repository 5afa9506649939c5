/* SPDX-License-Identifier: GPL-2.0-or-later */
/* A synthetic run for the verdict's tests (test_verdict.c, test_verdict_ledger.c): one
 * interface and four CPUs, one second per tick, shaped like the seed reports. */
#ifndef LINERATE_TEST_VERDICT_RUN_H
#define LINERATE_TEST_VERDICT_RUN_H

#include <stdint.h>

#include "fakes/fake_driver.h"
#include "linerate/diagnose/verdict.h"
#include "linerate/sample/snapshot.h"

#define SEC 1000000000ULL

struct run {
	struct lr_snapshot s;
	struct lr_iface_snap i;
	struct lr_cpu_snap cpus[4];
	struct lr_drv_counter drv;
};

/* eth1 at speed (Mbit/s, -1 unknown) and mtu, bytes_per_s received, fifo_per_s FIFO events
 * (rx_missed_errors and a driver counter), its rx ring and maximum, CPU 2 at hot_pct softirq. */
void make_run(struct run *r, int64_t speed, int64_t mtu, uint64_t bytes_per_s,
	      uint64_t fifo_per_s, int64_t ring, int64_t ring_max, double hot_pct);
/* ticks ticks of r into a fresh accumulator a, then the verdict v for traffic t. */
void judge(struct run *r, unsigned ticks, const struct lr_verdict_traffic *t,
	   struct lr_verdict_acc *a, struct lr_verdict *v);

#endif
