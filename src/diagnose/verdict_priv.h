/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Shared between the verdict's files (verdict.c books, verdict_judge.c, verdict_out.c). */
#ifndef LINERATE_VERDICT_PRIV_H
#define LINERATE_VERDICT_PRIV_H

#include <stdbool.h>
#include <stddef.h>

#define LR_VERDICT_HOT_PCT 95.0

struct lr_verdict_acc;
struct lr_snapshot;

/* verdict_cpu.c: sums a taken tick's CPU times into the block, judging it once full. */
void lr_verdict_cpu_tick(struct lr_verdict_acc *a, const struct lr_snapshot *s);
/* Judges what the block holds now (the test's last seconds) if it spans the sampler's CPU
 * window; s gives the interfaces' serving CPUs. */
void lr_verdict_cpu_flush(struct lr_verdict_acc *a, const struct lr_snapshot *s);
/* Clears the block (the window restarts). */
void lr_verdict_cpu_reset(struct lr_verdict_acc *a);

/* verdict_numa.c: records each CPU's and each interface's NUMA node from a snapshot. */
void lr_verdict_numa_tick(struct lr_verdict_acc *a, const struct lr_snapshot *s, bool take);
/* The NUMA rule: a saturated CPU serving the NIC sits on another node than the NIC. Writes
 * the next step naming the NIC's node's CPUs into buf and returns true, else false. */
struct lr_verdict;
struct lr_verdict_traffic;
bool lr_verdict_numa_step(const struct lr_verdict_acc *a, const struct lr_verdict_traffic *t,
			  const struct lr_verdict *v, char *buf, size_t len);
/* The other NUMA rule: the test's stream threads ran off the NIC's node while that node's
 * CPUs idled, for at least half the ticks they moved data. Same contract. */
bool lr_verdict_numa_streams_step(const struct lr_verdict_acc *a,
				  const struct lr_verdict_traffic *t, const struct lr_verdict *v,
				  char *buf, size_t len);
struct lr_verdict;
struct lr_verdict_traffic;

/* verdict_queue.c: sums a taken tick's per-queue rx packets and their CPUs' softirq/idle. */
void lr_verdict_queue_tick(struct lr_verdict_acc *a, const struct lr_snapshot *s);
/* The RSS rule over v->iface's queues: one queue took most rx packets on a saturated CPU
 * while another queue's CPU idled. Writes v->next_step when it holds (unless the rx ring
 * rule applies: a bigger ring is the first fix). */
void lr_verdict_queue_judge(const struct lr_verdict_acc *a, const struct lr_verdict_traffic *t,
			    struct lr_verdict *v);

#endif
