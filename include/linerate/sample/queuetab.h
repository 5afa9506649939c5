/* SPDX-License-Identifier: GPL-2.0-or-later */
/* One interface's per-queue counters over a tick, from either source: the driver's per-queue
 * `ethtool -S` deltas (drvstats) or the kernel's cumulative qstats-get values (the sampler).
 * Slots are indexed by queue number and grow only when a higher queue appears, so a steady
 * tick does not allocate. Publishes a view (struct lr_queue_snap[]) into an interface's
 * snapshot, valid until the next tick. [sampler] */
#ifndef LINERATE_QUEUETAB_H
#define LINERATE_QUEUETAB_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "linerate/core/common.h"

struct lr_queuetab;
struct lr_iface_snap;
struct lr_snapshot;

struct lr_queuetab *lr_queuetab_new(void);	/* NULL on -ENOMEM */
void lr_queuetab_free(struct lr_queuetab *q);	/* NULL-safe */

/* Starts a tick: every interval value and valid bit cleared. */
void lr_queuetab_begin(struct lr_queuetab *q);
/* Adds an interval delta to one field (bit: an LR_QV_* of snapshot.h) of queue. 0 or -ENOMEM
 * (queue > 65535 is -ERANGE). */
int lr_queuetab_add(struct lr_queuetab *q, unsigned queue, uint32_t bit, uint64_t delta)
	LR_MUST_CHECK;
/* A cumulative reading (qstats): the delta from the previous one is added; the first reading
 * of a field, or one that went back (a reset, a queue reconfigured), only becomes the base. */
int lr_queuetab_add_cumulative(struct lr_queuetab *q, unsigned queue, uint32_t bit,
			       uint64_t value) LR_MUST_CHECK;
/* Forgets every cumulative base (a tick whose reading failed: the next one restarts). */
void lr_queuetab_forget(struct lr_queuetab *q);
/* Rates over dt_ns, then s->queues/n_queues point at the slots that had a known field this
 * tick (queue order). */
void lr_queuetab_publish(struct lr_queuetab *q, uint64_t now_ns, uint64_t dt_ns,
			 struct lr_iface_snap *s);

/* Each queue's serving CPU and its softirq %: cpu_by_queue[q] (n entries, -1 unknown; from
 * the interface's IRQ map when its IRQ names carry queue numbers, may be NULL); for a queue it
 * does not name, the interface's only serving CPU when it has exactly one; else unknown. */
void lr_queuetab_cpus(struct lr_iface_snap *s, const struct lr_snapshot *snap,
		      const int *cpu_by_queue, size_t n);

#endif
