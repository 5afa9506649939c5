/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The CPU window: the last few readings of the per-CPU counters, so that CPU percentages
 * always cover at least LR_CPU_WINDOW_MIN_NS whatever the sampling interval. /proc/stat
 * counts in USER_HZ ticks (10 ms): over a 10 ms interval a CPU reads 0 % or 100 %, never the
 * 12 % it is. Event rates (NET_RX/s, softnet) stay per tick: they are exact counts. Owned by
 * the sampler; no locks. [sampler] */
#ifndef LINERATE_CPUWIN_H
#define LINERATE_CPUWIN_H

#include <stdint.h>

#include "linerate/core/common.h"
#include "linerate/collect/cpu.h"

struct lr_snapshot;

#define LR_CPU_WINDOW_MIN_NS (100 * LR_NSEC_PER_MSEC)
/* 10 ms ticks (the fastest interval) and some late ones fit in 16 readings */
#define LR_CPUWIN_SLOTS 16

struct lr_cpuwin {
	struct lr_cpu_table slot[LR_CPUWIN_SLOTS]; /* tables grow on first use only */
	uint64_t at_ns[LR_CPUWIN_SLOTS];
	unsigned order[LR_CPUWIN_SLOTS]; /* the readings held, oldest first */
	unsigned n;
	unsigned next; /* the slot lr_cpuwin_slot handed out */
};

void lr_cpuwin_init(struct lr_cpuwin *w);
void lr_cpuwin_free(struct lr_cpuwin *w); /* leaves an empty window */
/* The table to read the next reading into: a slot no held reading needs (else the oldest). */
struct lr_cpu_table *lr_cpuwin_slot(struct lr_cpuwin *w);
/* The reading just made in lr_cpuwin_slot's table was taken at now_ns: the newest now. */
void lr_cpuwin_push(struct lr_cpuwin *w, uint64_t now_ns);
/* Fills work->cpus/n_cpus and cpu_all from the newest reading: percentages (steal included)
 * against the newest reading at least LR_CPU_WINDOW_MIN_NS older (LR_CPUV_TIMES clear while
 * there is none yet), NET_RX/NET_TX and softnet rates against the previous reading over
 * dt_ns. Then forgets the readings no later window can need. 0 or -ENOMEM. */
int lr_cpuwin_build(struct lr_cpuwin *w, struct lr_snapshot *work, uint64_t dt_ns) LR_MUST_CHECK;

#endif
