/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Each interface's queue -> serving CPU, kept from its last IRQ map (the sampler rebuilds one
 * map every few seconds, round-robin), so every tick can fill the queues' CPUs without
 * re-reading /proc/interrupts. Only interfaces whose IRQ names carry queue numbers have an
 * entry: an interface without (veth, lo, ifb) costs one failed lookup. [sampler] */
#ifndef LINERATE_QUEUECPU_H
#define LINERATE_QUEUECPU_H

#include <stddef.h>

#include "linerate/core/common.h"

struct lr_irqmap;
struct lr_queuecpus;

struct lr_queuecpus *lr_queuecpus_new(void); /* NULL on -ENOMEM */
void lr_queuecpus_free(struct lr_queuecpus *qc); /* NULL-safe */
/* Replaces ifname's entry with what map m says (m built for ifname); removes it when no IRQ
 * name carries a queue. 0 or -ENOMEM. */
int lr_queuecpus_set(struct lr_queuecpus *qc, const char *ifname,
		     const struct lr_irqmap *m) LR_MUST_CHECK;
/* Drops the entries not set since the previous prune (interfaces that left). */
void lr_queuecpus_prune(struct lr_queuecpus *qc);
/* cpu[q] for q < *n (-1 unknown), or NULL with *n = 0 when ifname has no entry. */
const int *lr_queuecpus_get(const struct lr_queuecpus *qc, const char *ifname, size_t *n);

#endif
