/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Per-CPU history for the CPU pane: busy % and softirq %, one point per shown snapshot, kept by
 * the dashboard (and the replay) beside the snapshot it shows. The sampler's snapshot carries
 * history per interface only; a byte per point keeps this small (1024 CPUs: 512 KB). [main] */
#ifndef LINERATE_CPU_HIST_H
#define LINERATE_CPU_HIST_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "linerate/core/common.h"

struct lr_snapshot;
struct lr_series;

#define LR_CPU_HIST_LEN 256	/* points per CPU: wider than the pane's graphs */

struct lr_cpu_hist {
	int *cpu;				/* the kernel's CPU number of each slot */
	uint8_t (*busy)[LR_CPU_HIST_LEN];	/* 0..100; LR_CPU_HIST_UNKNOWN */
	uint8_t (*softirq)[LR_CPU_HIST_LEN];
	size_t n, cap;
	uint32_t head, len;			/* the ring, shared by every slot */
	uint64_t last_seq;			/* the snapshot last taken */
	bool have_seq;
};

#define LR_CPU_HIST_UNKNOWN 255

void lr_cpu_hist_init(struct lr_cpu_hist *h);
void lr_cpu_hist_free(struct lr_cpu_hist *h);
/* One point per CPU of s, once per snapshot (the same seq again adds nothing); a CPU s lacks
 * gets an unknown point. 0 or -ENOMEM (the history then stops growing, nothing else). */
int lr_cpu_hist_push(struct lr_cpu_hist *h, const struct lr_snapshot *s) LR_MUST_CHECK;
/* cpu's points, oldest first, into out (NAN for unknown); false when cpu has none. */
bool lr_cpu_hist_series(const struct lr_cpu_hist *h, int cpu, bool softirq,
			struct lr_series *out);

#endif
